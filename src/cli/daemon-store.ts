/**
 * The daemon's database as a command that writes it opens it (`approve`, `reject`, `resume`,
 * `retrain`): where the config says (--config, else config/lendbot.yaml when it exists) unless
 * --db says otherwise, never a new empty file (databaseToRead), closed when the work is done.
 */
import { loadDaemonConfig, type DaemonConfigFile } from '../daemon/daemon-config.js';
import { openStore, type Store } from '../store/index.js';
import type { CliIo } from './cli-io.js';
import { databaseToRead } from './database-to-read.js';
import { configFileOf } from './default-config-file.js';

/** Runs `work` on the store of `--db`/`--config`, with the configuration it was found by. */
export async function withDaemonStore<T>(
  options: { db?: string | undefined; config?: string | undefined },
  io: CliIo,
  work: (store: Store, config: DaemonConfigFile) => Promise<T>,
): Promise<T> {
  const config = await loadDaemonConfig(configFileOf(options.config), io.env);
  const store = openStore(databaseToRead(options.db, config.db, io));
  try {
    return await work(store, config);
  } finally {
    store.close();
  }
}
