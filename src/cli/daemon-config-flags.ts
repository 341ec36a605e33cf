/** The daemon's configuration as `lendbot run` and `lendbot mcp` read it: the config file, then the flags over it. */
import { loadDaemonConfig, type DaemonConfigFile } from '../daemon/daemon-config.js';
import type { CliIo } from './cli-io.js';
import { configFileOf } from './default-config-file.js';

export interface DaemonConfigFlags {
  config?: string;
  strategy?: string[];
  dryRun?: boolean;
  db?: string;
}

/** `--strategy` given several times: each adds a file, in the order given. */
export function repeated(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** The config file read (undefined when none) and the configuration with the flags applied. */
export async function daemonConfigWithFlags(options: DaemonConfigFlags, env: CliIo['env']) {
  const file = configFileOf(options.config);
  const config: DaemonConfigFile = await loadDaemonConfig(file, env);
  if (options.strategy && options.strategy.length > 0) config.strategies = options.strategy;
  if (options.dryRun) config.dry_run = true;
  if (options.db) config.db = options.db;
  return { file, config };
}
