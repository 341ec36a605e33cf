import { describe, expect, it } from 'vitest';
import { loanCashFlows } from '../../src/math/index.js';

const full = { kind: 'full', prepayMonth: null } as const;

describe('loan cash flows (hand-computed)', () => {
  // 1000.00 at 12% a year over 12 months: i = 0.01, factor = 0.01 / (1 - 1.01^-12) = 0.08884879,
  // payment 88.85, total due 12 x 88.85 = 1066.20.
  it('repaid in full: interest is what is due beyond the principal, nothing is lost', () => {
    const flows = loanCashFlows(100_000, 0.12, 12, full);
    expect(flows.monthlyPaymentCents).toBe(8885);
    expect(flows.totalDueCents).toBe(106_620);
    expect(flows.instalments).toHaveLength(12);
    expect(flows.instalments.reduce((sum, i) => sum + i.interestCents, 0)).toBe(6620);
    expect(flows.instalments.reduce((sum, i) => sum + i.principalCents, 0)).toBe(100_000);
    expect(flows.lossCents).toBe(0);
    expect(flows.lossMonth).toBeNull();
  });

  it('prepaid in month 6: five instalments, then this month’s interest and the principal left; interest 40.42 instead of 66.20', () => {
    const flows = loanCashFlows(100_000, 0.12, 12, { kind: 'full', prepayMonth: 6 });
    expect(flows.instalments).toHaveLength(6);
    // Interest 10.00 + 9.21 + 8.42 + 7.61 + 6.80 in the five instalments; principal after them
    // 1000 - (78.85 + 79.64 + 80.43 + 81.24 + 82.05) = 597.79, whose month's interest is 5.98.
    expect(flows.instalments[5]).toMatchObject({ month: 6, amountCents: 59_779 + 598, interestCents: 598, principalCents: 59_779 });
    expect(flows.instalments.reduce((sum, i) => sum + i.interestCents, 0)).toBe(4802);
    expect(flows.lossCents).toBe(0);
    expect(flows.repaidCents).toBe(104_802);
  });

  it('half repaid: six instalments, the principal still owed written off in month 7, nothing left to recover', () => {
    const flows = loanCashFlows(100_000, 0.12, 12, { kind: 'partial', repaidCents: 53_310, final: true }, 3);
    expect(flows.instalments.map((i) => i.interestCents)).toEqual([1000, 921, 842, 761, 680, 598]);
    // Principal after six: 1000 - (78.85 + 79.64 + 80.43 + 81.24 + 82.05 + 82.87) = 514.92.
    expect(flows).toMatchObject({ lossCents: 51_492, lossMonth: 7, recoveryCents: 0, recoveryMonth: null });
    expect(4802 - 51_492).toBe(53_310 - 100_000);
  });

  it('a partial instalment is a recovery: written off at the first missed instalment, the part paid arrives later', () => {
    // 106.62 repaid: one instalment of 88.85; at month 2 the 921.15 still owed is written off and
    // the 17.77 the borrower still pays arrives three months later, in month 5.
    const flows = loanCashFlows(100_000, 0.12, 12, { kind: 'partial', repaidCents: 10_662, final: true }, 3);
    expect(flows.instalments.map((i) => i.amountCents)).toEqual([8885]);
    expect(flows).toMatchObject({ lossCents: 92_115, lossMonth: 2, recoveryCents: 1777, recoveryMonth: 5, repaidCents: 10_662 });
    // interest + recovery - loss = repaid - principal, to the cent.
    expect(1000 + 1777 - 92_115).toBe(10_662 - 100_000);
  });

  it('with the missed month recorded, the instalments stop before it: what came back later is a recovery, not instalments', () => {
    // 53.31 USD repaid, but the borrower missed instalment 2: one instalment of 88.85, the 921.15
    // still owed written off in month 2, and the 444.25 collected arrives three months later. Read
    // as instalments, the same dollars would have defaulted in month 7.
    const flows = loanCashFlows(100_000, 0.12, 12, { kind: 'partial', repaidCents: 53_310, final: true, missedMonth: 2 }, 3);
    expect(flows.instalments.map((i) => i.amountCents)).toEqual([8885]);
    expect(flows).toMatchObject({ lossCents: 92_115, lossMonth: 2, recoveryCents: 44_425, recoveryMonth: 5, repaidCents: 53_310 });
    expect(1000 + 44_425 - 92_115).toBe(53_310 - 100_000);
    // Fewer dollars than the instalments before the missed one: the loss comes where the money ran out.
    const short = loanCashFlows(100_000, 0.12, 12, { kind: 'partial', repaidCents: 10_662, final: true, missedMonth: 6 }, 3);
    expect(short).toMatchObject({ lossMonth: 2, recoveryCents: 1777 });
  });

  it('a loan still running keeps its principal open instead of losing it', () => {
    const flows = loanCashFlows(100_000, 0.12, 12, { kind: 'partial', repaidCents: 53_310, final: false });
    expect(flows.lossCents).toBe(0);
    expect(flows.openCents).toBe(51_492);
  });

  it('nothing repaid loses everything in month 1; more than due is capped at the total due', () => {
    const flows = loanCashFlows(50_000, 0.2, 6, { kind: 'partial', repaidCents: 0, final: true });
    expect(flows.instalments).toEqual([]);
    expect(flows).toMatchObject({ lossCents: 50_000, lossMonth: 1, recoveryCents: 0 });
    const over = loanCashFlows(100_000, 0.12, 12, { kind: 'partial', repaidCents: 500_000, final: true });
    expect(over).toMatchObject({ repaidCents: 106_620, lossCents: 0 });
  });
});
