/**
 * `lendbot ledger export` on the store of a real sandbox run (daemon, sandbox, SQLite file): loans
 * repaid on time, late with a fee, and missed into collection and default. The CSV's totals equal
 * the transfer history's totals by kind of transfer, recomputed here from the stored history.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReturnsAnswer } from '../../src/operator/api/api-types.js';
import { parseCents } from '../../src/domain/index.js';
import { startApiHarness, type ApiHarness } from '../operator/api-harness.js';
import { DAY, HOUR } from '../sandbox/sandbox-fixture.js';
import { runCli } from './run-cli.js';

let h: ApiHarness;
let dir: string;

beforeAll(async () => {
  h = await startApiHarness();
  dir = mkdtempSync(join(tmpdir(), 'lendbot-ledger-'));
  const fates = [
    { repayProbability: 1, missedMonth: null, lateDays: [] },
    { repayProbability: 1, missedMonth: null, lateDays: [0, 12] },
    { repayProbability: 0, missedMonth: 2, lateDays: [] },
  ];
  for (const fate of fates) h.makeRequest({ decisionDelayMs: HOUR, loanTerms: 3, loanAmountCents: 100_000, ...fate });
  await h.daemon.runJob('poll');
  // Funded, three months of payments, a collection and a default (60 days after the missed payment).
  for (let day = 0; day < 180; day += 10) {
    h.sandbox.control.advance(10 * DAY);
    await h.daemon.runJob('sync');
  }
  await h.daemon.runJob('sync');
  // The balance refresh reads the transfer history.
  await h.daemon.runJob('balance');
}, 60_000);

afterAll(async () => {
  await h.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The stored transfer history summed by transfer type, as the service lists it (processed, and committed outgoing). */
function transferTotals(): Map<string, number> {
  const totals = new Map<string, number>();
  for (const group of h.store.account.transferGroups()) {
    for (const transfer of group.transactions) {
      const cents = parseCents(transfer.transfer_amount);
      const status = transfer.transfer_status.toLowerCase();
      if (status === 'failed' || (status !== 'processed' && cents > 0)) continue;
      totals.set(transfer.transfer_type, (totals.get(transfer.transfer_type) ?? 0) + cents);
    }
  }
  return totals;
}

/** The CSV's rows as column name -> cents. */
function parseCsv(text: string): Array<Record<string, string>> {
  const [header, ...lines] = text.trimEnd().split('\n');
  const names = (header ?? '').split(',');
  return lines.map((line) => Object.fromEntries(line.split(',').map((value, i) => [names[i] ?? '', value])));
}

describe('lendbot ledger export', () => {
  it('writes a CSV per loan and month whose totals equal the transfer history by kind', async () => {
    const out = join(dir, 'ledger.csv');
    const result = await runCli(['ledger', 'export', '--db', h.dbPath, '--out', out, '--totals']);
    expect(result.stderr).toContain('reconciled with the transfer history:');
    expect(result.code).toBe(0);
    const rows = parseCsv(readFileSync(out, 'utf8'));
    expect(Object.keys(rows[0] ?? {})).toEqual([
      'loan_id',
      'month',
      'lent',
      'principal',
      'interest',
      'fees',
      'late_fees_received',
      'write_offs',
      'recoveries',
      'other',
    ]);
    const total = rows.at(-1)!;
    expect(total.loan_id).toBe('total');
    const body = rows.slice(0, -1);
    expect(body.every((row) => /^\d+$/.test(row.loan_id ?? '') && /^\d{4}-\d{2}$/.test(row.month ?? ''))).toBe(true);
    const cents = (row: Record<string, string>, column: string) => parseCents(row[column] ?? 'x');
    for (const column of ['lent', 'principal', 'interest', 'late_fees_received', 'write_offs', 'recoveries']) {
      expect(body.reduce((sum, row) => sum + cents(row, column), 0)).toBe(cents(total, column));
    }

    const transfers = transferTotals();
    expect(-cents(total, 'lent')).toBe(transfers.get('Fund Loans'));
    expect(cents(total, 'principal') + cents(total, 'interest') + cents(total, 'late_fees_received')).toBe(
      transfers.get('Monthly Payments'),
    );
    expect(cents(total, 'recoveries')).toBe(transfers.get('Collection'));
    // Every kind of movement this run had: a late fee, interest, a recovery and a write-off.
    expect(cents(total, 'late_fees_received')).toBeGreaterThan(0);
    expect(cents(total, 'interest')).toBeGreaterThan(0);
    expect(cents(total, 'recoveries')).toBeGreaterThan(0);
    expect(cents(total, 'write_offs')).toBeGreaterThan(0);
    // Every loan is settled: what was lent came back as principal, was recovered or was written off.
    expect(cents(total, 'principal') + cents(total, 'recoveries') + cents(total, 'write_offs')).toBe(cents(total, 'lent'));
  });

  it('keeps to --from/--to and reconciles that period alone', async () => {
    const all = parseCsv((await runCli(['ledger', 'export', '--db', h.dbPath])).stdout);
    const months = [...new Set(all.map((row) => row.month))].sort();
    expect(months.length).toBeGreaterThan(2);
    const month = months[1]!;
    const result = await runCli(['ledger', 'export', '--db', h.dbPath, '--from', month, '--to', month]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('reconciled with the transfer history:');
    const rows = parseCsv(result.stdout);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.month === month)).toBe(true);
    expect(rows).toEqual(all.filter((row) => row.month === month));
  });

  it('agrees with lendbot status and the returns API on equity', async () => {
    const returns = (await (await h.asOperator('/api/returns')).json()) as ReturnsAnswer;
    const status = await runCli(['status', '--db', h.dbPath, '--json']);
    expect(status.code).toBe(0);
    const equity = (JSON.parse(status.stdout) as { equity: Record<string, number> }).equity;
    expect(equity).toMatchObject({
      equity_cents: returns.totals.equityCents,
      cash_cents: returns.totals.cashCents,
      written_off_cents: returns.totals.writtenOffCents,
    });
    expect(equity.written_off_cents).toBeGreaterThan(0);
    const text = await runCli(['status', '--db', h.dbPath]);
    expect(text.stdout).toMatch(/equity\s+[\d.]+ \(cash [\d.]+ \+ loans out [\d.]+ - expected losses [\d.]+\); interest/);
  });

  it('names the late fees charged and the late fees received apart, the same in status, the ledger and the API', async () => {
    const ledger = parseCsv((await runCli(['ledger', 'export', '--db', h.dbPath, '--totals'])).stdout).at(-1)!;
    const received = parseCents(ledger.late_fees_received ?? 'x');
    const charged = h.store.payments.states().reduce((sum, state) => sum + state.feesCents, 0);
    expect(received).toBeGreaterThan(0);
    const json = JSON.parse((await runCli(['status', '--db', h.dbPath, '--json'])).stdout) as {
      payments: Record<string, number>;
      equity: Record<string, number>;
    };
    expect(json.payments.late_fees_charged_cents).toBe(charged);
    expect(json.equity.late_fees_received_cents).toBe(received);
    const returns = (await (await h.asOperator('/api/returns')).json()) as ReturnsAnswer;
    expect(returns.totals.lateFeesReceivedCents).toBe(received);
    const text = (await runCli(['status', '--db', h.dbPath])).stdout;
    const usd = (cents: number) => (cents / 100).toFixed(2);
    expect(text).toMatch(new RegExp(`payments .*, late fees charged ${usd(charged).replace('.', '\\.')}\n`));
    expect(text).toContain(`late fees received ${usd(received)},`);
    // No bare "fees" figure a reader could take for either.
    expect(text).not.toMatch(/[^d] fees [\d.]+/);
  });

  it('refuses a period it cannot read, with the form it wants', async () => {
    const result = await runCli(['ledger', 'export', '--db', h.dbPath, '--from', '2026-02-30']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--from must be a day (2026-03-31) or a month (2026-03), got "2026-02-30"');
    const unwritable = await runCli(['ledger', 'export', '--db', h.dbPath, '--out', join(dir, 'no-such-folder', 'ledger.csv')]);
    expect(unwritable.code).toBe(1);
    expect(unwritable.stderr).toContain(`cannot write ${join(dir, 'no-such-folder', 'ledger.csv')}: ENOENT`);
    const reversed = await runCli(['ledger', 'export', '--db', h.dbPath, '--from', '2026-05', '--to', '2026-04']);
    expect(reversed.code).toBe(2);
    expect(reversed.stderr).toContain('--from 2026-05 is after --to 2026-04');
  });
});
