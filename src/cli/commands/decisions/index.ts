/** `lendbot decisions`: what the daemon decided, one entry per request seen, and what became of it. */
import type { Command } from 'commander';
import { systemClock } from '../../../clock/clock.js';
import { loadDaemonConfig } from '../../../daemon/daemon-config.js';
import { statusClock } from '../../../ops/status-clock.js';
import { readStore, type DecisionAction, type DecisionQuery, type Store } from '../../../store/index.js';
import { printJson, type CliIo } from '../../cli-io.js';
import { databaseToRead } from '../../database-to-read.js';
import { UserError } from '../../user-error.js';
import { configFileOf, DEFAULT_CONFIG_FILE } from '../../default-config-file.js';
import type { FateSettings } from './decision-outcome.js';
import { viewDecision } from './decision-view.js';
import { detailText, fullJson, jsonLine, TABLE_HEADER, tableRow } from './decisions-format.js';

interface DecisionsOptions {
  db?: string;
  config?: string;
  id?: string;
  since?: string;
  action?: string;
  limit?: string;
  json?: boolean;
}

const HELP_AFTER = `
Rows are listed oldest first, the newest last; --limit N keeps the newest N (still oldest first).
amount is what the borrower asks (total_amount); risk the request's risk level; rate the offer's
rate; a * after the action marks a dry run. outcome is what became of it, as far as the store
knows: skipped, dry run, placed (out, unanswered), accepted, rejected, lost, expired, refused,
sending, unknown, or the loan's list: funded, repaid, late, defaulted (docs/daemon.md#reading-what-it-did).
decided by is the strategy, or agent:NAME for an agent's decision.

Examples:
  lendbot decisions --limit 20                      # the 20 newest decisions
  lendbot decisions --action offer --since 2026-11-20
  lendbot decisions --id 1042                       # one decision in full: reasons, features, guard, offer, loan
  lendbot decisions --json --limit 100 | jq -c 'select(.outcome == "funded")'
  lendbot decisions --db data/sandbox.db            # the database npm start writes
`;

export function registerDecisionsCommand(program: Command, io: CliIo): void {
  program
    .command('decisions')
    .description('list the decisions the daemon recorded: a table for people, JSON lines with --json')
    .option('--db <path>', 'SQLite file (default: LENDBOT_DB, then the config, then data/lendbot.db, else data/sandbox.db of npm start)')
    .option(
      '--config <file>',
      `configuration file, for the database path and risk.offer_expiry_hours (default ${DEFAULT_CONFIG_FILE} when it exists)`,
    )
    .option('--id <loanRequestId>', 'one decision in full: reasons, features, params, guard, placement, offer and loan')
    .option('--since <iso>', 'only decisions at or after this time (e.g. 2026-11-20 or 2026-11-20T14:00:00Z)')
    .option('--action <action>', 'only offer or skip')
    .option('--limit <n>', 'only the newest n (listed oldest first)')
    .option(
      '--json',
      'one JSON object a line (docs/decision-shape.md): loan_request_id, action, rate, reasons, guard_code, ..., amount_cents, outcome',
    )
    .addHelpText('after', HELP_AFTER)
    .action(async (options: DecisionsOptions) => {
      const id = requestIdFrom(options);
      const query = queryFrom(options);
      const file = configFileOf(options.config);
      const config = await loadDaemonConfig(file, io.env);
      await readStore(databaseToRead(options.db, config.db, io), async (store) => {
        // An unanswered offer's age is read in the clock the database was written in (a sandbox run's is simulated).
        const settings: FateSettings = {
          nowMs: statusClock(store.state, systemClock.now()).nowMs,
          expiryMs: config.risk.offerExpiryMs,
          includeManual: config.risk.reserveManualOffers,
        };
        if (id !== undefined) printOne(io, store, id, settings, options.json === true);
        else printList(io, store, query, settings, options.json === true);
      });
    });
}

function printOne(io: CliIo, store: Store, id: number, settings: FateSettings, json: boolean): void {
  const decision = store.decisions.get(id);
  if (decision === undefined) throw new UserError(`no decision for loan request ${id} in this database`);
  const view = viewDecision(store, decision, settings);
  if (json) printJson(io, fullJson(view));
  else io.stdout.write(`${detailText(view)}\n`);
}

function printList(io: CliIo, store: Store, query: DecisionQuery, settings: FateSettings, json: boolean): void {
  // The newest N are read newest first by the index, then shown oldest first like the rest.
  const decisions =
    query.limit === undefined ? store.decisions.iterate(query) : store.decisions.list({ ...query, order: 'desc' }).reverse();
  let count = 0;
  if (!json) io.stdout.write(`${TABLE_HEADER}\n`);
  for (const decision of decisions) {
    count += 1;
    const view = viewDecision(store, decision, settings);
    io.stdout.write(json ? `${JSON.stringify(jsonLine(view))}\n` : `${tableRow(view)}\n`);
  }
  if (!json) io.stdout.write(`${count} decision${count === 1 ? '' : 's'}\n`);
}

function requestIdFrom(options: DecisionsOptions): number | undefined {
  if (options.id === undefined) return undefined;
  if (!/^\d+$/.test(options.id)) throw new UserError(`--id must be a loan request id, a whole number (got "${options.id}")`, 'USAGE');
  if (options.since !== undefined || options.action !== undefined || options.limit !== undefined) {
    throw new UserError('--id shows one decision; leave out --since, --action and --limit', 'USAGE');
  }
  return Number(options.id);
}

function queryFrom(options: DecisionsOptions): DecisionQuery {
  const query: { sinceMs?: number; action?: DecisionAction; limit?: number } = {};
  if (options.since !== undefined) {
    const ms = Date.parse(options.since);
    if (Number.isNaN(ms)) throw new UserError(`--since is not a date or time: "${options.since}" (e.g. 2026-11-20T14:00:00Z)`, 'USAGE');
    query.sinceMs = ms;
  }
  if (options.action !== undefined) {
    if (options.action !== 'offer' && options.action !== 'skip')
      throw new UserError(`--action must be offer or skip (got "${options.action}")`, 'USAGE');
    query.action = options.action;
  }
  if (options.limit !== undefined) {
    if (!/^\d+$/.test(options.limit)) throw new UserError(`--limit must be a whole number (got "${options.limit}")`, 'USAGE');
    query.limit = Number(options.limit);
  }
  return query;
}
