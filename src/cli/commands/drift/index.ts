/**
 * `lendbot drift`: backtest against live (docs/backtesting.md). Replays the daemon's own
 * recording (its database, as `lendbot backtest --db` reads it) with the strategies, under the
 * daemon's conditions, and sets what the replay's market model and the paper book expected beside
 * what happened live, month by month: offers, acceptance, fills, default by the loans' age and by
 * month of loan age, return. Says in words where the model of the market has drifted.
 */
import { writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { systemClock } from '../../../clock/clock.js';
import { runBacktest } from '../../../backtest/index.js';
import { hazardRows } from '../../../ops/instalment-hazard.js';
import { statusClock } from '../../../ops/status-clock.js';
import { backtestMonths } from '../../../ops/drift/backtest-months.js';
import { driftReport } from '../../../ops/drift/drift-report.js';
import { driftJson, driftText } from '../../../ops/drift/drift-text.js';
import { driftFindings } from '../../../ops/drift/drift-words.js';
import { liveMonths } from '../../../ops/drift/live-months.js';
import { openStore } from '../../../store/index.js';
import type { CliIo } from '../../cli-io.js';
import { examplesHelp } from '../../examples-help.js';
import { loadSource, loadStrategies, marketOf, usdAmount, warnLegacyMarket } from '../backtest/backtest-inputs.js';
import { formatCents } from '../../../domain/index.js';
import { backtestConditions } from '../backtest/conditions.js';
import { readMarketFile, type MarketFile } from '../backtest/market-option.js';
import { DEFAULT_CONFIG_FILE } from '../../default-config-file.js';

interface DriftOptions {
  db: string;
  balance?: number;
  strategy: string;
  config?: string;
  market?: MarketFile;
  json?: string;
}

export function registerDriftCommand(program: Command, io: CliIo): void {
  program
    .command('drift')
    .description('backtest against live: what the backtest and the paper book expected, month by month, beside what happened')
    .requiredOption('--db <path>', "the daemon's SQLite file: the live side, and the recording the backtest replays")
    .requiredOption(
      '--strategy <files>',
      'the strategy file(s) the daemon ran, comma-separated (replayed together, as the daemon runs them)',
    )
    .option('--config <file>', `the daemon's config: the risk limits the replay runs under (default ${DEFAULT_CONFIG_FILE} when it exists)`)
    .option(
      '--market <file>',
      "the backtest's market (a lendbot-market file, lendbot train market); default: the built-in take-up curve",
      readMarketFile,
    )
    .option('--balance <usd>', "the replay's starting balance in USD (default: the account's cash before its loans)", usdAmount)
    .option('--json <file>', 'also write the report as JSON')
    .addHelpText(
      'after',
      examplesHelp(
        ['lendbot drift --db data/lendbot.db --strategy strategies/balanced.yaml', 'the daemon run with balanced'],
        ['lendbot drift --db data/lendbot.db --strategy strategies/balanced.yaml --json drift.json', 'and the figures as JSON'],
        ['lendbot drift --db data/sandbox.db --strategy strategies/balanced.yaml --market market.yaml', 'against a fitted market'],
      ),
    )
    .action(async (options: DriftOptions) => {
      warnLegacyMarket(io, options);
      const strategies = await loadStrategies(options.strategy);
      const recording = await loadSource(io, { db: options.db });
      const conditions = await backtestConditions({ conditions: 'daemon', config: options.config, db: options.db }, recording, io);
      const minLoans = conditions.limits.protections.calibration.min_loans;
      const store = openStore(options.db);
      let live;
      let hazard;
      try {
        // A sandbox run's rows carry its simulated clock: read them in the clock they were written in.
        const { nowMs } = statusClock(store.state, systemClock.now());
        live = liveMonths(store, { nowMs, expiryMs: conditions.limits.offerExpiryMs, minLoans });
        hazard = hazardRows(store.calibration.hazard('', nowMs), minLoans);
      } finally {
        store.close();
      }
      // The replay starts where the live period did: with the cash held before the first loan
      // (the account's balance now has been lent out since), unless --balance says otherwise.
      const startingCents = options.balance ?? live.startingCashCents ?? conditions.balance.cents;
      const result = runBacktest(recording, strategies, {
        startingBalanceCents: startingCents,
        limits: conditions.limits,
        market: marketOf(options),
        recordDecisions: true,
      });
      const report = driftReport(live, backtestMonths(result, recording), hazard, driftFindings);
      const balance = `replay balance ${formatCents(startingCents)} USD (${options.balance !== undefined ? '--balance' : live.startingCashCents !== null ? 'the cash before its loans' : conditions.balance.rule})`;
      const names = strategies.map((s) => s.name).join(', ');
      io.stdout.write(
        driftText(
          report,
          `Backtest against live: ${options.db}, replayed with ${names}; ${conditions.limitsFrom === null ? 'built-in risk limits' : `risk limits from ${conditions.limitsFrom}`}; ${balance}`,
        ),
      );
      if (options.json !== undefined) {
        const meta = {
          db: options.db,
          strategies: strategies.map((s) => s.name),
          limits_from: conditions.limitsFrom,
          replay_balance_cents: startingCents,
        };
        await writeFile(options.json, `${JSON.stringify(driftJson(report, meta), null, 2)}\n`);
      }
    });
}
