/**
 * `lendbot ledger export`: what the loans earned and cost, per loan and month, as CSV for tax
 * season (docs/ledger.md), checked against the transfer history before it is trusted: stderr says
 * whether the totals reconcile, and the command fails when they do not.
 */
import { writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { systemClock } from '../../../clock/clock.js';
import { ledgerInputFromStore } from '../../../money/equity-now.js';
import { ledgerCsv, ledgerMonths, reconcileLedger, type LedgerPeriod, type Reconciliation } from '../../../money/ledger-export.js';
import { buildLoanLedger } from '../../../money/loan-ledger.js';
import { statusClock } from '../../../ops/status-clock.js';
import { formatCents } from '../../../domain/index.js';
import { readStore } from '../../../store/index.js';
import type { CliIo } from '../../cli-io.js';
import { databaseToRead, defaultDatabase } from '../../database-to-read.js';
import { examplesHelp } from '../../examples-help.js';
import { UserError } from '../../user-error.js';

interface ExportOptions {
  db?: string;
  from?: string;
  to?: string;
  out?: string;
  totals?: boolean;
}

export function registerLedgerCommand(program: Command, io: CliIo): void {
  const ledger = program
    .command('ledger')
    .description('what the loans earned, per loan and month: interest, principal, fees, write-offs (CSV for tax season)')
    .addHelpText(
      'after',
      examplesHelp([
        'lendbot ledger export --from 2026-01 --to 2026-12 --out ledger-2026.csv',
        "the year's earnings, reconciled with the transfer history",
      ]),
    );
  ledger
    .command('export')
    .description(
      'write the ledger as CSV (dollars, two decimals): loan_id, month, lent, principal, interest, fees, late_fees_received, write_offs, recoveries, other',
    )
    .option('--db <path>', 'SQLite file (default: LENDBOT_DB, else data/lendbot.db, else data/sandbox.db of npm start)')
    .option('--from <date>', 'first day included: YYYY-MM-DD, or YYYY-MM for the whole month')
    .option('--to <date>', 'last day included: YYYY-MM-DD, or YYYY-MM for the whole month')
    .option('--out <file>', 'write the CSV to this file (overwritten) instead of stdout')
    .option('--totals', 'end with a "total" line summing every column')
    .addHelpText(
      'after',
      `
Interest and principal are split from each repayment by the loan's rate and schedule (the
marketplace does not say the split); late fees received are the payment's own. Recoveries are what
collections brought back; write-offs the principal not recovered when a loan defaults. Fees are
negative (what you paid). Rows with loan_id "account" hold money of no one loan (subscriptions,
rewards). Deposits and withdrawals are not earnings and are left out. Before writing, the totals
are checked against the transfer history of the same period; stderr says so, and the command
exits 1 when they differ.
${examplesHelp(
  ['lendbot ledger export --from 2026-01 --to 2026-12 --out ledger-2026.csv', 'one tax year'],
  ['lendbot ledger export --totals', 'everything so far, with a totals line, on stdout'],
  ['lendbot ledger export --db data/sandbox.db --from 2026-03-01 --to 2026-03-31', 'one month of the sandbox run'],
)}`,
    )
    .action(async (options: ExportOptions) => {
      const period = periodFrom(options);
      const db = databaseToRead(options.db, io.env.LENDBOT_DB?.trim() || defaultDatabase(), io);
      await readStore(db, async (store) => {
        // "Today" in the clock the database was written in (a sandbox run's is simulated).
        const { nowMs } = statusClock(store.state, systemClock.now());
        const input = ledgerInputFromStore(store, nowMs);
        const rows = ledgerMonths(buildLoanLedger(input).entries, period);
        const reconciliation = reconcileLedger(rows, input.transfers, period);
        io.stderr.write(reconciliationText(reconciliation));
        if (!reconciliation.ok)
          throw new UserError(
            'the ledger does not reconcile with the transfer history (figures above); nothing written. This is a bug: please report it with the figures.',
          );
        const csv = ledgerCsv(rows, { totals: options.totals === true });
        if (options.out === undefined) io.stdout.write(csv);
        else {
          await writeFile(options.out, csv).catch((error: unknown) => {
            throw new UserError(`cannot write ${options.out ?? ''}: ${error instanceof Error ? error.message : String(error)}`);
          });
          io.stderr.write(`wrote ${rows.length} row${rows.length === 1 ? '' : 's'} to ${options.out}\n`);
        }
      });
    });
}

function reconciliationText(reconciliation: Reconciliation): string {
  const lines = reconciliation.lines.map(({ label, transfersCents, ledgerCents }) =>
    transfersCents === ledgerCents
      ? `  ${label}: ${formatCents(ledgerCents)}`
      : `  ${label}: transfers ${formatCents(transfersCents)}, ledger ${formatCents(ledgerCents)} DIFFERENT`,
  );
  const head = reconciliation.ok ? 'reconciled with the transfer history:' : 'NOT reconciled with the transfer history:';
  const aside = `  left out (not earnings): deposits ${formatCents(reconciliation.depositsCents)}, withdrawals ${formatCents(reconciliation.withdrawalsCents)}`;
  return `${[head, ...lines, aside].join('\n')}\n`;
}

/** --from/--to as days; a month stands for its first (from) or last (to) day. */
function periodFrom(options: ExportOptions): LedgerPeriod {
  const period: LedgerPeriod = {};
  if (options.from !== undefined) period.from = dayOf(options.from, '--from', 'first');
  if (options.to !== undefined) period.to = dayOf(options.to, '--to', 'last');
  if (period.from !== undefined && period.to !== undefined && period.from > period.to) {
    throw new UserError(`--from ${options.from ?? ''} is after --to ${options.to ?? ''}`, 'USAGE');
  }
  return period;
}

function dayOf(text: string, flag: string, end: 'first' | 'last'): string {
  const trimmed = text.trim();
  const month = /^(\d{4})-(\d{2})$/.exec(trimmed);
  if (month !== null) {
    const [year, monthNumber] = [Number(month[1]), Number(month[2])];
    if (monthNumber >= 1 && monthNumber <= 12) {
      if (end === 'first') return `${trimmed}-01`;
      return new Date(Date.UTC(year, monthNumber, 0)).toISOString().slice(0, 10);
    }
  } else if (/^\d{4}-\d{2}-\d{2}$/.test(trimmed)) {
    // Date.parse rolls 2026-02-30 over into March (or refuses it): only a day that reads back the same is one.
    const ms = Date.parse(`${trimmed}T00:00:00Z`);
    if (!Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 10) === trimmed) return trimmed;
  }
  throw new UserError(`${flag} must be a day (2026-03-31) or a month (2026-03), got "${text}"`, 'USAGE');
}
