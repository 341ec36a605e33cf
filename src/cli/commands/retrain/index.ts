/**
 * `lendbot retrain run|history|rollback` (docs/training.md, "Retraining while live"): one round
 * by hand (a dry run unless --apply), the rounds and strategy versions the store holds, and a
 * rollback to the version before the one in force. The running daemon takes a rollback or an
 * applied round up at its next look, within a minute.
 */
import { InvalidArgumentError, type Command } from 'commander';
import { ManualClock } from '../../../clock/clock.js';
import { loadStrategyFile } from '../../../engine/index.js';
import { silentLogger } from '../../../log/logger.js';
import { statusClock } from '../../../ops/status-clock.js';
import {
  ManagedStrategies,
  planRound,
  recordRound,
  retrainSettings,
  rollback,
  RollbackRefusal,
  type RoundDeps,
} from '../../../retrain/index.js';
import { createRetrainRepository, databaseOf } from '../../../store/index.js';
import { printJson, type CliIo } from '../../cli-io.js';
import { withDaemonStore } from '../../daemon-store.js';
import { DEFAULT_CONFIG_FILE } from '../../default-config-file.js';
import { examplesHelp } from '../../examples-help.js';
import { UserError } from '../../user-error.js';
import { historyText, planText } from './retrain-text.js';

interface CommonOptions {
  db?: string;
  config?: string;
  json?: boolean;
}

function versionId(text: string): number {
  const value = Number(text.replace(/^#/, ''));
  if (!Number.isInteger(value) || value <= 0)
    throw new InvalidArgumentError('expected a version id from lendbot retrain history, such as 3');
  return value;
}

const DB_HELP = 'SQLite file (default: LENDBOT_DB, then the config, then data/lendbot.db)';
const CONFIG_HELP = `configuration file, for the database and the retrain: section (default ${DEFAULT_CONFIG_FILE} when it exists)`;

export function registerRetrainCommand(program: Command, io: CliIo): void {
  const retrain = program
    .command('retrain')
    .description('retraining while live: run a round by hand, list the rounds and versions, roll back')
    .addHelpText(
      'after',
      examplesHelp(
        ['lendbot retrain run --strategy strategies/balanced.yaml', 'what a round would decide now (records nothing)'],
        ['lendbot retrain history', 'every round with its evidence, and the versions'],
        ['lendbot retrain rollback', 'run the version before the one in force'],
      ),
    );
  retrain
    .command('run')
    .description("one round: refit the strategy's calibration on the store's loans and judge it held out across borrower worlds")
    .requiredOption('--strategy <file>', 'the strategy file (its retrained version is used when one is in force)')
    .option('--apply', 'record the round (a candidate that holds then runs in shadow in the daemon)')
    .option('--db <path>', DB_HELP)
    .option('--config <file>', CONFIG_HELP)
    .option('--json', 'the plan as JSON')
    .addHelpText(
      'after',
      examplesHelp(
        ['lendbot retrain run --strategy strategies/balanced.yaml', 'a dry run'],
        ['lendbot retrain run --strategy strategies/balanced.yaml --apply --db data/lendbot.db', 'record it'],
      ),
    )
    .action(async (options: CommonOptions & { strategy: string; apply?: boolean }) => {
      let fromFile;
      try {
        fromFile = await loadStrategyFile(options.strategy);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new UserError(`cannot read ${options.strategy}: file not found`);
        throw error;
      }
      await withDaemonStore(options, io, async (store, config) => {
        const repo = createRetrainRepository(databaseOf(store));
        const managed = new ManagedStrategies(repo, silentLogger);
        await managed.refresh([fromFile], async (apply) => apply());
        const running = (await managed.running([fromFile]))[0] ?? { strategy: fromFile, text: '', fileHash: fromFile.contentHash };
        // The database's own clock: a sandbox database's times are simulated (status-clock.ts).
        const clock = new ManualClock(statusClock(store.state, Date.now()).nowMs);
        const deps: RoundDeps = { store, repo, clock, settings: retrainSettings(config.retrain), offerExpiryMs: config.risk.offerExpiryMs };
        const plan = await planRound(deps, running);
        const applied = options.apply === true ? recordRound(deps, plan, running) : undefined;
        if (options.json === true) printJson(io, { ...plan, round: applied ?? null });
        else io.stdout.write(planText(plan, applied));
        if (plan.outcome.heldOut !== undefined && !plan.outcome.heldOut.holds)
          throw new UserError(`${plan.strategy}: ${plan.reason}`, 'NOT_HELD_OUT');
      });
    });
  retrain
    .command('history')
    .description('every retraining round with its evidence and decision, and the strategy versions')
    .option('--strategy <name>', 'only this strategy (its name)')
    .option('--db <path>', DB_HELP)
    .option('--config <file>', CONFIG_HELP)
    .option('--json', 'rounds and versions as JSON')
    .addHelpText('after', examplesHelp(['lendbot retrain history --db data/lendbot.db', 'the rounds and versions']))
    .action(async (options: CommonOptions & { strategy?: string }) => {
      await withDaemonStore(options, io, async (store) => {
        const repo = createRetrainRepository(databaseOf(store));
        const rounds = repo.rounds(options.strategy === undefined ? {} : { strategy: options.strategy });
        const versions = repo.versions(options.strategy);
        if (options.json === true) printJson(io, { rounds, versions });
        else io.stdout.write(historyText(rounds, versions));
      });
    });
  retrain
    .command('rollback')
    .description('run the version before the one in force (or --to a listed one); the strategy file is never touched')
    .option('--strategy <name>', 'the strategy (its name); needed when several have retrained versions')
    .option('--to <id>', 'the version to restore, from lendbot retrain history', versionId)
    .option('--db <path>', DB_HELP)
    .option('--config <file>', CONFIG_HELP)
    .option('--json', 'the version now in force as JSON')
    .addHelpText(
      'after',
      examplesHelp(
        ['lendbot retrain rollback --db data/lendbot.db', 'back to the version before'],
        ['lendbot retrain rollback --to 2', 'back to version #2'],
      ),
    )
    .action(async (options: CommonOptions & { strategy?: string; to?: number }) => {
      await withDaemonStore(options, io, async (store) => {
        const repo = createRetrainRepository(databaseOf(store));
        const nowMs = statusClock(store.state, Date.now()).nowMs;
        const result = rollback(
          repo,
          {
            ...(options.strategy === undefined ? {} : { strategy: options.strategy }),
            ...(options.to === undefined ? {} : { to: options.to }),
          },
          nowMs,
        );
        if (options.json === true) printJson(io, result);
        else {
          const now = result.version.text === null ? 'its file as written' : `the version of #${result.version.restoredId ?? '?'} again`;
          io.stdout.write(
            `${result.strategy}: version #${result.version.id} in force, ${now} (was #${result.replaced.id}); a running daemon takes it up within a minute\n`,
          );
        }
      }).catch((error: unknown) => {
        if (error instanceof RollbackRefusal) throw new UserError(error.message);
        throw error;
      });
    });
}
