/**
 * The charts of the HTML report as data: what to draw, on which axes, in which units. The page's
 * script turns each spec into a Chart.js chart; a chart with nothing to draw is replaced by one
 * line of text (`empty`) instead of an empty frame.
 */
import type { BacktestResult, SeriesPoint } from '../backtest-result.js';
import { riskLevelLabel, runName } from './summary-lines.js';
import { DAY_MS } from '../../clock/time-constants.js';

/** How an axis's values read: cents shown as dollars, fractions shown as percent, or counts. */
type AxisUnit = 'cents' | 'fraction' | 'count';

export interface ChartSpec {
  id: string;
  title: string;
  kind: 'line' | 'bar';
  /** A date axis (x values and ticks are ms since the epoch) or named categories. */
  x: { title: string; dates: true; ticks: number[] } | { title: string; dates: false; categories: string[] };
  y: { title: string; unit: AxisUnit };
  /** One per run; line data are [ms, value] pairs, bar data one value per category. */
  datasets: Array<{ label: string; data: Array<[number, number]> | number[] }>;
  /** Set when there is nothing to draw: the sentence shown instead. */
  empty?: string;
}

const MAX_DATE_TICKS = 12;

/**
 * Date ticks that read well, at most about a dozen: days, weeks from the first day, or the first
 * of every 1, 2, 3, 6, 12 or 24 months (UTC). Chart.js's linear axis would put them anywhere.
 */
export function dateTicks(fromMs: number, toMs: number): number[] {
  if (!(toMs >= fromMs)) return [];
  const first = fromMs - (((fromMs % DAY_MS) + DAY_MS) % DAY_MS);
  const days = (toMs - first) / DAY_MS;
  const every = (stepMs: number): number[] => {
    const ticks: number[] = [];
    for (let t = first; t <= toMs; t += stepMs) ticks.push(t);
    return ticks;
  };
  if (days <= MAX_DATE_TICKS) return every(DAY_MS);
  if (days / 7 <= MAX_DATE_TICKS) return every(7 * DAY_MS);
  const start = new Date(first);
  const months = (new Date(toMs).getUTCFullYear() - start.getUTCFullYear()) * 12 + new Date(toMs).getUTCMonth() - start.getUTCMonth();
  const step = [1, 2, 3, 6, 12, 24].find((m) => months / m <= MAX_DATE_TICKS) ?? Math.ceil(months / MAX_DATE_TICKS);
  const ticks: number[] = [];
  // From the first month start inside the range, on months that are multiples of the step.
  for (
    let m = Math.ceil((start.getUTCFullYear() * 12 + start.getUTCMonth() + (start.getUTCDate() > 1 ? 1 : 0)) / step) * step;
    ;
    m += step
  ) {
    const t = Date.UTC(Math.floor(m / 12), m % 12, 1);
    if (t > toMs) break;
    ticks.push(t);
  }
  return ticks;
}

export interface EquityPoint {
  ms: number;
  /** Starting balance + net so far (the equity the summary's max drawdown is measured on). */
  equityCents: number;
  /** How far equity is below its highest value so far (0 or negative). */
  drawdownCents: number;
}

/** Equity and drawdown in cents, day by day, from the run's daily series. */
export function equityCurve(series: readonly SeriesPoint[], startingBalanceCents: number): EquityPoint[] {
  let peak = startingBalanceCents;
  return series.map((point) => {
    const equityCents = startingBalanceCents + point.netCents;
    peak = Math.max(peak, equityCents);
    return { ms: Date.parse(point.at), equityCents, drawdownCents: equityCents - peak };
  });
}

/** Per day, the share of the money (cash + principal lent) that was free cash: lent to no one, held by no offer. */
export function idleShareCurve(series: readonly SeriesPoint[]): Array<[number, number]> {
  return series.map((point) => {
    const cash = Math.max(0, point.idleCents);
    const free = cash - Math.min(cash, Math.max(0, point.reservedCents ?? 0));
    const money = cash + Math.max(0, point.deployedCents);
    return [Date.parse(point.at), money > 0 ? free / money : 0];
  });
}

/** Offered rates counted in `width`-wide buckets shared by every run (grouped bars, not overlaid). */
export function rateHistogram(runs: ReadonlyArray<readonly number[]>, width = 0.02): { labels: string[]; counts: number[][] } {
  const all = runs.flat();
  if (all.length === 0) return { labels: [], counts: runs.map(() => []) };
  const bucketOf = (rate: number): number => Math.floor(rate / width + 1e-9);
  let [low, high] = [Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY];
  for (const rate of all) [low, high] = [Math.min(low, bucketOf(rate)), Math.max(high, bucketOf(rate))];
  const labels: string[] = [];
  for (let b = low; b <= high; b += 1) labels.push(`${percentLabel(b * width)}–${percentLabel((b + 1) * width)}`);
  const counts = runs.map((rates) => {
    const row = labels.map(() => 0);
    for (const rate of rates) row[bucketOf(rate) - low] = (row[bucketOf(rate) - low] ?? 0) + 1;
    return row;
  });
  return { labels, counts };
}

const percentLabel = (share: number): string => `${Math.round(share * 1000) / 10}%`;

/** The date axis over `times` (ms): its title and ticks. */
function dateAxis(times: readonly number[]): ChartSpec['x'] {
  return { title: 'date (UTC)', dates: true, ticks: times.length === 0 ? [] : dateTicks(Math.min(...times), Math.max(...times)) };
}

function overTime(
  id: string,
  title: string,
  yTitle: string,
  results: readonly BacktestResult[],
  pick: (point: EquityPoint) => number,
  empty: string,
): ChartSpec {
  const curves = results.map((r) => equityCurve(r.series, r.settings.startingBalanceCents));
  const times = curves.flat().map((p) => p.ms);
  return {
    id,
    title,
    kind: 'line',
    x: dateAxis(times),
    y: { title: yTitle, unit: 'cents' },
    datasets: results.map((r, i) => ({ label: runName(r), data: (curves[i] ?? []).map((p): [number, number] => [p.ms, pick(p)]) })),
    ...(times.length === 0 ? { empty } : {}),
  };
}

function byRiskLevel(
  id: string,
  title: string,
  yTitle: string,
  results: readonly BacktestResult[],
  pick: 'defaultRate' | 'annualizedReturn',
): ChartSpec {
  // Only risk levels where some run funded a loan: elsewhere both figures are 0 by definition.
  const levels = [...new Set(results.flatMap((r) => r.segments.risk_level.filter((row) => row.funded > 0).map((row) => row.key)))];
  levels.sort((a, b) => Number(a) - Number(b) || a.localeCompare(b));
  return {
    id,
    title,
    kind: 'bar',
    x: { title: 'risk level', dates: false, categories: levels.map(riskLevelLabel) },
    y: { title: yTitle, unit: 'fraction' },
    datasets: results.map((r) => ({
      label: runName(r),
      data: levels.map((key) => r.segments.risk_level.find((row) => row.key === key)?.[pick] ?? 0),
    })),
    ...(levels.length === 0 ? { empty: `${title}: no loan was funded, so there is nothing to show.` } : {}),
  };
}

function idleCashChart(results: readonly BacktestResult[]): ChartSpec {
  const curves = results.map((r) => idleShareCurve(r.series));
  const times = curves.flat().map(([ms]) => ms);
  return {
    id: 'idle-cash',
    title: 'Idle cash: share of the money lent to no one and held by no offer',
    kind: 'line',
    x: dateAxis(times),
    y: { title: 'idle cash (%)', unit: 'fraction' },
    datasets: results.map((r, i) => ({ label: runName(r), data: curves[i] ?? [] })),
    ...(times.length === 0 ? { empty: 'Idle cash: the recording has no requests.' } : {}),
  };
}

/** Every chart of the report, in page order. */
export function reportCharts(results: readonly BacktestResult[]): ChartSpec[] {
  const rates = rateHistogram(results.map((r) => r.offeredRates));
  return [
    overTime(
      'equity',
      'Equity: starting balance + net so far',
      'equity (USD)',
      results,
      (p) => p.equityCents,
      'Equity: the recording has no requests.',
    ),
    overTime(
      'drawdown',
      'Drawdown: dollars below the highest equity so far',
      'drawdown (USD)',
      results,
      (p) => p.drawdownCents,
      'Drawdown: the recording has no requests.',
    ),
    idleCashChart(results),
    byRiskLevel('default-rate-by-risk', 'Default rate by risk level (defaults / funded loans)', 'default rate (%)', results, 'defaultRate'),
    byRiskLevel(
      'return-by-risk',
      'Annualized return on the money lent, by risk level',
      'annualized return (%)',
      results,
      'annualizedReturn',
    ),
    {
      id: 'offered-rates',
      title: 'Offered rates (offers that passed the guard)',
      kind: 'bar',
      x: { title: 'offered rate (% a year)', dates: false, categories: rates.labels },
      y: { title: 'offers (count)', unit: 'count' },
      datasets: results.map((r, i) => ({ label: runName(r), data: rates.counts[i] ?? [] })),
      ...(rates.labels.length === 0 ? { empty: 'Offered rates: no offer passed the guard, so there is no distribution to show.' } : {}),
    },
  ];
}
