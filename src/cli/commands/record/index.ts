/** `lendbot record export`: the daemon's history as a recording for backtests. */
import { InvalidArgumentError, type Command } from 'commander';
import { exportRecordingFromStore } from '../../../recording/index.js';
import { DEFAULT_OFFER_EXPIRY_HOURS } from '../../../risk/index.js';
import { systemClock } from '../../../clock/clock.js';
import { statusClock } from '../../../ops/status-clock.js';
import { readStore } from '../../../store/index.js';
import { warn, type CliIo } from '../../cli-io.js';
import { examplesHelp } from '../../examples-help.js';
import { databaseToRead, defaultDatabase } from '../../database-to-read.js';
import { HOUR_MS } from '../../../clock/time-constants.js';

export function registerRecordCommand(program: Command, io: CliIo): void {
  const record = program
    .command('record')
    .description('recordings of what the daemon saw, for backtests')
    .addHelpText(
      'after',
      examplesHelp(
        ['lendbot record export --out history.jsonl', 'what the daemon saw, from data/lendbot.db'],
        ['lendbot backtest --data history.jsonl --strategy strategies/balanced.yaml', 'replay it'],
      ),
    );
  record
    .command('export')
    .description('write every request the daemon saw, with the data bought, known outcomes and loan payments, as JSON lines')
    .option('--db <path>', 'SQLite file (default: LENDBOT_DB, else data/lendbot.db, else data/sandbox.db of npm start)')
    .requiredOption('--out <file>', 'recording to write (JSON lines, see docs/recording-format.md)')
    .option(
      '--offer-expiry-hours <hours>',
      "the daemon's risk.offer_expiry_hours: an own offer unanswered for longer (and not lost) is written as expired",
      hours,
      DEFAULT_OFFER_EXPIRY_HOURS,
    )
    .addHelpText(
      'after',
      examplesHelp(
        'lendbot record export --out history.jsonl',
        [
          'lendbot record export --db data/sandbox.db --out sandbox-run.jsonl',
          'the run npm start made (read by default when there is no data/lendbot.db)',
        ],
        ['lendbot record export --out history.jsonl --offer-expiry-hours 48', 'as risk.offer_expiry_hours: 48'],
      ),
    )
    .action(async (options: { db?: string; out: string; offerExpiryHours: number }) => {
      const db = databaseToRead(options.db, io.env.LENDBOT_DB?.trim() || defaultDatabase(), io);
      await readStore(db, async (store) => {
        // "Now" (the age of unanswered offers) in the clock the database was written in: a
        // sandbox run's simulated clock, else this machine's (src/ops/status-clock.ts).
        const { nowMs } = statusClock(store.state, systemClock.now());
        const clock = { now: () => nowMs };
        const summary = await exportRecordingFromStore(store, options.out, { clock, offerExpiryMs: options.offerExpiryHours * HOUR_MS });
        for (const bad of summary.invalid) warn(io, `request ${bad.loanRequestId} left out: ${bad.message}`);
        io.stderr.write(`wrote ${summary.written} request${summary.written === 1 ? '' : 's'} to ${options.out}\n`);
      });
    });
}

function hours(text: string): number {
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) throw new InvalidArgumentError('expected a number of hours above 0, such as 72');
  return value;
}
