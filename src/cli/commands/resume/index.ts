/** `lendbot resume`: lifts a protection's pause of new offers (the daemon may be running). */
import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { systemClock } from '../../../clock/clock.js';
import { loadDaemonConfig } from '../../../daemon/daemon-config.js';
import { createLogger } from '../../../log/logger.js';
import { Protections } from '../../../ops/protections/index.js';
import { isoFromMs, openStore } from '../../../store/index.js';
import type { CliIo } from '../../cli-io.js';
import { UserError } from '../../user-error.js';
import { DEFAULT_CONFIG_FILE } from '../run/index.js';

export function registerResumeCommand(program: Command, io: CliIo): void {
  program
    .command('resume')
    .description('lift a protection that paused new offers (the daemon reads the database before every offer)')
    .option('--db <path>', 'SQLite file (default: LENDBOT_DB, then the config, then data/lendbot.db)')
    .option('--config <file>', `configuration file (default ${DEFAULT_CONFIG_FILE} when it exists)`)
    .addHelpText(
      'after',
      '\nA pause also lifts itself after its pause_hours, or when its protection is set enabled: false.\nSee why it paused first: lendbot status\nExample: lendbot resume --db /data/lendbot.db',
    )
    .action(async (options: { db?: string; config?: string }) => {
      const file = options.config ?? (existsSync(DEFAULT_CONFIG_FILE) ? DEFAULT_CONFIG_FILE : undefined);
      const config = await loadDaemonConfig(file, io.env);
      const db = options.db ?? config.db;
      if (!existsSync(db)) throw new UserError(`no database at ${db} (set --db or LENDBOT_DB)`);
      const store = openStore(db);
      try {
        const protections = new Protections({ store, clock: systemClock, log: createLogger({ level: 'silent' }), settings: () => config.risk.protections });
        const lifted = protections.resume();
        if (lifted === undefined) {
          io.stdout.write('no pause in force; new offers are not paused by a protection\n');
          return;
        }
        io.stdout.write(`lifted the ${lifted.kind} pause (since ${isoFromMs(lifted.sinceMs)}): ${lifted.reason}\nnew offers resume at the next request\n`);
      } finally {
        store.close();
      }
    });
}
