/**
 * The migration that turned every stored reason text into its value (src/store/migrations.ts,
 * the step "reason texts to values"), and the only code left that reads reason text.
 *
 * Before migration 14 the decisions and shadow decisions kept reasons only as their machine text
 * (reasonText); an agent's decision keeps the strategies' decision it replaced whole as JSON, and
 * a proposal's outcome kept its reasons as text. Readers used to read those texts back at run
 * time, with the patterns below. This step reads each of them back ONCE, into the columns and
 * fields readers now take values from, so no run-time code parses reason text any more.
 *
 * The patterns are frozen as they were when the step shipped: they match the texts every
 * version before it wrote, and a migration must give the same values on every file it ever
 * meets, so they are never edited (the texts written after the step are never read back). A
 * text that no pattern reads back to the same bytes becomes `other` and keeps its text: nothing
 * is dropped. Log lines are not rewritten (docs/store.md says how an old one reads).
 */
import type { Database } from 'better-sqlite3';
import { reasonText, type DecisionReason, type FilterReason } from '../domain/decision-reason.js';
import { guardReason as guard } from '../domain/decision-guard-reason.js';

type Build = (parts: string[]) => DecisionReason;

/** The i-th captured part ('' for an optional part that did not match). */
function at(parts: readonly string[], i: number): string {
  return parts[i] ?? '';
}

const balance =
  (at_: 'offer' | 'funding', equal: boolean): Build =>
  (p) =>
    guard({ guardCode: 'insufficient_balance', at: at_, balance: at(p, 0), reserved: at(p, 1), reserve: at(p, 2), total: at(p, 3), equal });

/** The figures both forms of a level-uncertainty reason start with, in the reason's key order. */
function levelHead(p: readonly string[]): { version: string; loans: string; loanMonths: string; default: string; sd: string } {
  return { version: at(p, 0), loans: at(p, 1), loanMonths: at(p, 2), default: at(p, 3), sd: at(p, 4) };
}

const FILTER_TESTS = ['<', '>', 'in', 'not in'] as const;

function filterFailed(feature: string, test: string, bound: string): FilterReason | DecisionReason {
  const known = FILTER_TESTS.find((one) => one === test);
  return known === undefined ? { code: 'other', text: '' } : { code: 'filter_failed', feature, test: known, bound };
}

// Order matters only where forms overlap (the first that reads back to the same text wins).
const FORMS: ReadonlyArray<readonly [RegExp, Build]> = [
  [/^filter (\w+) missing$/, (p) => ({ code: 'filter_failed', feature: at(p, 0), test: 'missing' })],
  [/^filter (\w+) (<|>|not in|in) (.+)$/, (p) => filterFailed(at(p, 0), at(p, 1), at(p, 2))],
  [/^crypto-backed requests are not allowed by risk\.allowed_risk_levels$/, () => ({ code: 'crypto_not_allowed' })],
  [/^score probability (\S+) < min_probability (\S+)$/, (p) => ({ code: 'score_below_min', probability: at(p, 0), min: at(p, 1) })],
  [/^score probability (\S+)$/, (p) => ({ code: 'score', probability: at(p, 0) })],
  [
    /^data budget (\S+) \+ (\S+) > (\S+) for (.+?)( \(monthly subscription\))?$/,
    (p) => ({ code: 'data_budget', spent: at(p, 0), cost: at(p, 1), budget: at(p, 2), what: at(p, 3), subscription: at(p, 4) !== '' }),
  ],
  [/^data still missing after buying; skipped$/, () => ({ code: 'data_still_missing' })],
  [/^data (\w+) not found$/, (p) => ({ code: 'data_not_found', what: at(p, 0) })],
  [
    /^data (\S+) unreadable after (\d+) tries: (\S+)$/,
    (p) => ({ code: 'data_unreadable', what: at(p, 0), tries: at(p, 1), errorCode: at(p, 2) }),
  ],
  [/^data (provider_[ab]) (\S+) unavailable$/, (p) => ({ code: 'data_provider_unavailable', slot: at(p, 0), provider: at(p, 1) })],
  [/^data (\S+) unavailable: ([\s\S]*)$/, (p) => ({ code: 'data_unavailable', what: at(p, 0), detail: at(p, 1) })],
  [
    /^data (provider_[ab]) (\S+) needed: probability (\S+) in \[(\S+), (\S+)\]$/,
    (p) => ({ code: 'data_provider_needed', slot: at(p, 0), provider: at(p, 1), probability: at(p, 2), min: at(p, 3), max: at(p, 4) }),
  ],
  [
    /^data (provider_[ab]) (\S+) not bought: probability (\S+) outside \[(\S+), (\S+)\]$/,
    (p) => ({ code: 'data_provider_not_bought', slot: at(p, 0), provider: at(p, 1), probability: at(p, 2), min: at(p, 3), max: at(p, 4) }),
  ],
  [/^data (\w+) needed \((.+)\)$/, (p) => ({ code: 'data_needed', what: at(p, 0), why: at(p, 1) })],
  [
    /^price (\w+) (\S+) < minimum rate (\S+)$/,
    (p) => ({ code: 'price_cap_below_minimum', cap: at(p, 0), rate: at(p, 1), minimum: at(p, 2) }),
  ],
  [
    /^price break-even (\S+) > (\w+) (\S+)$/,
    (p) => ({ code: 'price_break_even_above_cap', breakEven: at(p, 0), cap: at(p, 1), rate: at(p, 2) }),
  ],
  [
    /^price expected_profit <= 0 USD at every rate in \[(\S+), (\S+)\]; break-even (\S+)$/,
    (p) => ({ code: 'price_no_profit', low: at(p, 0), cap: at(p, 1), breakEven: at(p, 2) }),
  ],
  [
    /^price required_rate (\S+) > (\w+) (\S+)$/,
    (p) => ({ code: 'price_required_above_cap', required: at(p, 0), cap: at(p, 1), rate: at(p, 2) }),
  ],
  [/^price payment_to_income unknown \(annual_income missing\)$/, () => ({ code: 'price_income_unknown' })],
  [/^price payment_to_income (\S+) > (\S+)$/, (p) => ({ code: 'price_payment_to_income', share: at(p, 0), max: at(p, 1) })],
  [
    /^price max_rate offered (\S+) \((\w+)\)(?:, required_rate (\S+))?$/,
    (p) => ({ code: 'price_max_rate', rate: at(p, 0), cap: at(p, 1), ...(at(p, 2) === '' ? {} : { required: at(p, 2) }) }),
  ],
  [
    /^price expected_profit (\S+): P\(accept\) (\S+) × profit (\S+) USD = (\S+) USD; break-even (\S+?)(; market learned .+?)?(; P\(repay \| won\) .+)?$/,
    (p) => ({
      code: 'price_expected_profit',
      rate: at(p, 0),
      accept: at(p, 1),
      profit: at(p, 2),
      value: at(p, 3),
      breakEven: at(p, 4),
      ...(at(p, 5) === '' ? {} : { learned: at(p, 5) }),
      ...(at(p, 6) === '' ? {} : { curse: at(p, 6) }),
    }),
  ],
  [/^price required_rate (\S+), offered (\S+)$/, (p) => ({ code: 'price_required_rate', required: at(p, 0), rate: at(p, 1) })],
  [
    /^price cash_hurdle ([+-]\S+) to (\S+): free (\S+) USD less this loan (\S+) USD against (\S+) USD expected demand in (\S+) days$/,
    (p) => ({
      code: 'price_cash_hurdle',
      shift: at(p, 0),
      target: at(p, 1),
      free: at(p, 2),
      loan: at(p, 3),
      demand: at(p, 4),
      days: at(p, 5),
    }),
  ],
  [/^plugin asked for data without naming any$/, () => ({ code: 'plugin_no_needs' })],
  [/^plugin rate (\S+) outside \[(\S+), (\S+)\]$/, (p) => ({ code: 'plugin_rate_outside', rate: at(p, 0), min: at(p, 1), max: at(p, 2) })],
  [/^plugin action (.+) is not offer, skip or needs_data$/, (p) => ({ code: 'plugin_bad_action', action: at(p, 0) })],
  [
    /^guard funding total (\S+) cents is not a positive amount$/,
    (p) => guard({ guardCode: 'invalid_total', at: 'funding', totalCents: at(p, 0) }),
  ],
  [/^guard funding balance (\S+) - reserved (\S+) - reserve (\S+) < total (\S+)$/, balance('funding', false)],
  [/^guard funding balance (\S+) - reserved (\S+) - reserve (\S+) = total (\S+), must exceed$/, balance('funding', true)],
  [/^guard kill switch on \(config\)$/, () => guard({ guardCode: 'kill_switch' })],
  [/^guard kill switch on \(file (.+)\)$/, (p) => guard({ guardCode: 'kill_switch', file: at(p, 0) })],
  [/^guard paused: ([\s\S]+)$/, (p) => guard({ guardCode: 'paused', why: at(p, 0) })],
  [/^guard total_amount (\S+) is not a positive amount$/, (p) => guard({ guardCode: 'invalid_total', at: 'offer', total: at(p, 0) })],
  [
    /^guard rate (\S+) outside (\S+) to (\S+)$/,
    (p) => guard({ guardCode: 'rate_out_of_bounds', rate: at(p, 0), min: at(p, 1), max: at(p, 2) }),
  ],
  [/^guard rate (\S+) > max_interest_rate (\S+)$/, (p) => guard({ guardCode: 'rate_above_max', rate: at(p, 0), max: at(p, 1) })],
  [
    /^guard risk level (\S+) \((\w+)\) not allowed \(allowed (.*)\)$/,
    (p) => guard({ guardCode: 'risk_level_not_allowed', level: at(p, 0), name: at(p, 1), allowed: at(p, 2) }),
  ],
  [/^guard balance (\S+) - reserved (\S+) - reserve (\S+) < total (\S+)$/, balance('offer', false)],
  [/^guard balance (\S+) - reserved (\S+) - reserve (\S+) = total (\S+), must exceed$/, balance('offer', true)],
  [
    /^guard exposure (\S+) \+ total (\S+) > max (\S+)$/,
    (p) => guard({ guardCode: 'max_open_exposure', exposure: at(p, 0), total: at(p, 1), max: at(p, 2) }),
  ],
  [
    /^guard borrower (\S+) exposure (\S+) \+ total (\S+) > max (\S+)$/,
    (p) => guard({ guardCode: 'max_per_borrower', borrower: at(p, 0), exposure: at(p, 1), total: at(p, 2), max: at(p, 3) }),
  ],
  [
    /^guard risk level (\S+) exposure (\S+) \+ total (\S+) = (\S+)% of (\S+) > max (\S+)%$/,
    (p) =>
      guard({
        guardCode: 'max_share_by_risk_level',
        level: at(p, 0),
        exposure: at(p, 1),
        total: at(p, 2),
        share: at(p, 3),
        base: at(p, 4),
        max: at(p, 5),
      }),
  ],
  [/^guard offers today (\S+) >= max (\S+)$/, (p) => guard({ guardCode: 'max_offers_per_day', today: at(p, 0), max: at(p, 1) })],
  [
    /^guard amount today (\S+) \+ total (\S+) > max (\S+)$/,
    (p) => guard({ guardCode: 'max_amount_per_day', today: at(p, 0), total: at(p, 1), max: at(p, 2) }),
  ],
  [
    /^guard arm (\S+) committed (\S+) \+ total (\S+) > share (\S+)% of capital (\S+)$/,
    (p) => guard({ guardCode: 'arm_share', arm: at(p, 0), committed: at(p, 1), total: at(p, 2), share: at(p, 3), capital: at(p, 4) }),
  ],
  [
    /^price level uncertain v(\d+) \((\d+) loans, (\d+) loan-months\): default (\S+), sd (\S+); floor (\S+) at q(\S+) default (\S+), expected_profit (\S+)$/,
    (p) => ({
      code: 'price_level_uncertain',
      mode: 'cost_plus_floor',
      ...levelHead(p),
      floor: at(p, 5),
      quantile: at(p, 6),
      pessimistic: at(p, 7),
      ep: at(p, 8),
    }),
  ],
  [
    /^price level uncertain v(\d+) \((\d+) loans, (\d+) loan-months\): default (\S+), sd (\S+); blend (\S+) of expected_profit (\S+) over cost-plus (\S+)$/,
    (p) => ({
      code: 'price_level_uncertain',
      mode: 'blend',
      ...levelHead(p),
      weight: at(p, 5),
      ep: at(p, 6),
      costPlus: at(p, 7),
    }),
  ],
  [/^service refused: ([\s\S]*)$/, (p) => ({ code: 'service_refused', text: at(p, 0) })],
  [/^offer outcome unknown: ([\s\S]*)$/, (p) => ({ code: 'offer_outcome_unknown', text: at(p, 0) })],
  [
    /^(agent:\S+) offered (\S+) on \$(\S+) \(confirmed by (.+)\)$/,
    (p) => ({ code: 'agent_offered', agent: at(p, 0), rate: at(p, 1), amount: at(p, 2), confirmedVia: at(p, 3) }),
  ],
  [/^offer already recorded \((\w+)\); not sent again$/, (p) => ({ code: 'offer_already_recorded', state: at(p, 0) })],
];

/** The webhook prefilter's "balanced: filter loan_amount > 5000; careful: filter ..." (one refusal a strategy). */
function prefiltered(text: string): DecisionReason | undefined {
  if (!/^[^:;]+: filter /.test(text)) return undefined;
  const refusals = text.split('; ').map((part) => {
    const colon = part.indexOf(': ');
    return { strategy: part.slice(0, colon), reason: storedReason(part.slice(colon + 2)) };
  });
  return { code: 'prefiltered', refusals };
}

/**
 * A stored reason text as the typed reason it was written from; `other` when no form reads it back
 * exactly. Exported for the migration's tests only: no run-time code reads reason text
 * (test/layout/reason-text.test.ts).
 */
export function storedReason(text: string): DecisionReason {
  for (const [pattern, build] of FORMS) {
    const match = pattern.exec(text);
    if (match === null) continue;
    const reason = build(match.slice(1).map((part) => part ?? ''));
    // Only a reading that writes back the very same text counts (an overlap falls through).
    if (reasonText(reason) === text) return reason;
  }
  const dropped = prefiltered(text);
  if (dropped !== undefined && reasonText(dropped) === text) return dropped;
  return { code: 'other', text };
}

/** Every stored reason of a row, typed; a value that is not a list reads as no reasons. */
export function storedReasons(texts: unknown): DecisionReason[] {
  return Array.isArray(texts) ? texts.map((text) => storedReason(String(text))) : [];
}

/** Rows are read a page at a time by id (better-sqlite3 cannot write while a read is open), so memory stays bounded. */
const PAGE = 1_000;

/** Each row `select` pages through (ids above the last), given to `update`. */
function eachPage<Row extends { id: number }>(db: Database, select: string, update: (row: Row) => void): void {
  const page = db.prepare<[number, number], Row>(`${select} AND id > ? ORDER BY id LIMIT ?`);
  for (let last = 0; ;) {
    const rows = page.all(last, PAGE);
    for (const row of rows) update(row);
    const next = rows.at(-1);
    if (next === undefined) return;
    last = next.id;
  }
}

/** A JSON object column, or undefined when it holds something else. */
function objectOf(json: string): Record<string, unknown> | undefined {
  const value: unknown = JSON.parse(json);
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/**
 * Writes the values of every reason text still stored without them: decisions and shadow
 * decisions written before migration 14 (reason_values_json NULL), the replaced decision an
 * agent's decision keeps (previous_json without reasonValues) and proposals' outcomes (reasons
 * without reason_values). Runs inside the migration's transaction.
 */
export function reasonTextsToValues(db: Database): void {
  for (const table of ['decisions', 'shadow_decisions']) {
    const setValues = db.prepare<[string, number]>(`UPDATE ${table} SET reason_values_json = ? WHERE id = ?`);
    eachPage<{ id: number; reasons_json: string }>(db, `SELECT id, reasons_json FROM ${table} WHERE reason_values_json IS NULL`, (row) =>
      setValues.run(JSON.stringify(storedReasons(JSON.parse(row.reasons_json))), row.id),
    );
  }
  addValuesToObjects(db, 'decisions', 'previous_json', 'reasonValues');
  addValuesToObjects(db, 'offer_proposals', 'outcome_json', 'reason_values');
}

/** Adds `valuesKey`, the values of `reasons`, to each JSON object in `column` that has the texts but not the values. */
function addValuesToObjects(db: Database, table: string, column: string, valuesKey: string): void {
  const update = db.prepare<[string, number]>(`UPDATE ${table} SET ${column} = ? WHERE id = ?`);
  eachPage<{ id: number; json: string }>(
    db,
    `SELECT id, ${column} AS json FROM ${table} WHERE ${column} IS NOT NULL
       AND json_type(${column}, '$.reasons') = 'array' AND json_type(${column}, '$.${valuesKey}') IS NULL`,
    (row) => {
      const object = objectOf(row.json);
      if (object !== undefined) update.run(JSON.stringify({ ...object, [valuesKey]: storedReasons(object.reasons) }), row.id);
    },
  );
}
