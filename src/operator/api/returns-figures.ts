/**
 * Returns over time from the store's own records: the transfer history (what money moved), the
 * loans (which went bad) and their payment schedules (when). The service reports no split of a
 * repayment into principal and interest, so each loan's repayments count as principal until its
 * funded amount is back, and as interest after that: realised interest is never overstated.
 *
 * - equity: cash (processed transfers, and pending outgoing ones, already committed) plus the
 *   principal still out on loans not written off;
 * - interest: repayments beyond principal, summed;
 * - losses: a loan in collection or default is written off for the principal still out, on the
 *   day it went to collection (its Collection transfer), else the due date of its first unpaid
 *   payment, else its last transfer.
 */
import { parseCents, type LoanPayment, type TransferDayGroup } from '../../service/index.js';
import type { StoredLoan } from '../../store/index.js';
import type { DefaultRate, ReturnsAnswer } from './api-types.js';

const BAD_LISTS = new Set(['collection', 'default']);

export interface ReturnsInput {
  transfers: readonly TransferDayGroup[];
  loans: readonly StoredLoan[];
  /** The payments of one loan (read only for loans gone bad). */
  paymentsOf: (loanId: number) => readonly LoanPayment[];
  /** When a loan started (ISO), or null when unknown. */
  originOf: (loan: StoredLoan) => string | null;
}

interface LoanMoney {
  fundedCents: number;
  repaidCents: number;
}

const outstanding = (money: LoanMoney): number => Math.max(0, money.fundedCents - money.repaidCents);
const interest = (money: LoanMoney): number => Math.max(0, money.repaidCents - money.fundedCents);
const dayStart = (date: string): string => `${date}T00:00:00.000Z`;

function rate(loans: number, defaults: number): DefaultRate {
  return { loans, defaults, rate: loans === 0 ? 0 : defaults / loans };
}

/** The day a bad loan is written off (YYYY-MM-DD). */
function lossDay(loan: StoredLoan, collectionDay: string | undefined, lastTransferDay: string | undefined, payments: readonly LoanPayment[], fallback: string): string {
  if (collectionDay !== undefined) return collectionDay;
  const unpaid = payments
    .filter((payment) => payment.payment_status.toLowerCase() !== 'paid')
    .map((payment) => payment.payment_due_date.slice(0, 10))
    .sort()[0];
  return unpaid ?? lastTransferDay ?? fallback;
}

export function computeReturns(input: ReturnsInput, todayIso: string): ReturnsAnswer {
  const money = new Map<number, LoanMoney>();
  const collectionDay = new Map<number, string>();
  const lastTransferDay = new Map<number, string>();
  /** Each loan's movements over the whole history: what is still out today. */
  const finalMoney = new Map<number, LoanMoney>();
  const moneyOf = (loanId: number): LoanMoney => {
    let found = money.get(loanId);
    if (found === undefined) money.set(loanId, (found = { fundedCents: 0, repaidCents: 0 }));
    return found;
  };

  // Every day's movements, in the order the service listed them (dates sorted, oldest first).
  const days = [...input.transfers].sort((a, b) => a.date.localeCompare(b.date));
  const movements: Array<{ day: string; apply: () => void }> = [];
  let cashCents = 0;
  let interestCents = 0;
  for (const group of days) {
    const day = group.date.slice(0, 10);
    for (const transfer of group.transactions) {
      const status = transfer.transfer_status.toLowerCase();
      const cents = parseCents(transfer.transfer_amount);
      // Failed transfers moved nothing; pending incoming ones are not ours yet.
      if (status === 'failed' || (status !== 'processed' && cents > 0)) continue;
      const loanId = transfer.loan_id ?? null;
      if (loanId !== null) {
        lastTransferDay.set(loanId, day);
        if (transfer.transfer_type.toLowerCase() === 'collection' && !collectionDay.has(loanId)) collectionDay.set(loanId, day);
        const total = finalMoney.get(loanId) ?? { fundedCents: 0, repaidCents: 0 };
        if (cents < 0) total.fundedCents += -cents;
        else total.repaidCents += cents;
        finalMoney.set(loanId, total);
      }
      movements.push({
        day,
        apply: () => {
          cashCents += cents;
          if (loanId === null) return;
          const loan = moneyOf(loanId);
          const before = interest(loan);
          if (cents < 0) loan.fundedCents += -cents;
          else loan.repaidCents += cents;
          interestCents += interest(loan) - before;
        },
      });
    }
  }

  const today = todayIso.slice(0, 10);
  const lossAt = new Map<number, string>();
  for (const loan of input.loans) {
    if (!BAD_LISTS.has(loan.listStatus)) continue;
    lossAt.set(loan.id, lossDay(loan, collectionDay.get(loan.id), lastTransferDay.get(loan.id), input.paymentsOf(loan.id), today));
  }

  const allDays = [...new Set([...movements.map((movement) => movement.day), ...lossAt.values()])].sort();
  const equity: ReturnsAnswer['equity'] = [];
  const interestSeries: ReturnsAnswer['interest'] = [];
  const losses: ReturnsAnswer['losses'] = [];
  const writtenOff = new Set<number>();
  let lossesCents = 0;
  let next = 0;
  for (const day of allDays) {
    while (next < movements.length && movements[next]!.day === day) movements[next++]!.apply();
    for (const [loanId, at] of lossAt) {
      if (at !== day || writtenOff.has(loanId)) continue;
      writtenOff.add(loanId);
      // What is still out today (later recoveries included): the loss as it stands now.
      lossesCents += outstanding(finalMoney.get(loanId) ?? { fundedCents: 0, repaidCents: 0 });
    }
    let outCents = 0;
    for (const [loanId, loan] of money) if (!writtenOff.has(loanId)) outCents += outstanding(loan);
    equity.push({ at: dayStart(day), equityCents: cashCents + outCents });
    interestSeries.push({ at: dayStart(day), cents: interestCents });
    losses.push({ at: dayStart(day), cents: lossesCents });
  }

  // A pending loan waits for its funding: not yet a loan that could default.
  const funded = input.loans.filter((loan) => loan.status.toLowerCase() !== 'pending');
  const byLevel = new Map<number | null, { loans: number; defaults: number }>();
  const byMonth = new Map<string, { loans: number; defaults: number }>();
  for (const loan of funded) {
    const bad = BAD_LISTS.has(loan.listStatus) ? 1 : 0;
    const level = byLevel.get(loan.riskLevel) ?? { loans: 0, defaults: 0 };
    byLevel.set(loan.riskLevel, { loans: level.loans + 1, defaults: level.defaults + bad });
    const month = input.originOf(loan)?.slice(0, 7) ?? 'unknown';
    const inMonth = byMonth.get(month) ?? { loans: 0, defaults: 0 };
    byMonth.set(month, { loans: inMonth.loans + 1, defaults: inMonth.defaults + bad });
  }

  return {
    equity,
    interest: interestSeries,
    losses,
    defaultRates: {
      byRiskLevel: [...byLevel]
        .sort(([a], [b]) => (a ?? 99) - (b ?? 99))
        .map(([riskLevel, counts]) => ({ riskLevel, ...rate(counts.loans, counts.defaults) })),
      byOriginationMonth: [...byMonth].sort(([a], [b]) => a.localeCompare(b)).map(([month, counts]) => ({ month, ...rate(counts.loans, counts.defaults) })),
    },
    totals: { equityCents: equity.at(-1)?.equityCents ?? 0, interestCents, lossesCents },
    notes: [
      'from the transfer history as last read by the balance refresh (jobs.balance_refresh) and the loans of the account sync (jobs.reconcile)',
      'repayments count as principal until a loan\'s funded amount is back, then as interest',
      'a loan in collection or default is written off for the principal still out, on the day it went to collection',
      'default rates count loans in collection or default among the funded loans',
    ],
  };
}
