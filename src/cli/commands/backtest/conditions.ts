/**
 * The conditions a backtest runs on (docs/backtesting.md, "Conditions: the daemon's, by default"). By default the daemon's:
 * the risk limits of the config `lendbot run` reads (--config, else config/lendbot.yaml when it
 * exists, else the built-in defaults, caps on), and a starting balance from the account the
 * daemon's database last synced (--db, else the config's database), else the recording-fitted
 * rule, said as such. `--conditions unlimited` keeps the older behaviour: no caps unless --config
 * names a file, and the fitted balance. Every report says which conditions were used and from where.
 */
import { existsSync } from 'node:fs';
import { InvalidArgumentError } from 'commander';
import { defaultBalance, defaultBalanceRule, dollars, type PreparedRecording } from '../../../backtest/index.js';
import { loadDaemonConfig } from '../../../daemon/daemon-config.js';
import type { RiskLimits } from '../../../risk/index.js';
import { balanceFromTransfers } from '../../../domain/index.js';
import type { CliIo } from '../../cli-io.js';
import { defaultDatabase } from '../../database-to-read.js';
import { configFileOf, DEFAULT_CONFIG_FILE } from '../../default-config-file.js';
import { sandboxDatabasePath } from '../run/sandbox-database-path.js';
import { loadLimits } from './backtest-inputs.js';

export type ConditionsChoice = 'daemon' | 'unlimited';

export function conditionsChoice(text: string): ConditionsChoice {
  if (text === 'daemon' || text === 'unlimited') return text;
  throw new InvalidArgumentError(
    "expected daemon (the daemon's risk limits and account balance) or unlimited (no caps, a balance fitted to the recording)",
  );
}

export interface ConditionsOptions {
  conditions: ConditionsChoice;
  config?: string | undefined;
  db?: string | undefined;
  /** --balance, in cents. */
  balance?: number | undefined;
}

/** Where the starting balance came from (the JSON output's `balance`). */
interface BalanceSource {
  cents: number;
  /** given: --balance; account: the database's last synced transfer history; fitted: the recording rule. */
  from: 'given' | 'account' | 'fitted';
  /** In words, for the report's header. */
  rule: string;
}

export interface BacktestConditions {
  conditions: ConditionsChoice;
  limits: RiskLimits;
  /** The config file the limits came from; null for built-in limits. */
  limitsFrom: string | null;
  balance: BalanceSource;
  /** The header line: "risk limits from config/lendbot.yaml; balance $5,000.00 from the account on 2026-11-20 (data/lendbot.db)". */
  text: string;
}

/** The account's usable balance in the daemon's database and the date of its newest transfer; null when it knows none. */
async function accountBalance(path: string): Promise<{ cents: number; asOf: string } | null> {
  const { readStore } = await import('../../../store/index.js');
  return readStore(path, async (store) => {
    const groups = store.account.transferGroups();
    if (groups.length === 0) return null;
    const asOf = groups.map((g) => g.date).reduce((a, b) => (b > a ? b : a));
    return { cents: balanceFromTransfers(groups).availableCents, asOf: asOf.slice(0, 10) };
  });
}

/** The recording-fitted balance; `why` says why no account balance was used. */
/**
 * The database whose account to read: the configured one; after `npm start` (a sandbox run with
 * the default path, which writes sandbox.db beside it) the sandbox run's, as `lendbot status` reads.
 */
export function accountDatabase(configured: string, defaultPath = defaultDatabase()): string {
  if (existsSync(configured) || configured !== defaultPath) return configured;
  const sandbox = sandboxDatabasePath(configured);
  return existsSync(sandbox) ? sandbox : configured;
}

/**
 * The account's balance, or why it could not be read. A database named with --db that cannot be
 * read stops the command; one found by default (the configured path, or npm start's sandbox.db)
 * only informs the balance, so a file of an older lendbot or another program falls back to the
 * recording's balance with the reason in the header instead of stopping a backtest that never
 * asked for it.
 */
const UNREADABLE_STORE_CODES = new Set(['STORE_NEEDS_UPGRADE', 'STORE_NOT_LENDBOT', 'STORE_UNREADABLE']);

async function readAccount(db: string, named: boolean): Promise<{ account: { cents: number; asOf: string } | null; unreadable?: string }> {
  try {
    return { account: await accountBalance(db) };
  } catch (error) {
    // By code, not class: the backtest loads the store only when it reads a database.
    const code = (error as { code?: unknown }).code;
    if (named || typeof code !== 'string' || !UNREADABLE_STORE_CODES.has(code)) throw error;
    return { account: null, unreadable: `the account in ${db} could not be read: ${(error as Error).message}` };
  }
}

function fitted(recording: PreparedRecording, why?: string): BalanceSource {
  const fit = defaultBalance(recording);
  return {
    cents: fit.cents,
    from: 'fitted',
    rule: `balance ${dollars(fit.cents)}: ${defaultBalanceRule(fit, dollars)}${why ? ` (${why})` : ''}`,
  };
}

async function daemonConditions(options: ConditionsOptions, recording: PreparedRecording, io: CliIo): Promise<BacktestConditions> {
  const file = configFileOf(options.config);
  const config = await loadDaemonConfig(file, io.env);
  const limits = config.risk;
  const limitsText = file === undefined ? `risk limits: the built-in defaults (no ${DEFAULT_CONFIG_FILE})` : `risk limits from ${file}`;
  let balance: BalanceSource;
  if (options.balance !== undefined) {
    balance = { cents: options.balance, from: 'given', rule: `balance ${dollars(options.balance)} (--balance)` };
  } else {
    const db = options.db ?? accountDatabase(config.db);
    const read = db !== ':memory:' && existsSync(db) ? await readAccount(db, options.db !== undefined) : { account: null };
    const account = read.account;
    balance = account
      ? {
          cents: Math.max(0, account.cents),
          from: 'account',
          rule: `balance ${dollars(Math.max(0, account.cents))} from the account on ${account.asOf} (${db})`,
        }
      : fitted(
          recording,
          read.unreadable ??
            (existsSync(db) ? `the account in ${db} has no transfer history yet` : `no account known: no database at ${db}`),
        );
  }
  return { conditions: 'daemon', limits, limitsFrom: file ?? null, balance, text: `${limitsText}; ${balance.rule}` };
}

async function unlimitedConditions(options: ConditionsOptions, recording: PreparedRecording): Promise<BacktestConditions> {
  const limits = await loadLimits(options.config);
  const limitsText =
    options.config === undefined
      ? 'no caps on exposure, per borrower or per day (--conditions unlimited)'
      : `risk limits from ${options.config}`;
  const balance: BalanceSource =
    options.balance !== undefined
      ? { cents: options.balance, from: 'given', rule: `balance ${dollars(options.balance)} (--balance)` }
      : fitted(recording);
  return { conditions: 'unlimited', limits, limitsFrom: options.config ?? null, balance, text: `${limitsText}; ${balance.rule}` };
}

/** The conditions of a backtest or tune run, from its options. */
export function backtestConditions(options: ConditionsOptions, recording: PreparedRecording, io: CliIo): Promise<BacktestConditions> {
  return options.conditions === 'unlimited' ? unlimitedConditions(options, recording) : daemonConditions(options, recording, io);
}
