/**
 * The loan ledger and equity on hand-made histories whose figures are known: repayments split by
 * amortisation, late fees apart, recoveries and write-offs, and equity that rises with interest as
 * it arrives and falls when a loan turns late.
 */
import { describe, expect, it } from 'vitest';
import { computeReturns } from '../../src/operator/api/returns-figures.js';
import { daemonConfigSchema } from '../../src/daemon/daemon-config.js';
import { DEFAULT_LOSS_RATES, equitySeries, lossRate } from '../../src/money/equity.js';
import { ledgerSectionSchema, lossRatesFromConfig, lossRatesOf } from '../../src/money/loss-rates-config.js';
import { ledgerCsv, ledgerMonths, reconcileLedger } from '../../src/money/ledger-export.js';
import { buildLoanLedger, type LedgerInput } from '../../src/money/loan-ledger.js';
import { paymentSchedule } from '../../src/sandbox/amortization.js';
import type { LoanPayment, Transfer, TransferDayGroup } from '../../src/domain/index.js';
import type { StoredLoan } from '../../src/store/index.js';

const dollars = (cents: number): string => (cents / 100).toFixed(2);

function transfer(type: string, cents: number, loanId: number | null, status = 'processed'): Transfer {
  return { transfer_status: status, transfer_type: type, transfer_amount: dollars(cents), loan_id: loanId, loan_request_id: null };
}

function loan(id: number, listStatus: StoredLoan['listStatus'], rate: number, amountCents: number): StoredLoan {
  return {
    id,
    loanRequestId: id + 1000,
    listStatus,
    status: listStatus === 'current' ? 'funded' : listStatus,
    riskLevel: 1,
    loanAmountCents: amountCents,
    remainingCents: amountCents,
    interestRate: rate,
    paidOff: listStatus === 'completed',
    loan: { id, loan_amount: amountCents / 100, interest_rate: rate, status: listStatus },
  };
}

function payment(
  id: number,
  loanId: number,
  cents: number,
  due: string,
  status: string,
  changed: string | null,
  feeCents = 0,
): LoanPayment {
  return {
    id,
    loan: loanId,
    payment_amount: dollars(cents),
    payment_due_date: due,
    payment_status: status,
    payment_status_changed: changed,
    late_payment_fees_amount: feeCents === 0 ? null : feeCents / 100,
  };
}

/** Groups as the service sends them: newest date first. */
function history(rows: Array<[string, Transfer]>): TransferDayGroup[] {
  const byDay = new Map<string, Transfer[]>();
  for (const [day, row] of rows) byDay.set(day, [row, ...(byDay.get(day) ?? [])]);
  return [...byDay].sort(([a], [b]) => b.localeCompare(a)).map(([date, transactions]) => ({ date, transactions }));
}

const PRINCIPAL = 100_000;
const RATE = 0.24;
const schedule = paymentSchedule(PRINCIPAL, RATE, 3);

function input(rows: Array<[string, Transfer]>, loans: StoredLoan[], payments: LoanPayment[] = []): LedgerInput {
  return { transfers: history(rows), loans, paymentsOf: (id) => payments.filter((p) => p.loan === id), today: '2026-06-01' };
}

describe('the loan ledger', () => {
  it('splits each repayment into interest and principal by the loan schedule, late fees apart', () => {
    const [first, second, third] = schedule as [number, number, number];
    const payments = [
      payment(1, 7, first, '2026-02-01', 'paid', '2026-02-01 00:00:00+00:00'),
      payment(2, 7, second, '2026-03-01', 'paid', '2026-03-11 00:00:00+00:00', 1500),
      payment(3, 7, third, '2026-04-01', 'paid', '2026-04-01 00:00:00+00:00'),
    ];
    const ledger = buildLoanLedger(
      input(
        [
          ['2026-01-01', transfer('Add Money', 200_000, null)],
          ['2026-01-01', transfer('Fund Loans', -PRINCIPAL, 7)],
          ['2026-02-01', transfer('Monthly Payments', first, 7)],
          ['2026-03-11', transfer('Monthly Payments', second + 1500, 7)],
          ['2026-04-01', transfer('Monthly Payments', third, 7)],
          ['2026-04-02', transfer('Lender Subscription', -2000, null)],
        ],
        [loan(7, 'completed', RATE, PRINCIPAL)],
        payments,
      ),
    );
    const of = (kind: string) => ledger.entries.filter((entry) => entry.kind === kind).map((entry) => [entry.day, entry.cents]);
    // 2% a month: 1,000.00 earns 20.00 in the first month, then less as principal comes back.
    const interest1 = 2000;
    const principal1 = first - interest1;
    const interest2 = Math.round((PRINCIPAL - principal1) * 0.02);
    expect(of('interest')[0]).toEqual(['2026-02-01', interest1]);
    expect(of('interest')[1]).toEqual(['2026-03-11', interest2]);
    expect(of('late_fees')).toEqual([['2026-03-11', 1500]]);
    expect(of('lent')).toEqual([['2026-01-01', PRINCIPAL]]);
    expect(of('fees')).toEqual([['2026-04-02', -2000]]);
    const sum = (kind: string) => of(kind).reduce((total, [, cents]) => total + Number(cents), 0);
    expect(sum('principal')).toBe(PRINCIPAL);
    expect(sum('interest')).toBe(schedule.reduce((a, b) => a + b, 0) - PRINCIPAL);
    expect(ledger.cash.reduce((total, move) => total + move.cents, 0)).toBe(200_000 - 2000 - PRINCIPAL + first + second + 1500 + third);
  });

  it('counts recoveries against the principal still out and writes the rest off at default', () => {
    const ledger = buildLoanLedger(
      input(
        [
          ['2026-01-01', transfer('Fund Loans', -PRINCIPAL, 8)],
          ['2026-03-05', transfer('Collection', 30_000, 8)],
          ['2026-03-06', transfer('Monthly Payments', 500, 8, 'failed')],
        ],
        [loan(8, 'default', RATE, PRINCIPAL)],
        [payment(11, 8, schedule[0]!, '2026-02-01', 'Missed Payment', '2026-02-01 00:00:00+00:00')],
      ),
    );
    expect(ledger.entries.map((entry) => [entry.day, entry.kind, entry.cents, entry.outstandingDeltaCents])).toEqual([
      ['2026-01-01', 'lent', PRINCIPAL, PRINCIPAL],
      ['2026-03-05', 'recoveries', 30_000, -30_000],
      ['2026-03-05', 'write_offs', 70_000, -70_000],
    ]);
  });
});

describe('the ledger export', () => {
  const rows: Array<[string, Transfer]> = [
    ['2026-01-01', transfer('Add Money', 200_000, null)],
    ['2026-01-01', transfer('Fund Loans', -PRINCIPAL, 7)],
    ['2026-02-01', transfer('Monthly Payments', schedule[0]!, 7)],
    ['2026-02-03', transfer('Lender Subscription', -2000, null)],
  ];
  const ledgerInput = input(rows, [loan(7, 'current', RATE, PRINCIPAL)]);

  it('sums per loan and month in dollars, the account last in its month, and reconciles', () => {
    const months = ledgerMonths(buildLoanLedger(ledgerInput).entries);
    expect(ledgerCsv(months, { totals: true })).toBe(
      [
        'loan_id,month,lent,principal,interest,fees,late_fees_received,write_offs,recoveries,other',
        '7,2026-01,1000.00,0.00,0.00,0.00,0.00,0.00,0.00,0.00',
        `7,2026-02,0.00,${dollars(schedule[0]! - 2000)},20.00,0.00,0.00,0.00,0.00,0.00`,
        'account,2026-02,0.00,0.00,0.00,-20.00,0.00,0.00,0.00,0.00',
        `total,,1000.00,${dollars(schedule[0]! - 2000)},20.00,-20.00,0.00,0.00,0.00,0.00`,
        '',
      ].join('\n'),
    );
    expect(reconcileLedger(months, ledgerInput.transfers)).toMatchObject({ ok: true, depositsCents: 200_000 });
  });

  it('says which kind differs when the rows do not match the history', () => {
    const months = ledgerMonths(buildLoanLedger(ledgerInput).entries, { from: '2026-02-01' });
    // The history of the whole time against February's rows: the funding is not in them.
    const check = reconcileLedger(months, ledgerInput.transfers);
    expect(check.ok).toBe(false);
    expect(check.lines.filter((line) => line.transfersCents !== line.ledgerCents)).toEqual([
      { label: 'loans funded (Fund Loans, refunds of a loan) = -lent', transfersCents: -PRINCIPAL, ledgerCents: 0 },
    ]);
    expect(reconcileLedger(months, ledgerInput.transfers, { from: '2026-02-01' }).ok).toBe(true);
  });
});

describe('equity', () => {
  const rows: Array<[string, Transfer]> = [
    ['2026-01-01', transfer('Add Money', PRINCIPAL, null)],
    ['2026-01-01', transfer('Fund Loans', -PRINCIPAL, 9)],
    ['2026-02-01', transfer('Monthly Payments', schedule[0]!, 9)],
  ];

  it('rises by the interest as it arrives, not flat until the principal is back', () => {
    const series = equitySeries(
      input(rows, [loan(9, 'current', RATE, PRINCIPAL)], [payment(21, 9, schedule[0]!, '2026-02-01', 'paid', '2026-02-01 00:00:00+00:00')]),
      Date.parse('2026-02-10T12:00:00Z'),
    );
    expect(series.map((point) => [point.at.slice(0, 10), point.equityCents])).toEqual([
      ['2026-01-01', PRINCIPAL],
      ['2026-02-01', PRINCIPAL + 2000],
      ['2026-02-10', PRINCIPAL + 2000],
    ]);
    expect(series.at(-1)).toMatchObject({
      cashCents: schedule[0],
      outstandingCents: PRINCIPAL - (schedule[0]! - 2000),
      expectedLossCents: 0,
      interestCents: 2000,
    });
  });

  it('is what the returns API answers, with the interest series beside it', () => {
    const { today: _today, ...rest } = input(rows, [loan(9, 'current', RATE, PRINCIPAL)]);
    const answer = computeReturns({ ...rest, originOf: () => '2026-01-01T00:00:00.000Z' }, Date.parse('2026-02-10T12:00:00Z'));
    expect(answer.equity.map((point) => point.equityCents)).toEqual([PRINCIPAL, PRINCIPAL + 2000, PRINCIPAL + 2000]);
    expect(answer.interest.map((point) => point.cents)).toEqual([0, 2000, 2000]);
    expect(answer.totals).toMatchObject({ equityCents: PRINCIPAL + 2000, interestCents: 2000, lossesCents: 0 });
  });

  it('takes off the loss expected on a late loan, growing with the days late and half once missed', () => {
    const payments = [
      payment(21, 9, schedule[0]!, '2026-02-01', 'paid', '2026-02-01 00:00:00+00:00'),
      payment(22, 9, schedule[1]!, '2026-03-01', 'pending', '2026-03-01 00:00:00+00:00'),
    ];
    const out = PRINCIPAL - (schedule[0]! - 2000);
    const at = (iso: string) => equitySeries(input(rows, [loan(9, 'current', RATE, PRINCIPAL)], payments), Date.parse(iso)).at(-1);
    expect(at('2026-03-01T12:00:00Z')?.expectedLossCents).toBe(0);
    expect(at('2026-03-20T00:00:00Z')?.expectedLossCents).toBe(Math.round(out * 0.15));
    expect(at('2026-03-20T00:00:00Z')?.equityCents).toBe(schedule[0]! + out - Math.round(out * 0.15));
    // The series steps on the day the lateness crosses 16 days, not only on days money moved.
    const days = equitySeries(input(rows, [loan(9, 'current', RATE, PRINCIPAL)], payments), Date.parse('2026-03-20T00:00:00Z')).map(
      (point) => point.at.slice(0, 10),
    );
    expect(days).toContain('2026-03-17');
    expect(lossRate(0, true)).toBe(0.5);
    expect(lossRate(120, false)).toBe(0.8);
  });

  it("counts the config's ledger shares where it has them, the defaults where not", () => {
    expect(lossRatesOf(ledgerSectionSchema.parse({}))).toEqual(DEFAULT_LOSS_RATES);
    expect(lossRatesFromConfig(daemonConfigSchema.parse({}))).toEqual(DEFAULT_LOSS_RATES);
    const config = daemonConfigSchema.parse({ ledger: { expected_loss: [{ days_late: 1, share: 0.5 }], missed_payment_loss: 0.9 } });
    const rates = lossRatesFromConfig(config);
    expect(rates).toEqual({ byDaysLate: [{ daysLate: 1, rate: 0.5 }], missed: 0.9 });
    const payments = [
      payment(21, 9, schedule[0]!, '2026-02-01', 'paid', '2026-02-01 00:00:00+00:00'),
      payment(22, 9, schedule[1]!, '2026-03-01', 'pending', null),
    ];
    const out = PRINCIPAL - (schedule[0]! - 2000);
    const late = equitySeries(input(rows, [loan(9, 'current', RATE, PRINCIPAL)], payments), Date.parse('2026-03-05T00:00:00Z'), rates).at(
      -1,
    );
    expect(late?.expectedLossCents).toBe(Math.round(out * 0.5));
    expect(
      ledgerSectionSchema.safeParse({
        expected_loss: [
          { days_late: 30, share: 0.2 },
          { days_late: 10, share: 0.1 },
        ],
      }).error?.issues[0]?.message,
    ).toBe('days_late must rise from one step to the next');
  });
});
