/** `lendbot resume`: lifts a protection's pause of new offers (the daemon may be running). */
import type { Command } from 'commander';
import { systemClock } from '../../../clock/clock.js';
import { createLogger } from '../../../log/logger.js';
import { Protections, type Pause } from '../../../ops/protections/index.js';
import { isoFromMs } from '../../../store/index.js';
import type { CliIo } from '../../cli-io.js';
import { withDaemonStore } from '../../daemon-store.js';
import { DEFAULT_CONFIG_FILE } from '../../default-config-file.js';

const HELP_AFTER = `
The running daemon reads the pause from the database before every offer, so new offers resume
at the next request; no restart is needed. A pause also lifts itself after its pause_hours, or
when its protection is set enabled: false in risk.protections (docs/risk-guard.md). The loans
behind a default_spike or drawdown pause do not pause again; a further loan going bad may.

Examples:
  lendbot status                         # why it paused (the "protections" line)
  lendbot resume                         # the database of config/lendbot.yaml, or LENDBOT_DB
  lendbot resume --db /data/lendbot.db
  docker exec lendbot node bin/lendbot.js resume
`;

export function registerResumeCommand(program: Command, io: CliIo): void {
  program
    .command('resume')
    .description('lift a protection that paused new offers, and print what it lifted')
    .option('--db <path>', 'SQLite file (default: LENDBOT_DB, then the config, then data/lendbot.db, else data/sandbox.db of npm start)')
    .option('--config <file>', `configuration file, for the database path (default ${DEFAULT_CONFIG_FILE} when it exists)`)
    .addHelpText('after', HELP_AFTER)
    .action(async (options: { db?: string; config?: string }) => {
      await withDaemonStore(options, io, async (store, config) => {
        // No notify here: the running daemon notices the lift at its next read and notifies it.
        const protections = new Protections({
          store,
          clock: systemClock,
          log: createLogger({ level: 'silent' }),
          settings: () => config.risk.protections,
        });
        io.stdout.write(resumeText(protections.resume()));
      });
    });
}

function resumeText(lifted: Pause | undefined): string {
  if (lifted === undefined) return 'no pause in force; new offers are not paused by a protection\n';
  return `lifted the ${lifted.kind} pause (since ${isoFromMs(lifted.sinceMs)}): ${lifted.reason}\nnew offers resume at the next request\n`;
}
