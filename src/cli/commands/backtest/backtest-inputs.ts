/**
 * What `lendbot backtest` and `lendbot tune` share: loading the recording (a file or the daemon's
 * database), the strategies, the risk limits from the daemon's config, and the market options.
 * Expected failures become UserErrors with one line that says how to fix them.
 */
import { existsSync, statSync } from 'node:fs';
import { InvalidArgumentError, type Command } from 'commander';
import { z } from 'zod';
import { recordingLinesFromStore, type RecordingLineIssue } from '../../../recording/index.js';
import {
  DEFAULT_MARKET,
  loadRecording,
  prepareRecording,
  RecordingTooLargeError,
  type MarketAssumptions,
  type PeriodFilter,
  type PreparedRecording,
} from '../../../backtest/index.js';
import { legacyMarketNote, readMarketFile, type MarketFile } from './market-option.js';
import { loadYamlFile } from '../../../config/index.js';
import { loadStrategyFiles, marketResponse, type CompiledStrategy } from '../../../engine/index.js';
import { UNCAPPED_RISK_LIMITS, riskLimitsSchema, type RiskLimits } from '../../../risk/index.js';
import { amountToCents } from '../../../domain/index.js';
import { warn, type CliIo } from '../../cli-io.js';
import { UserError } from '../../user-error.js';
import { DEFAULT_CONFIG_FILE } from '../../default-config-file.js';
import { addRetiredOption } from '../../retired-option.js';
import { HOUR_MS } from '../../../clock/time-constants.js';
import { commaList } from '../../comma-list.js';

export interface RecordingSource {
  data?: string | undefined;
  db?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

export interface MarketOptions {
  balance?: number | undefined;
  config?: string | undefined;
  /** --market FILE, already read and checked: the one place a replay's market is set. */
  market?: MarketFile | undefined;
}

/**
 * The flags that repeated the market file, each with the key that says it there. They are refused
 * with that key's name, so a script that passed one fails instead of replaying another market.
 */
const RETIRED_MARKET_FLAGS: ReadonlyArray<readonly [flags: string, key: string]> = [
  ['--takeup-midpoint <u>', 'take_up: { midpoint, steepness }'],
  ['--takeup-steepness <k>', 'take_up: { midpoint, steepness }'],
  ['--competition <hard|soft>', 'backtest: { comparison }'],
  ['--unknown-competition <win|lose|rate>', 'backtest: { unknown_competition }'],
  ['--decision-delay-hours <h>', 'backtest: { decision_delay_hours }'],
];

/** A point in time for --from/--to. */
function isoTime(text: string): string {
  if (!Number.isFinite(Date.parse(text))) throw new InvalidArgumentError('expected an ISO-8601 time such as 2026-11-01T00:00:00Z');
  return text;
}

/** A non-negative USD amount for --balance. */
export function usdAmount(text: string): number {
  if (!/^\d+(\.\d{1,2})?$/.test(text)) throw new InvalidArgumentError('expected a USD amount such as 5000 or 2500.50');
  return amountToCents(text);
}

/** Adds the options every replaying command takes; `daemonConditions`: the backtest's defaults come from the daemon's config and account (conditions.ts). */
export function addReplayOptions(command: Command, withDb: boolean, daemonConditions = false): Command {
  command.option('--data <file>', 'recording (JSON lines, docs/recording-format.md)');
  if (withDb) command.option('--db <path>', "the daemon's SQLite file, instead of --data");
  command
    .option('--from <iso>', 'replay requests seen from this time (inclusive)', isoTime)
    .option('--to <iso>', 'replay requests seen before this time', isoTime)
    .option(
      '--balance <usd>',
      daemonConditions
        ? "starting balance in USD (default: the account's last synced balance in the daemon's database, else 100 × the average request total_amount, rounded up to 1,000)"
        : 'starting balance in USD (default: 100 × the average request total_amount, rounded up to 1,000)',
      usdAmount,
    )
    .option(
      '--config <file>',
      daemonConditions
        ? `the daemon's config: its risk: limits and its database (default ${DEFAULT_CONFIG_FILE} when it exists, else the built-in limits)`
        : "take the risk limits from this config's risk: section (default: built-in limits)",
    )
    .option(
      '--market <file>',
      'the market to replay against: a lendbot-market file (lendbot train market), with an optional backtest: section (docs/backtesting.md)',
      readMarketFile,
    );
  for (const [flags, key] of RETIRED_MARKET_FLAGS)
    addRetiredOption(command, flags, `set ${key} in the --market file (docs/backtesting.md, "The market model")`);
  return command;
}

/** The recording, ordered and trimmed; bad lines are warned about and skipped. */
export async function loadSource(io: CliIo, source: RecordingSource): Promise<PreparedRecording> {
  const period: PeriodFilter = { from: source.from, to: source.to };
  if ((source.data === undefined) === (source.db === undefined))
    throw new UserError('give the recording as --data FILE or the database as --db PATH (one of them)');
  let recording: PreparedRecording;
  if (source.db !== undefined) {
    if (!existsSync(source.db)) throw new UserError(`no database at ${source.db}`);
    const { readStore } = await import('../../../store/index.js');
    recording = await readStore(source.db, (store) => {
      const invalid: Array<{ loanRequestId: number; message: string }> = [];
      const prepared = prepareRecording([...recordingLinesFromStore(store, invalid)], period);
      for (const bad of invalid) warn(io, `request ${bad.loanRequestId} left out: ${bad.message}`);
      return prepared;
    });
  } else {
    const file = source.data ?? '';
    if (!existsSync(file)) throw new UserError(`recording not found: ${file}`);
    let bad = 0;
    recording = await loadRecordingShowingProgress(io, file, period, (issue) => {
      bad += 1;
      // A file of garbage should not flood the terminal: the first ten, then a count.
      if (bad <= 10) warn(io, `${issue.file}:${issue.line}: ${issue.message}`);
    });
    if (bad > 10) warn(io, `${bad - 10} more bad lines skipped`);
  }
  if (recording.entries.length === 0) throw new UserError('the recording holds no requests in the period');
  return recording;
}

/** A progress line each this many bytes of a recording read (a 1,000,000-request sandbox export is about 3 GB). */
const PROGRESS_EVERY_BYTES = 256 * 1024 * 1024;

/**
 * loadRecording with a progress line on stderr for each PROGRESS_EVERY_BYTES read, and the error a
 * person can act on when the recording does not fit in the memory configured.
 */
async function loadRecordingShowingProgress(
  io: CliIo,
  file: string,
  period: PeriodFilter,
  onIssue: (issue: RecordingLineIssue) => void,
): Promise<PreparedRecording> {
  const fileBytes = statSync(file).size;
  const mb = (bytes: number): string => Math.round(bytes / (1024 * 1024)).toLocaleString('en-US');
  try {
    return await loadRecording(file, period, onIssue, {
      fileBytes,
      progressEveryBytes: PROGRESS_EVERY_BYTES,
      // On stderr, beside the warnings, so a report on stdout (or piped) stays the report alone.
      onProgress: ({ bytesRead, requests }) =>
        io.stderr.write(
          `reading ${file}: ${mb(bytesRead)} of ${mb(fileBytes)} MB (${Math.floor((100 * bytesRead) / fileBytes)} %), ${requests.toLocaleString('en-US')} requests\n`,
        ),
    });
  } catch (error) {
    if (error instanceof RecordingTooLargeError) throw new UserError(error.message);
    throw error;
  }
}

/** Strategy files, comma-separated or repeated. */
export async function loadStrategies(list: string): Promise<CompiledStrategy[]> {
  const files = commaList(list);
  if (files.length === 0) throw new UserError('--strategy needs at least one file');
  return loadStrategyFiles(files);
}

/** The risk limits of the daemon's config file, or the built-in defaults. */
export async function loadLimits(config: string | undefined): Promise<RiskLimits> {
  if (config === undefined) return UNCAPPED_RISK_LIMITS;
  return (await loadYamlFile(config, z.looseObject({ risk: riskLimitsSchema.prefault({}) }))).risk;
}

/** The deprecation note for a --market file in the old settings format. */
export function warnLegacyMarket(io: CliIo, options: MarketOptions): void {
  if (options.market?.legacy === true) warn(io, legacyMarketNote(options.market.file));
}

/** The market assumptions the options override. */
export function marketOf(options: MarketOptions): Partial<MarketAssumptions> {
  const market: Partial<MarketAssumptions> = {};
  const file = options.market;
  if (file === undefined) return market;
  if (file.unknownCompetition !== undefined) market.unknownCompetition = file.unknownCompetition;
  if (file.decisionDelayHours !== undefined) market.decisionDelayMs = Math.round(file.decisionDelayHours * HOUR_MS);
  if (file.comparison !== undefined) market.comparison = file.comparison;
  const { takeUp, competition } = file.response;
  if (competition !== undefined || takeUp !== undefined)
    market.response = marketResponse({ takeUp: { ...takeUp }, competition: { ...competition } });
  if (file.prepayment !== undefined) market.prepayment = { ...DEFAULT_MARKET.prepayment, ...file.prepayment };
  if (file.recoveryDelayMonths !== undefined) market.recoveryDelayMonths = file.recoveryDelayMonths;
  if (file.seed !== undefined) market.seed = file.seed;
  return market;
}
