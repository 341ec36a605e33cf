/**
 * `lendbot shadow report`: how each challenger (`shadow: true`) compares with the live strategies
 * on the requests both saw (docs/strategies.md, "Shadow and split"). Reads the database only.
 */
import type { Command } from 'commander';
import { loadDaemonConfig } from '../../../daemon/daemon-config.js';
import { databaseOf, readStore } from '../../../store/index.js';
import { createShadowDecisionsRepository } from '../../../store/shadow-decisions-repository.js';
import type { CliIo } from '../../cli-io.js';
import { databaseToRead } from '../../database-to-read.js';
import { examplesHelp } from '../../examples-help.js';
import { UserError } from '../../user-error.js';
import { configFileOf, DEFAULT_CONFIG_FILE } from '../../default-config-file.js';
import { splitVerdict, splitVerdictText } from '../../../risk/shadow-split-stats.js';
import type { SplitSettings } from '../../../risk/index.js';
import { createShadowSplitRepository } from '../../../store/shadow-split-repository.js';
import type { Database } from 'better-sqlite3';
import { shadowReportJson, shadowReportText, splitReportText } from './shadow-report.js';

interface ReportOptions {
  db?: string;
  config?: string;
  since?: string;
  json?: boolean;
}

export function registerShadowCommand(program: Command, io: CliIo): void {
  const shadow = program
    .command('shadow')
    .description('challenger strategies in shadow: what they would have offered against the live ones')
    .addHelpText(
      'after',
      examplesHelp(
        ['lendbot shadow report', 'each challenger against the live strategies'],
        ['lendbot shadow report --json', 'the same, for a script'],
      ),
    );
  shadow
    .command('report')
    .description('per challenger: requests seen, would-be offers and mean rate, overlap with the live offers, real and modelled outcomes')
    .option('--db <path>', 'SQLite file (default: LENDBOT_DB, then the config, then data/lendbot.db, else data/sandbox.db of npm start)')
    .option('--config <file>', `configuration file, for the database path (default ${DEFAULT_CONFIG_FILE} when it exists)`)
    .option('--since <iso>', 'only shadow decisions at or after this time (e.g. 2026-11-20)')
    .option('--json', 'one JSON array: the same figures, real and modelled apart')
    .addHelpText(
      'after',
      examplesHelp(
        ['lendbot shadow report', 'every challenger since it was first run'],
        ['lendbot shadow report --since 2026-11-20', 'a week of it'],
        ['lendbot shadow report --json --db /data/lendbot.db', 'for a script'],
      ),
    )
    .action(async (options: ReportOptions) => {
      let sinceMs: number | undefined;
      if (options.since !== undefined) {
        sinceMs = Date.parse(options.since);
        if (Number.isNaN(sinceMs))
          throw new UserError(`--since is not a date or time: "${options.since}" (e.g. 2026-11-20T14:00:00Z)`, 'USAGE');
      }
      const file = configFileOf(options.config);
      const config = await loadDaemonConfig(file, io.env);
      await readStore(databaseToRead(options.db, config.db, io), async (store) => {
        const db = databaseOf(store);
        const rows = createShadowDecisionsRepository(db).compare(sinceMs);
        const split = config.risk.split;
        if (options.json === true) {
          io.stdout.write(
            `${JSON.stringify({ shadow: shadowReportJson(rows), split: split === undefined ? null : splitFigures(db, split) })}\n`,
          );
          return;
        }
        io.stdout.write(shadowReportText(rows, options.since));
        if (split !== undefined) {
          const figures = splitFigures(db, split);
          io.stdout.write(splitReportText(figures.arms, figures.verdict));
        }
      });
    });
}

/** Each arm's resolved loans and P&L, and the sequential test's verdict in words. */
function splitFigures(db: Database, split: SplitSettings) {
  const book = createShadowSplitRepository(db);
  const loans = split.strategies.map((strategy) => book.resolvedLoans(strategy));
  const arms = split.strategies.map((strategy, index) => ({
    strategy,
    share: split.shares[index] ?? 0,
    resolvedLoans: loans[index]?.length ?? 0,
    pnlCents: (loans[index] ?? []).reduce((sum, loan) => sum + loan.paidCents - loan.lentCents, 0),
  }));
  const [a, b] = split.strategies;
  const verdict = splitVerdict(
    { name: a, returns: (loans[0] ?? []).map((loan) => loan.return) },
    { name: b, returns: (loans[1] ?? []).map((loan) => loan.return) },
  );
  return { arms, verdict: splitVerdictText(a, b, verdict) };
}
