/**
 * The config file `lendbot run` and the reading commands use when it exists. A file of its own so
 * that a command needing only the name (backtest, tune) does not load the daemon with it.
 */
export const DEFAULT_CONFIG_FILE = 'config/lendbot.yaml';
