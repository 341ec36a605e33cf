/**
 * The config file `lendbot run` and the reading commands use when it exists. A file of its own so
 * that a command needing only the name (backtest, tune) does not load the daemon with it.
 */
import { existsSync } from 'node:fs';

export const DEFAULT_CONFIG_FILE = 'config/lendbot.yaml';

/** The config file a command reads: `--config` when given, else DEFAULT_CONFIG_FILE when it exists, else none. */
export function configFileOf(option: string | undefined): string | undefined {
  return option ?? (existsSync(DEFAULT_CONFIG_FILE) ? DEFAULT_CONFIG_FILE : undefined);
}
