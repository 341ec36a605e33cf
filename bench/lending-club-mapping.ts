/**
 * LendingClub loans (bench/datasets/lending-club/) as a lendbot recording: one line per loan, so
 * the shipped strategies can be replayed on real borrowers with their real outcomes (issue 35).
 * docs/lending-club.md says what each field is made from and what is lost; in short:
 *
 * - the credit score range comes from the sub-grade (A1 best, G5 worst, evenly from 796-799 down
 *   to LendingClub's floor of 660), the risk level from the grade (A, B low; C, D medium; E, F, G
 *   high), the maximum rate is the marketplace's cap for that level;
 * - the market's price is LendingClub's own rate: it is both the funded and the best competing
 *   rate, so an offer wins only strictly below it; no reservation rate (the borrowers' rule is
 *   not known);
 * - `good` is a completed loan, `bad` a default. The data has no date for it: the instalment first
 *   missed is a draw spread evenly over the term (a constant hazard), seeded by the row, and the
 *   instalments before it are repaid, nothing after (no recovery is known). Writing every bad
 *   loan off at its first instalment, as this did before, showed a learner every default at
 *   once while the 36- and 60-month survivors showed their survival a month at a time.
 */
import { MAX_RATE_BY_COLOR } from '../src/sandbox/index.js';
import { RECORDING_VERSION, type RecordingLine } from '../src/recording/index.js';
import { DAY_MS } from '../src/clock/time-constants.js';

export const LENDING_CLUB_CSV = 'bench/datasets/lending-club/lending_club.csv';

const GRADES = 'ABCDEFG';
/** LendingClub lent to FICO 660 and up: the worst sub-grade's range starts there. */
const SCORE_FLOOR = 660;
/** Points of credit score between neighbouring sub-grades. */
const SCORE_STEP = 4;
const SUB_GRADES = 35;
/** Risk level by grade letter: A, B low (0); C, D medium (1); E, F, G high (2). */
const RISK_LEVEL_BY_GRADE: Readonly<Record<string, number>> = { A: 0, B: 0, C: 1, D: 1, E: 2, F: 2, G: 2 };
const COLUMNS = ['funded_amnt', 'term', 'int_rate', 'sub_grade', 'annual_inc', 'inq_last_6mths', 'delinq_2yrs', 'revol_util', 'Class'];

/** One loan of the CSV, the columns the mapping reads. */
export interface LendingClubLoan {
  fundedAmount: number;
  termMonths: number;
  /** Per cent, as LendingClub states it. */
  interestRate: number;
  subGrade: string;
  annualIncome: number;
  inquiries6Months: number;
  delinquencies2Years: number;
  /** Revolving utilization in per cent (may exceed 100). */
  revolvingUtilization: number;
  good: boolean;
}

export interface MappingOptions {
  /** When the first loan is seen (default 2016-01-01, the quarter's start). */
  start?: string;
  /** Days the loans' seen_at are spread over, in file order (default 150). */
  days?: number;
  /** Only the first `rows` loans. */
  rows?: number;
}

/** 0 for A1 to 34 for G5; a RangeError for anything else. */
function subGradeIndex(subGrade: string): number {
  const grade = GRADES.indexOf(subGrade[0] ?? '');
  const step = Number(subGrade.slice(1));
  if (subGrade.length !== 2 || grade < 0 || !(step >= 1 && step <= 5)) throw new RangeError(`unknown sub-grade "${subGrade}"`);
  return grade * 5 + step - 1;
}

/** The credit score range text a sub-grade maps to: "796-799" for A1 down to "660-663" for G5. */
export function creditScoreRangeOf(subGrade: string): string {
  const low = SCORE_FLOOR + SCORE_STEP * (SUB_GRADES - 1 - subGradeIndex(subGrade));
  return `${low}-${low + SCORE_STEP - 1}`;
}

/** The grade letter back from a mapped credit score range (the bench counts loans by grade), or undefined. */
export function gradeOfCreditScoreRange(range: string | null | undefined): string | undefined {
  const low = Number(range?.split('-')[0]);
  const index = SUB_GRADES - 1 - (low - SCORE_FLOOR) / SCORE_STEP;
  return Number.isInteger(index) && index >= 0 && index < SUB_GRADES ? GRADES[Math.floor(index / 5)] : undefined;
}

export function riskLevelOf(subGrade: string): number {
  subGradeIndex(subGrade);
  return RISK_LEVEL_BY_GRADE[subGrade[0] ?? ''] ?? 2;
}

/**
 * The CSV's loans. Its dialect is R's write.csv: a header, comma-separated, text in double quotes
 * with no quote or comma inside; a row that is not so is an error naming it, never skipped.
 */
export function parseLendingClubCsv(text: string): LendingClubLoan[] {
  const [header = '', ...rows] = text.trimEnd().split(/\r?\n/);
  const unquote = (cell: string): string => cell.replace(/^"(.*)"$/, '$1');
  const names = header.split(',').map(unquote);
  const at = Object.fromEntries(COLUMNS.map((column) => [column, names.indexOf(column)]));
  const missing = COLUMNS.filter((column) => at[column] === -1);
  if (missing.length > 0) throw new Error(`the CSV has no column ${missing.join(', ')}`);
  return rows.map((row, i) => {
    const cells = row.split(',').map(unquote);
    if (cells.length !== names.length) throw new Error(`row ${i + 2}: ${cells.length} cells, the header has ${names.length}`);
    const cell = (column: string): string => cells[at[column] ?? -1] ?? '';
    const number = (column: string): number => {
      const value = Number(cell(column));
      if (cell(column) === '' || !Number.isFinite(value)) throw new Error(`row ${i + 2}: ${column} is not a number ("${cell(column)}")`);
      return value;
    };
    const term = /^term_(\d+)$/.exec(cell('term'));
    const status = cell('Class');
    if (!term || (status !== 'good' && status !== 'bad')) throw new Error(`row ${i + 2}: unexpected term or Class`);
    return {
      fundedAmount: number('funded_amnt'),
      termMonths: Number(term[1]),
      interestRate: number('int_rate'),
      subGrade: cell('sub_grade'),
      annualIncome: number('annual_inc'),
      inquiries6Months: number('inq_last_6mths'),
      delinquencies2Years: number('delinq_2yrs'),
      revolvingUtilization: number('revol_util'),
      good: status === 'good',
    };
  });
}

const isoTime = (ms: number): string => new Date(ms).toISOString().replace('.000Z', 'Z');

function addMonths(ms: number, months: number): number {
  const date = new Date(ms);
  date.setUTCMonth(date.getUTCMonth() + months);
  return date.getTime();
}

/** A uniform draw in [0, 1) for row `index` (a 32-bit integer hash: the same row, the same draw). */
function rowDraw(index: number): number {
  let h = Math.imul(index + 0x9e3779b9, 0x85ebca6b) >>> 0;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
  h = (h ^ (h >>> 16)) >>> 0;
  return h / 4_294_967_296;
}

/** The instalment a bad loan first missed: 1 to its term, evenly (docs/lending-club.md). */
export function missedMonthOf(index: number, termMonths: number): number {
  return 1 + Math.floor(rowDraw(index) * termMonths);
}

/** One loan as a recording line: `index` is its place in the file (its seen_at and id follow from it). */
export function lendingClubLine(loan: LendingClubLoan, index: number, seenMs: number): RecordingLine {
  const level = riskLevelOf(loan.subGrade);
  const amount = loan.fundedAmount.toFixed(2);
  const rate = Math.round(loan.interestRate * 100) / 10_000;
  const seenAt = isoTime(seenMs);
  const missed = missedMonthOf(index, loan.termMonths);
  return {
    v: RECORDING_VERSION,
    seen_at: seenAt,
    loan_request: {
      id: 1_000_001 + index,
      borrower: {
        id: 2_000_001 + index,
        credit_score: creditScoreRangeOf(loan.subGrade),
        svc_color: level,
        hard_inquiries: loan.inquiries6Months,
        deregatory_mark: loan.delinquencies2Years,
        credit_utilization: Math.round(loan.revolvingUtilization * 10) / 1000,
        annual_income: Math.round(loan.annualIncome),
        completed_loans_count: 0,
      },
      borrower_card_color: level,
      loan_amount: amount,
      loan_terms: loan.termMonths,
      // LendingClub's origination fee came out of the borrower's proceeds: the lender funded the amount.
      total_amount: amount,
      total_fees: '0.00',
      created: seenAt,
      max_interest_rate: MAX_RATE_BY_COLOR[level] ?? 0.36,
      borrower_data_aggs: null,
    },
    borrower_history: [],
    outcome: {
      status: loan.good ? 'completed' : 'default',
      funded_rate: rate,
      best_competing_rate: rate,
      // A bad loan paid its instalments before the one it missed (equal instalments: that share of the total due).
      ...(loan.good
        ? { repaid_fraction: 1 }
        : { repaid_fraction: Math.ceil(((missed - 1) / loan.termMonths) * 10_000) / 10_000, missed_month: missed }),
      resolved_at: isoTime(addMonths(seenMs, loan.termMonths)),
    },
  };
}

/** The loans as recording lines, seen_at spread evenly over `days` in file order. */
export function lendingClubRecording(loans: readonly LendingClubLoan[], options: MappingOptions = {}): RecordingLine[] {
  const chosen = loans.slice(0, options.rows ?? loans.length);
  const startMs = Date.parse(options.start ?? '2016-01-01T00:00:00Z');
  const spanMs = (options.days ?? 150) * DAY_MS;
  return chosen.map((loan, i) => lendingClubLine(loan, i, startMs + Math.floor((i * spanMs) / chosen.length / 1000) * 1000));
}
