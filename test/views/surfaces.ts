/**
 * Reading one store through every surface a lender looks at, each the way that surface is read
 * from outside: the CLI's JSON, the operator API over HTTP with a token, the dashboard as
 * chromium shows it, the agent connector through the official MCP SDK client, /metrics text.
 * Each reader returns the figures it shows, under the names of `Figures`; a figure a surface does
 * not show is left out, and the test compares every figure a surface returned with the store's.
 * Adding a figure is one more field of `Figures`, one line in the
 * store's truth, and one line in each reader that shows it.
 */
import type { Page } from 'playwright-core';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { expect } from 'vitest';
import { callTool } from '../operator/operator-harness.js';

/** What a surface says about the lender's offers and money. */
export interface Figures {
  /** Each offer's state, by loan request id. */
  states: Record<number, string>;
  /** The loan requests whose offers the surface shows as holding money back, ascending. */
  reserving: number[];
  /** How many offers are in each state (states with none left out). */
  counts: Record<string, number>;
  /** The same for the offers made in the last 30 days of the run's clock: what status, get_status and /metrics count. */
  recentCounts: Record<string, number>;
  balanceCents: number;
  reservedCents: number;
  freeCents: number;
  /** Equity (cash + outstanding principal - expected loss on late loans) and its parts (equity-now.ts). */
  equityCents: number;
  cashCents: number;
  outstandingCents: number;
  expectedLossCents: number;
  /** Realised interest so far. */
  interestCents: number;
  /** The default-adjusted forecast: next calendar month's expected inflow and the 12 months' total. */
  nextMonthCents: number;
  twelveMonthsCents: number;
  /** The share of the money idle now (free over free, reserved and lent out), exact. */
  idleShare: number;
  /** The same share in whole percent, as the dashboard and the chat texts show it. */
  idlePercent: number;
  /** Calibration by "strategy/month made" (and "strategy/all"): loans with a prediction. */
  vintageLoans: Record<string, number>;
  /** The same rows' predicted and realised default, in percent with one decimal ("0.7"). */
  vintagePredicted: Record<string, string>;
  vintageRealised: Record<string, string>;
  /** The same rows' reading ("too early", "in line", ...). */
  vintageReading: Record<string, string>;
  /** Instalments by month of loan age: "due late missed". */
  instalments: Record<string, string>;
}

export type Shown = Partial<Figures>;

/** A share in percent with one decimal, as every calibration figure is compared. */
export const pct1 = (share: number | null | undefined): string => (typeof share === 'number' ? (share * 100).toFixed(1) : '-');

interface VintageShown {
  vintage: string;
  loans: number;
  predicted: number | null;
  realised: number | null;
  reading?: string;
}

/** Calibration figures from each strategy's rows and the instalment table (every surface's readers end here). */
export function calibrationFigures(
  strategies: ReadonlyArray<{ strategy: string; rows: readonly VintageShown[] }>,
  instalments: ReadonlyArray<{ ageMonth: number; due: number; late: number; missed: number }>,
  withReading = true,
): Shown {
  const loans: Record<string, number> = {};
  const predicted: Record<string, string> = {};
  const realised: Record<string, string> = {};
  const reading: Record<string, string> = {};
  for (const { strategy, rows } of strategies)
    for (const row of rows) {
      const key = `${strategy}/${row.vintage}`;
      loans[key] = row.loans;
      predicted[key] = pct1(row.predicted);
      realised[key] = pct1(row.realised);
      reading[key] = row.reading ?? '';
    }
  const table = Object.fromEntries(instalments.map((row) => [String(row.ageMonth), `${row.due} ${row.late} ${row.missed}`]));
  return {
    vintageLoans: loans,
    vintagePredicted: predicted,
    vintageRealised: realised,
    ...(withReading ? { vintageReading: reading } : {}),
    instalments: table,
  };
}

type VintageJson = { vintage: string; loans: number; predicted_default: number | null; realised_default: number | null; reading: string };

/** The snake_case calibration object (status --json's `calibration`, GET /api/calibration). */
export function fromCalibrationJson(json: {
  strategies: Array<{ strategy: string; pooled: VintageJson; vintages: VintageJson[] }>;
  hazard: Array<{ age_month: number; due: number; late: number; missed: number }>;
}): Shown {
  const row = (r: VintageJson): VintageShown => ({
    vintage: r.vintage,
    loans: r.loans,
    predicted: r.predicted_default,
    realised: r.realised_default,
    reading: r.reading,
  });
  return calibrationFigures(
    json.strategies.map((s) => ({ strategy: s.strategy, rows: [...s.vintages, s.pooled].map(row) })),
    json.hazard.map((h) => ({ ageMonth: h.age_month, due: h.due, late: h.late, missed: h.missed })),
  );
}

/** The status report's calibration block (camelCase: get_status, and the store's truth). */
export function fromCalibrationReport(calibration: {
  strategies: ReadonlyArray<{ strategy: string; pooled: VintageShown; vintages: readonly VintageShown[] }>;
  hazard: ReadonlyArray<{ ageMonth: number; due: number; late: number; missed: number }>;
}): Shown {
  return calibrationFigures(
    calibration.strategies.map((s) => ({ strategy: s.strategy, rows: [...s.vintages, s.pooled] })),
    calibration.hazard,
  );
}

/** Offers by state, states with none left out, in name order (so two counts compare equal). */
export function countStates(states: Record<number, string>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const state of Object.values(states).sort()) counts[state] = (counts[state] ?? 0) + 1;
  return counts;
}

function nonZero(counts: Record<string, number>): Record<string, number> {
  return Object.fromEntries(
    Object.entries(counts)
      .filter(([, n]) => n > 0)
      .sort(([a], [b]) => a.localeCompare(b)),
  );
}

const ascending = (ids: number[]): number[] => [...ids].sort((a, b) => a - b);

/** "$1,234.56" or "-$12.00" as cents. */
export function centsOfDollars(text: string): number {
  const match = /^(-?)\$([\d,]+)\.(\d\d)$/.exec(text.trim());
  if (match === null) throw new Error(`not a dollar amount: "${text}"`);
  const cents = Number(match[2]?.replaceAll(',', '')) * 100 + Number(match[3]);
  return match[1] === '-' ? -cents : cents;
}

interface OfferShown {
  loan_request_id?: number;
  loanRequestId?: number;
  state: string;
  reserving?: boolean;
}

function fromOffers(offers: readonly OfferShown[]): Shown {
  const states: Record<number, string> = {};
  const reserving: number[] = [];
  for (const offer of offers) {
    const id = offer.loan_request_id ?? offer.loanRequestId;
    if (id === undefined) throw new Error(`an offer without its request: ${JSON.stringify(offer)}`);
    states[id] = offer.state;
    if (offer.reserving === true) reserving.push(id);
  }
  return { states, reserving: ascending(reserving), counts: countStates(states) };
}

/** Equity and its parts from a snake_case equity object (equityJson: status --json, get_balance). */
function fromEquityJson(equity: Record<string, number | undefined> | null): Shown {
  if (equity === null) return { equityCents: Number.NaN };
  // A figure the object leaves out shows as NaN (never equal to the store's).
  const cents = (key: string): number => equity[key] ?? Number.NaN;
  return {
    equityCents: cents('equity_cents'),
    cashCents: cents('cash_cents'),
    outstandingCents: cents('outstanding_cents'),
    expectedLossCents: cents('expected_loss_cents'),
    interestCents: cents('interest_cents'),
  };
}

/** Equity and its parts from the camelCase figures (the status report: overview, get_status; /api/returns totals). */
function fromEquityFigures(
  equity: Pick<Figures, 'equityCents' | 'cashCents' | 'outstandingCents' | 'expectedLossCents' | 'interestCents'> | null,
): Shown {
  // A surface that shows no equity where the lender looks for it shows NaN: never equal to the store's.
  if (equity === null) return { equityCents: Number.NaN };
  const { equityCents, cashCents, outstandingCents, expectedLossCents, interestCents } = equity;
  return { equityCents, cashCents, outstandingCents, expectedLossCents, interestCents };
}

/** The forecast's two totals and the idle share, from the snake_case cash-flow objects (status --json, /api/cash-flow). */
function fromCashFlowJson(nextMonth: { expected_cents: number }, twelveMonthsCents: number, idleShare: number): Shown {
  return { nextMonthCents: nextMonth.expected_cents, twelveMonthsCents, idleShare, idlePercent: Math.round(idleShare * 100) };
}

/** The status report's cash flow (overview, get_status): camelCase. */
function fromCashFlowStatus(cashFlow: {
  nextMonth: { expectedCents: number };
  twelveMonths: { expectedCents: number };
  idle: { share: number };
}): Shown {
  const share = cashFlow.idle.share;
  return {
    nextMonthCents: cashFlow.nextMonth.expectedCents,
    twelveMonthsCents: cashFlow.twelveMonths.expectedCents,
    idleShare: share,
    idlePercent: Math.round(share * 100),
  };
}

type EquityStatus = Parameters<typeof fromEquityFigures>[0];
type CashFlowShown = Parameters<typeof fromCashFlowStatus>[0];

/** `lendbot status --json`. */
export function fromStatusJson(json: Record<string, unknown>): Shown {
  const cashFlow = json.cash_flow as {
    next_month: { expected_cents: number };
    twelve_months: { expected_cents: number };
    idle: { share: number };
  };
  return {
    recentCounts: nonZero(json.offers_by_state as Record<string, number>),
    balanceCents: json.balance_cents as number,
    reservedCents: json.reserved_cents as number,
    freeCents: json.free_cents as number,
    ...fromEquityJson(json.equity as Record<string, number> | null),
    ...fromCashFlowJson(cashFlow.next_month, cashFlow.twelve_months.expected_cents, cashFlow.idle.share),
    ...fromCalibrationJson(json.calibration as Parameters<typeof fromCalibrationJson>[0]),
  };
}

/** GET /api/calibration (the dashboard's calibration panel reads it). */
export async function fromApiCalibration(base: string, token: string): Promise<Shown> {
  const response = await fetch(new URL('/api/calibration', base), { headers: { authorization: `Bearer ${token}` } });
  if (!response.ok) throw new Error(`GET /api/calibration: ${response.status}`);
  return fromCalibrationJson((await response.json()) as Parameters<typeof fromCalibrationJson>[0]);
}

/** The dashboard's calibration detail as chromium shows it: the strategy table and the instalments by month of age. */
export async function fromDashboardCalibration(page: Page): Promise<Shown> {
  const cells = (testId: string): Promise<string[][]> =>
    page
      .getByTestId(testId)
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')));
  const percentOf = (text: string): number | null => (text === '–' ? null : Number(text.replace(' %', '')) / 100);
  const strategies = new Map<string, VintageShown[]>();
  for (const [strategy = '', month = '', loans = '', , predicted = '', , realised = '', , reading = ''] of await cells(
    'calibration-strategies',
  )) {
    const row = {
      vintage: month === 'All months shown' ? 'all' : month,
      loans: Number(loans),
      predicted: percentOf(predicted),
      realised: percentOf(realised),
      reading,
    };
    strategies.set(strategy, [...(strategies.get(strategy) ?? []), row]);
  }
  const instalments = (await cells('calibration-hazard')).map(([age = '', due = '', late = '', missed = '']) => ({
    ageMonth: Number(age.replace('month ', '')),
    due: Number(due),
    late: Number(late),
    missed: Number(missed),
  }));
  return calibrationFigures(
    [...strategies].map(([strategy, rows]) => ({ strategy, rows })),
    instalments,
  );
}

/** `lendbot decisions --json` lines (the outcome of each offer decision) and each `decisions --id N --json`'s offer. */
export function fromDecisions(lines: ReadonlyArray<Record<string, unknown>>, offersById: ReadonlyArray<Record<string, unknown>>): Shown[] {
  const outcomes: Record<number, string> = {};
  // Past 'funded' the outcome names the loan's fate (repaid, late, defaulted): its offer was funded.
  const funded = new Set(['repaid', 'late', 'defaulted']);
  for (const line of lines) {
    if (line.action !== 'offer') continue;
    const outcome = line.outcome as string;
    outcomes[line.loan_request_id as number] = funded.has(outcome) ? 'funded' : outcome;
  }
  const offers = offersById.map((one) => ({ ...(one.offer as OfferShown), loan_request_id: one.loan_request_id as number }));
  return [{ states: outcomes, counts: countStates(outcomes) }, fromOffers(offers)];
}

/** The operator API: GET /api/overview and GET /api/offers, with a bearer token. */
export async function fromApi(base: string, token: string): Promise<Shown> {
  const get = async <T>(path: string): Promise<T> => {
    const response = await fetch(new URL(path, base), { headers: { authorization: `Bearer ${token}` } });
    if (!response.ok) throw new Error(`GET ${path}: ${response.status}`);
    return (await response.json()) as T;
  };
  const overview = await get<{
    status: { balanceCents: number; reservedCents: number; freeCents: number; equity: EquityStatus; cashFlow: CashFlowShown };
  }>('/api/overview');
  const { offers } = await get<{ offers: OfferShown[] }>('/api/offers?limit=1000');
  const { balanceCents, reservedCents, freeCents } = overview.status;
  return {
    ...fromOffers(offers),
    balanceCents,
    reservedCents,
    freeCents,
    ...fromEquityFigures(overview.status.equity),
    ...fromCashFlowStatus(overview.status.cashFlow),
  };
}

/** GET /api/returns: its totals (the last point of the equity, interest and losses series). */
export async function fromApiReturns(base: string, token: string): Promise<Shown> {
  const response = await fetch(new URL('/api/returns', base), { headers: { authorization: `Bearer ${token}` } });
  const { totals, equity } = (await response.json()) as { totals: EquityStatus; equity: Array<{ equityCents: number }> };
  // The chart's last point is the same figure as the totals.
  expect(equity.at(-1)?.equityCents, '/api/returns: the equity series ends at the total').toBe(totals?.equityCents);
  return fromEquityFigures(totals);
}

/** GET /api/cash-flow: the forecast's next month and 12 months, and idle cash now. */
export async function fromApiCashFlow(base: string, token: string): Promise<Shown> {
  const response = await fetch(new URL('/api/cash-flow', base), { headers: { authorization: `Bearer ${token}` } });
  const { forecast, idle } = (await response.json()) as {
    forecast: { next_month: { expected_cents: number }; totals: { expected_cents: number } };
    idle: { share: number };
  };
  return fromCashFlowJson(forecast.next_month, forecast.totals.expected_cents, idle.share);
}

/** The operator API's decisions (GET /api/decisions): the state of the offer made on each request. */
export async function fromApiDecisions(base: string, token: string): Promise<Shown> {
  const response = await fetch(new URL('/api/decisions?limit=500&action=offer', base), { headers: { authorization: `Bearer ${token}` } });
  const { decisions } = (await response.json()) as { decisions: Array<{ loan_request_id: number; offer_state: string | null }> };
  const states = Object.fromEntries(decisions.map((decision) => [decision.loan_request_id, decision.offer_state ?? 'none']));
  return { states, counts: countStates(states) };
}

/** /metrics: the money gauges (balance, reserved, free, equity, next month's inflow, idle share) and lendbot_offers{state}. */
export async function fromMetrics(base: string, token: string): Promise<Shown> {
  const response = await fetch(new URL('/metrics', base), { headers: { authorization: `Bearer ${token}` } });
  const text = await response.text();
  const gauge = (name: string): number => {
    const match = new RegExp(`^${name} (-?[\\d.e+]+)$`, 'm').exec(text);
    if (match === null) throw new Error(`${name} is not in /metrics`);
    return Number(match[1]);
  };
  const counts: Record<string, number> = {};
  for (const match of text.matchAll(/^lendbot_offers\{state="(\w+)"\} (\d+)$/gm)) counts[match[1] ?? ''] = Number(match[2]);
  const labelled = (name: string): Array<[string, number]> =>
    [...text.matchAll(new RegExp(`^${name}\\{strategy="([^"]+)",vintage="([^"]+)"\\} (-?[\\d.e+-]+)$`, 'gm'))].map((m) => [
      `${m[1]}/${m[2]}`,
      Number(m[3]),
    ]);
  const byAge = (name: string): Record<string, number> =>
    Object.fromEntries([...text.matchAll(new RegExp(`^${name}\\{age_month="(\\d+)"\\} (\\d+)$`, 'gm'))].map((m) => [m[1], Number(m[2])]));
  const [due, late, missed] = ['lendbot_instalments_due', 'lendbot_instalments_late', 'lendbot_instalments_missed'].map(byAge);
  const instalments = Object.keys(due ?? {}).map((age) => ({
    ageMonth: Number(age),
    due: due?.[age] ?? Number.NaN,
    late: late?.[age] ?? Number.NaN,
    missed: missed?.[age] ?? Number.NaN,
  }));
  const strategies = new Map<string, VintageShown[]>();
  const predicted = Object.fromEntries(labelled('lendbot_vintage_default_predicted'));
  const realised = Object.fromEntries(labelled('lendbot_vintage_default_realised'));
  for (const [key, loans] of labelled('lendbot_vintage_loans')) {
    const [strategy = '', vintage = ''] = key.split('/');
    strategies.set(strategy, [
      ...(strategies.get(strategy) ?? []),
      { vintage, loans, predicted: predicted[key] ?? null, realised: realised[key] ?? null },
    ]);
  }
  return {
    ...calibrationFigures(
      [...strategies].map(([strategy, rows]) => ({ strategy, rows })),
      instalments,
      false,
    ),
    recentCounts: nonZero(counts),
    balanceCents: gauge('lendbot_balance_cents'),
    reservedCents: gauge('lendbot_reserved_cents'),
    freeCents: gauge('lendbot_free_cash_cents'),
    equityCents: gauge('lendbot_equity_cents'),
    nextMonthCents: gauge('lendbot_expected_inflow_next_month_cents'),
    idleShare: gauge('lendbot_idle_share'),
  };
}

/** The agent connector: list_offers and get_balance through the SDK client. */
export async function fromConnector(client: Client): Promise<Shown> {
  const listed = await callTool(client, 'list_offers', { limit: 500 });
  const balance = await callTool(client, 'get_balance');
  const offers = listed.data.offers as OfferShown[];
  return {
    ...fromOffers(offers),
    balanceCents: balance.data.balance_cents as number,
    reservedCents: balance.data.reserved_cents as number,
    freeCents: balance.data.free_cents as number,
    ...fromEquityJson(balance.data.equity as Record<string, number> | null),
  };
}

/** The agent connector's get_cash_flow_forecast (the same object as GET /api/cash-flow). */
export async function fromConnectorCashFlow(client: Client): Promise<Shown> {
  const { data } = await callTool(client, 'get_cash_flow_forecast');
  const forecast = data.forecast as { next_month: { expected_cents: number }; totals: { expected_cents: number } };
  return fromCashFlowJson(forecast.next_month, forecast.totals.expected_cents, (data.idle as { share: number }).share);
}

/** The agent connector's get_status (the status report, as `lendbot status`). */
export async function fromConnectorStatus(client: Client): Promise<Shown> {
  const { data } = await callTool(client, 'get_status');
  return {
    recentCounts: nonZero(data.offers as Record<string, number>),
    balanceCents: data.balanceCents as number,
    reservedCents: data.reservedCents as number,
    freeCents: data.freeCents as number,
    ...fromEquityFigures(data.equity as EquityStatus),
    ...fromCashFlowStatus(data.cashFlow as CashFlowShown),
    ...fromCalibrationReport(data.calibration as Parameters<typeof fromCalibrationReport>[0]),
  };
}

/** The dashboard as chromium shows it: the balance card's figures and the offers table's rows. */
export async function fromDashboard(page: Page): Promise<Shown> {
  const text = async (testId: string): Promise<string> => (await page.getByTestId(testId).textContent()) ?? '';
  const rows = await page.locator('[data-testid="offers-table"] tbody tr').evaluateAll((trs) =>
    trs.map((tr) => {
      const cells = [...tr.querySelectorAll('td')];
      const pills = [...(cells[3]?.querySelectorAll('.pill') ?? [])].map((pill) => pill.textContent ?? '');
      return { request: cells[2]?.textContent ?? '', state: pills[0] ?? '', reserving: pills.includes('reserving') };
    }),
  );
  const offers = rows.map((row) => ({ loan_request_id: Number(row.request.replace('#', '')), state: row.state, reserving: row.reserving }));
  return {
    ...fromOffers(offers),
    balanceCents: centsOfDollars(await text('balance')),
    reservedCents: centsOfDollars(await text('reserved')),
    freeCents: centsOfDollars(await text('free-cash')),
    equityCents: centsOfDollars(await text('equity')),
  };
}

/** The first dollar amount after `label` in a sentence ("equity $1.00 (cash $2.00 ..."), as cents. */
function dollarsAfter(text: string, label: string): number {
  const at = text.indexOf(label);
  const match = at < 0 ? null : /-?\$[\d,]+\.\d\d/.exec(text.slice(at + label.length));
  if (match === null) throw new Error(`no "${label} $..." in "${text}"`);
  return centsOfDollars(match[0]);
}

/** The dashboard's returns section (its totals line) and "Money coming back" (its summary and idle line). */
export async function fromDashboardMoney(page: Page): Promise<Shown> {
  const text = async (testId: string): Promise<string> => (await page.getByTestId(testId).textContent()) ?? '';
  const returns = await text('returns-totals');
  const forecast = await text('forecast-summary');
  const idle = /^(\d+) %/.exec(await text('idle-now'));
  return {
    equityCents: dollarsAfter(returns, 'equity '),
    cashCents: dollarsAfter(returns, 'cash '),
    outstandingCents: dollarsAfter(returns, 'loans out '),
    expectedLossCents: dollarsAfter(returns, 'expected losses '),
    interestCents: dollarsAfter(returns, 'interest '),
    nextMonthCents: dollarsAfter(forecast, ': '),
    twelveMonthsCents: dollarsAfter(forecast, 'next 12 months '),
    idlePercent: idle === null ? Number.NaN : Number(idle[1]),
  };
}

/** "1234.56" or "-12.00" (the status text's amounts) as cents. */
function centsOfPlain(text: string): number {
  if (!/^-?\d+\.\d\d$/.test(text)) throw new Error(`not an amount: "${text}"`);
  return Math.round(Number(text) * 100);
}

/** Telegram's /status: the lines of `lendbot status` in the chat (balance, equity, expected back, idle cash). */
export function fromStatusText(text: string): Shown {
  const line = (label: string): string => {
    const found = text.split('\n').find((one) => one.startsWith(`${label} `));
    if (found === undefined) throw new Error(`no "${label}" line in:\n${text}`);
    return found.slice(label.length).trim();
  };
  const amount = (value: string, pattern: RegExp): number => {
    const match = pattern.exec(value);
    if (match?.[1] === undefined) throw new Error(`${pattern} not in "${value}"`);
    return centsOfPlain(match[1]);
  };
  const equity = line('equity');
  const back = line('expected back');
  const idle = /^(\d+)%/.exec(line('idle cash'));
  return {
    balanceCents: amount(line('balance'), /^(-?[\d.]+)/),
    reservedCents: amount(line('reserved'), /^(-?[\d.]+)/),
    freeCents: amount(line('free cash'), /^(-?[\d.]+)/),
    equityCents: amount(equity, /^(-?[\d.]+)/),
    cashCents: amount(equity, /cash (-?[\d.]+)/),
    outstandingCents: amount(equity, /loans out (-?[\d.]+)/),
    expectedLossCents: amount(equity, /expected losses (-?[\d.]+)/),
    interestCents: amount(equity, /interest (-?[\d.]+)/),
    nextMonthCents: amount(back, /^(-?[\d.]+) in /),
    twelveMonthsCents: amount(back, /, (-?[\d.]+) over 12 months/),
    idlePercent: idle === null ? Number.NaN : Number(idle[1]),
  };
}

/** The digest's figures (what the daily or weekly chat message says), over the whole run so far. */
export function fromDigest(figures: { interestCents: number; idleShare: number; nextMonthInflowCents: number }): Shown {
  return {
    interestCents: figures.interestCents,
    nextMonthCents: figures.nextMonthInflowCents,
    idleShare: figures.idleShare,
    idlePercent: Math.round(figures.idleShare * 100),
  };
}

/** The dashboard's decisions table as chromium shows it: the offer column of each offer decision. */
export async function fromDashboardDecisions(page: Page): Promise<Shown> {
  const rows = await page
    .locator('[data-testid="decision-row"][data-action="offer"]')
    .evaluateAll((trs) =>
      trs.map((tr) => ({ request: tr.getAttribute('data-request-id') ?? '', offer: tr.querySelector('td:last-child')?.textContent ?? '' })),
    );
  const states = Object.fromEntries(rows.map((row) => [Number(row.request), row.offer]));
  return { states, counts: countStates(states) };
}
