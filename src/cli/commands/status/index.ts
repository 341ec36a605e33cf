/** `lendbot status`: the investor's dashboard, read from the database (the daemon may be running). */
import type { Command } from 'commander';
import { systemClock } from '../../../clock/clock.js';
import { loadDaemonConfig } from '../../../daemon/daemon-config.js';
import { loadStrategyFile } from '../../../engine/index.js';
import { lossRatesOf } from '../../../money/loss-rates-config.js';
import { statusClock } from '../../../ops/status-clock.js';
import { buildStatusReport, type StrategyBudget } from '../../../ops/status-report.js';
import { formatStatusText, statusJson } from '../../../ops/status-text.js';
import { readStore, storeIsDryRun } from '../../../store/index.js';
import { printJson, warn, type CliIo } from '../../cli-io.js';
import { databaseToRead } from '../../database-to-read.js';
import { configFileOf, DEFAULT_CONFIG_FILE } from '../../default-config-file.js';
import { examplesHelp } from '../../examples-help.js';

interface StatusOptions {
  db?: string;
  config?: string;
  json?: boolean;
}

export function registerStatusCommand(program: Command, io: CliIo): void {
  program
    .command('status')
    .description(
      'balance, reserved and free cash, exposure, offers today against the caps, loans, data spend, last poll, inbox, kill switch',
    )
    .option('--db <path>', 'SQLite file (default: LENDBOT_DB, then the config, then data/lendbot.db, else data/sandbox.db of npm start)')
    .option('--config <file>', `configuration file for the caps and strategies (default ${DEFAULT_CONFIG_FILE} when it exists)`)
    .option('--json', 'one JSON document, amounts in integer cents')
    .addHelpText(
      'after',
      examplesHelp(
        ['lendbot status', 'the database of config/lendbot.yaml (or LENDBOT_DB); after npm start, data/sandbox.db'],
        ['lendbot status --json | jq .free_cents', 'free cash, in cents'],
        ['lendbot status --db data/sandbox.db', 'the sandbox run npm start writes'],
        ['lendbot status --config config/lendbot.yaml --db /data/lendbot.db', 'the caps of this config, that database'],
      ),
    )
    .action(async (options: StatusOptions) => {
      const file = configFileOf(options.config);
      const config = await loadDaemonConfig(file, io.env);
      const db = databaseToRead(options.db, config.db, io);
      const budgets = await strategyBudgets(config.strategies, io);
      await readStore(db, async (store) => {
        // A sandbox run's rows carry its simulated clock: read them all in the clock they were written in.
        const { nowMs, clock } = statusClock(store.state, systemClock.now());
        const report = buildStatusReport({
          store,
          nowMs,
          clock,
          limits: config.risk,
          budgets,
          // The database says whether it holds a dry run; the config only when no daemon said yet.
          dryRun: storeIsDryRun(store.mode, config.dry_run),
          equityLossRates: lossRatesOf(config.ledger),
        });
        if (options.json) printJson(io, statusJson(report));
        else io.stdout.write(formatStatusText(report));
      });
    });
}

/** Each strategy's monthly data budget; a strategy that does not load is left out with a warning. */
async function strategyBudgets(files: readonly string[], io: CliIo): Promise<StrategyBudget[]> {
  const budgets: StrategyBudget[] = [];
  for (const file of files) {
    try {
      const strategy = await loadStrategyFile(file);
      budgets.push({
        strategy: strategy.name,
        monthlyBudgetCents: strategy.dataPolicy.monthlyBudgetCents,
        ...(strategy.marketSource === undefined ? {} : { marketSource: strategy.marketSource }),
      });
    } catch (error) {
      warn(
        io,
        `strategy ${file} not loaded, its data budget is left out: ${error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error)}`,
      );
    }
  }
  return budgets;
}
