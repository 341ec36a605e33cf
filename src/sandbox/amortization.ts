/**
 * Payment schedules: equal monthly payments that amortize a principal at an annual rate
 * (rate/12 per month), the payment and each month's interest by the one loan math (src/math/).
 * Cents are whole; the last payment absorbs the rounding so the payments add up exactly to
 * principal plus interest.
 */
import { monthInterestCents, monthlyPayment } from '../math/index.js';

/** Every payment of the schedule, in cents; the last one settles the exact remaining balance. */
export function paymentSchedule(principalCents: number, annualRate: number, terms: number): number[] {
  const payment = monthlyPayment(principalCents, annualRate, terms);
  const amounts: number[] = [];
  let balance = principalCents;
  for (let month = 1; month <= terms; month++) {
    const interest = monthInterestCents(balance, annualRate);
    if (month === terms) {
      amounts.push(balance + interest);
      break;
    }
    amounts.push(payment);
    balance = balance + interest - payment;
  }
  return amounts;
}

/** The epoch milliseconds `months` calendar months after `startMs` (day clamped to month end). */
export function addMonths(startMs: number, months: number): number {
  const start = new Date(startMs);
  const target = new Date(
    Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + months, 1, start.getUTCHours(), start.getUTCMinutes(), start.getUTCSeconds()),
  );
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(start.getUTCDate(), lastDay));
  return target.getTime();
}
