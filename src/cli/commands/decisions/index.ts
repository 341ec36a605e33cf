/** `lendbot decisions`: what the daemon decided, one entry per request seen. */
import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { openStore, type DecisionAction, type StoredDecision } from '../../../store/index.js';
import type { CliIo } from '../../cli-io.js';
import { UserError } from '../../user-error.js';

interface DecisionsOptions {
  db: string;
  since?: string;
  action?: string;
  limit?: string;
  json?: boolean;
}

export function registerDecisionsCommand(program: Command, io: CliIo): void {
  program
    .command('decisions')
    .description('list the decisions the daemon recorded: a table for people, JSON lines with --json')
    .option('--db <path>', 'SQLite file', io.env.LENDBOT_DB ?? 'data/lendbot.db')
    .option('--since <iso>', 'only decisions at or after this time (e.g. 2026-11-20 or 2026-11-20T14:00:00Z)')
    .option('--action <action>', 'only offer or skip')
    .option('--limit <n>', 'at most this many, newest last')
    .option('--json', 'one JSON object a line: loan_request_id, action, rate, strategy, reasons, ...')
    .action((options: DecisionsOptions) => {
      const query = queryFrom(options);
      const store = openExisting(options.db);
      try {
        let count = 0;
        if (!options.json) io.stdout.write(`${'decided at'.padEnd(20)}  ${'request'.padStart(8)}  ${'action'.padEnd(6)}  ${'rate'.padStart(6)}  ${'strategy'.padEnd(14)}  reasons\n`);
        for (const decision of store.decisions.iterate(query)) {
          count += 1;
          io.stdout.write(options.json ? `${JSON.stringify(toJson(decision))}\n` : `${tableRow(decision)}\n`);
        }
        if (!options.json) io.stdout.write(`${count} decision${count === 1 ? '' : 's'}\n`);
      } finally {
        store.close();
      }
    });
}

function queryFrom(options: DecisionsOptions): { sinceMs?: number; action?: DecisionAction; limit?: number } {
  const query: { sinceMs?: number; action?: DecisionAction; limit?: number } = {};
  if (options.since !== undefined) {
    const ms = Date.parse(options.since);
    if (Number.isNaN(ms)) throw new UserError(`--since is not a date or time: "${options.since}" (e.g. 2026-11-20T14:00:00Z)`, 2);
    query.sinceMs = ms;
  }
  if (options.action !== undefined) {
    if (options.action !== 'offer' && options.action !== 'skip') throw new UserError(`--action must be offer or skip (got "${options.action}")`, 2);
    query.action = options.action;
  }
  if (options.limit !== undefined) {
    if (!/^\d+$/.test(options.limit)) throw new UserError(`--limit must be a whole number (got "${options.limit}")`, 2);
    query.limit = Number(options.limit);
  }
  return query;
}

function openExisting(path: string): ReturnType<typeof openStore> {
  if (path !== ':memory:') {
    // Reading must never create an empty database where the user mistyped a path.
    if (!existsSync(path)) throw new UserError(`no database at ${path} (set --db or LENDBOT_DB)`);
  }
  return openStore(path);
}

function toJson(decision: StoredDecision): Record<string, unknown> {
  return {
    loan_request_id: decision.loanRequestId,
    action: decision.action,
    rate: decision.rate,
    probability: decision.probability,
    strategy: decision.strategy,
    content_hash: decision.contentHash,
    reasons: decision.reasons,
    // Codes beside the words, for programs: the guard's refusal and what became of the offer.
    guard: decision.guardCode,
    placement: decision.placement,
    dry_run: decision.dryRun,
    decided_at: decision.decidedAt,
  };
}

function tableRow(decision: StoredDecision): string {
  const rate = decision.rate === null ? '-' : decision.rate.toFixed(4);
  return [
    decision.decidedAt.slice(0, 19).padEnd(20),
    String(decision.loanRequestId).padStart(8),
    `${decision.action}${decision.dryRun ? '*' : ''}`.padEnd(6),
    rate.padStart(6),
    (decision.strategy ?? '-').slice(0, 14).padEnd(14),
    decision.reasons.join('; '),
  ].join('  ');
}
