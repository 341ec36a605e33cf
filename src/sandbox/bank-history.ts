/**
 * A borrower's 90 days of bank transactions before the loan request, and the agg_90 aggregates
 * computed from them (marketplace 2.9). The transactions are rebuilt from a seed whenever they are
 * needed, so the market keeps only the aggregates in memory; `aggregate90` is the single
 * definition of agg_90, used both when generating and by tests that recompute it.
 */
import { SPENDING_CATEGORIES, spendingAmountField, spendingShareField, type Agg90, type SpendingCategory } from '../domain/index.js';
import { Random, roundTo } from './random.js';
import { DAY_MS } from '../clock/time-constants.js';

/** The bank's category name for each agg_90 category. */
export const BANK_CATEGORY_NAMES: Record<SpendingCategory, string> = {
  misc: 'Miscellaneous',
  entertainment: 'Entertainment',
  lifestyle: 'Health and Lifestyle',
  education: 'Education',
  bank_fees: 'Bank Fees and Charges',
  donations: 'Donations',
  goods_and_merch: 'Goods and Merchandise',
  home_expense: 'Home Expense',
  services: 'Services',
  utilities: 'Utilities',
  credit_payment: 'Transfers and Adjustments',
  transportation: 'Travel and Transportation',
  food: 'Food and Dining',
};
const CATEGORY_BY_NAME = new Map(Object.entries(BANK_CATEGORY_NAMES).map(([key, name]) => [name, key as SpendingCategory]));
export const CASH_ADVANCE = 'Cash Advance';

/** One transaction as the core-banking provider returns it. */
export interface BankTransactionData {
  Memo: string;
  TrnID: number;
  CurAmt: { Amt: number; CurCode: string };
  TrnType: 'Credit' | 'Debit';
  Category: string;
  SubCategory: string;
  PostedDt: string;
  CreatedOnDt: string;
}

export interface BankHistoryInput {
  seed: number;
  createdMs: number;
  /** Monthly income in cents. */
  monthlyIncomeCents: number;
  /** Spending as a share of income (above 1 means the borrower spends more than they earn). */
  spendRatio: number;
  /** 0 to 1: how often the borrower runs short (cash advances, overdrafts). */
  stress: number;
  endBalanceCents: number;
  /**
   * Irregular earners only: what each 30-day window's pay is multiplied by (index 0 the most
   * recent month, as agg_90's `credit_30`). Absent: pay is regular.
   */
  payMultipliers?: readonly number[];
}

// Day-to-day spending mix (weights), excluding rent, bills and fees which are drawn separately.
const DAILY_MIX: ReadonlyArray<readonly [SpendingCategory, number]> = [
  ['food', 30],
  ['goods_and_merch', 18],
  ['transportation', 14],
  ['entertainment', 9],
  ['lifestyle', 8],
  ['services', 7],
  ['misc', 7],
  ['education', 3],
  ['donations', 2],
];
const MERCHANTS: Partial<Record<SpendingCategory, string>> = {
  food: 'POS DEBIT GROCERY MART',
  goods_and_merch: 'ONLINE STORE PURCHASE',
  transportation: 'FUEL STATION',
  entertainment: 'STREAMING SERVICE',
  lifestyle: 'PHARMACY',
  services: 'PHONE SERVICE',
  misc: 'ATM WITHDRAWAL',
  education: 'BOOKSTORE',
  donations: 'CHARITY DONATION',
  home_expense: 'RENT PAYMENT',
  utilities: 'ELECTRIC CO',
  credit_payment: 'CARD PAYMENT',
  bank_fees: 'OVERDRAFT FEE',
};

/** Builds the 90 days of transactions (oldest first). Deterministic for the input. */
export function generateTransactions(input: BankHistoryInput): BankTransactionData[] {
  const random = new Random(input.seed);
  const drafts: Array<{ day: number; credit: boolean; cents: number; category: string; sub: string; memo: string }> = [];
  const payOffset = random.int(0, 13);
  const paycheck = Math.round((input.monthlyIncomeCents * 12) / 26);
  const budget = input.monthlyIncomeCents * input.spendRatio;
  const rent = Math.round(budget * random.between(0.25, 0.35));
  const bills = Math.round(budget * random.between(0.05, 0.1));
  const card = Math.round(budget * random.between(0.03, 0.12));
  const daily = Math.max(0, budget - rent - bills - card) / 30;
  const totalWeight = DAILY_MIX.reduce((sum, [, weight]) => sum + weight, 0);
  const push = (day: number, credit: boolean, cents: number, category: SpendingCategory | 'Income', sub: string): void => {
    const name = category === 'Income' ? 'Income' : BANK_CATEGORY_NAMES[category];
    const memo = category === 'Income' ? 'DIRECT DEP PAYROLL' : (MERCHANTS[category] ?? 'PURCHASE');
    drafts.push({ day, credit, cents: Math.max(1, Math.round(cents)), category: name, sub, memo });
  };
  for (let day = 90; day >= 1; day--) {
    const swing = input.payMultipliers?.[Math.min(2, Math.floor((day - 1) / 30))] ?? 1;
    if ((day + payOffset) % 14 === 0) push(day, true, paycheck * swing * random.between(0.93, 1.07), 'Income', 'Paycheck');
    if (day % 30 === 1) {
      push(day, false, rent, 'home_expense', 'Rent');
      push(day, false, bills, 'utilities', 'Electric and Water');
      push(day, false, card, 'credit_payment', 'Credit Card Payment');
    }
    if (random.chance(input.stress * 0.06)) push(day, false, random.between(5000, 30000), 'credit_payment', CASH_ADVANCE);
    const count = random.poisson(1.6);
    for (let i = 0; i < count; i++) {
      let pick = random.next() * totalWeight;
      const entry = DAILY_MIX.find(([, weight]) => (pick -= weight) < 0) ?? DAILY_MIX[0];
      if (entry) push(day, false, (daily / 1.6) * random.exponential(1), entry[0], 'General');
    }
  }
  // Overdraft fees follow the running balance, so they need the start balance.
  const net = drafts.reduce((sum, d) => sum + (d.credit ? d.cents : -d.cents), 0);
  let balance = input.endBalanceCents - net;
  const withFees: typeof drafts = [];
  for (const draft of drafts) {
    withFees.push(draft);
    const before = balance;
    balance += draft.credit ? draft.cents : -draft.cents;
    if (before >= 0 && balance < 0) {
      const fee = 3500;
      withFees.push({
        day: draft.day,
        credit: false,
        cents: fee,
        category: BANK_CATEGORY_NAMES.bank_fees,
        sub: 'Overdraft',
        memo: 'OVERDRAFT FEE',
      });
      balance -= fee;
    }
  }
  // A date per day, not per transaction: formatting dates was most of an export's cost.
  const dates: string[] = [];
  return withFees.map((draft, index) => {
    const date = (dates[draft.day] ??= new Date(input.createdMs - draft.day * DAY_MS).toISOString().slice(0, 10));
    return {
      Memo: draft.memo,
      TrnID: (input.seed % 1_000_000) * 1000 + index,
      CurAmt: { Amt: draft.cents / 100, CurCode: 'USD' },
      TrnType: draft.credit ? 'Credit' : 'Debit',
      Category: draft.category,
      SubCategory: draft.sub,
      PostedDt: date,
      CreatedOnDt: `${date}T12:00:00+00:00`,
    };
  });
}

/** The start balance implied by an end balance and the transactions (fees included). */
function startBalanceCents(transactions: readonly BankTransactionData[], endBalanceCents: number): number {
  return endBalanceCents - transactions.reduce((sum, t) => sum + signedCents(t), 0);
}

function signedCents(transaction: BankTransactionData): number {
  const cents = Math.round(transaction.CurAmt.Amt * 100);
  return transaction.TrnType === 'Credit' ? cents : -cents;
}

export interface Aggregates {
  agg90: Agg90;
  /** Oldest month first: days 60-90, 30-60, 0-30. */
  monthly: Array<{ credit: number; debit: number }>;
}

/** Computes agg_90 from the transactions of the 90 days before `createdMs`. */
export function aggregate90(transactions: readonly BankTransactionData[], createdMs: number, endBalanceCents: number): Aggregates {
  const createdDay = Math.floor(createdMs / DAY_MS);
  const credit = [0, 0, 0];
  const debit = [0, 0, 0];
  const byCategory = new Map<SpendingCategory, number>();
  let cashAdvance = 0;
  let negative = 0;
  let balance = startBalanceCents(transactions, endBalanceCents);
  const days = new Map<string, number>(); // parsed once per date: transactions share a few dozen
  const dayOf = (date: string): number => Math.floor(Date.parse(`${date}T00:00:00Z`) / DAY_MS);
  for (const transaction of transactions) {
    let postedDay = days.get(transaction.PostedDt);
    if (postedDay === undefined) days.set(transaction.PostedDt, (postedDay = dayOf(transaction.PostedDt)));
    const age = createdDay - postedDay;
    const window = Math.min(2, Math.max(0, Math.floor((age - 1) / 30)));
    const cents = Math.round(transaction.CurAmt.Amt * 100);
    const before = balance;
    balance += signedCents(transaction);
    if (before >= 0 && balance < 0) negative += 1;
    if (transaction.TrnType === 'Credit') {
      credit[window] = (credit[window] ?? 0) + cents;
      continue;
    }
    debit[window] = (debit[window] ?? 0) + cents;
    const category = CATEGORY_BY_NAME.get(transaction.Category);
    if (category) byCategory.set(category, (byCategory.get(category) ?? 0) + cents);
    if (transaction.SubCategory === CASH_ADVANCE) cashAdvance += cents;
  }
  const totalCredit = credit.reduce((a, b) => a + b, 0);
  const totalDebit = debit.reduce((a, b) => a + b, 0);
  const dollars = (cents: number): number => roundTo(cents / 100, 2);
  const share = (cents: number): number => (totalDebit === 0 ? 0 : roundTo((cents / totalDebit) * 100, 2));
  const agg90: Agg90 = {
    avg_credit: dollars(totalCredit / 3),
    avg_debit: dollars(totalDebit / 3),
    credit_30: dollars(credit[0] ?? 0),
    debit_30: dollars(debit[0] ?? 0),
    credit_60: dollars(credit[1] ?? 0),
    debit_60: dollars(debit[1] ?? 0),
    credit_90: dollars(credit[2] ?? 0),
    debit_90: dollars(debit[2] ?? 0),
    total_credit: dollars(totalCredit),
    total_debit: dollars(totalDebit),
    cash_advance_last90: dollars(cashAdvance),
    cash_advance_percentage_from_total: share(cashAdvance),
    negative_balance_count: negative,
  };
  for (const category of SPENDING_CATEGORIES) {
    const cents = byCategory.get(category) ?? 0;
    agg90[spendingAmountField(category)] = dollars(cents);
    agg90[spendingShareField(category)] = share(cents);
  }
  const monthly = [2, 1, 0].map((w) => ({ credit: dollars(credit[w] ?? 0), debit: dollars(debit[w] ?? 0) }));
  return { agg90, monthly };
}
