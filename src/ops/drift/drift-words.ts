/**
 * The drift report in words (docs/backtesting.md, "Backtest against live"): one sentence for each
 * thing the backtest expected, over all months, saying whether live trading bore it out, then one
 * for each month whose acceptance or offers left the live interval. Plain words for a lender:
 * "acceptance: the backtest expected 11.8 %, live 4.5 % of 200 answered offers [2.4 % to 8.3 %]:
 * outside the interval, the model of the market has drifted".
 */
import { formatCents } from '../../domain/index.js';
import type { DriftMonth, DriftReport, ShareComparison } from './drift-report.js';

const pct = (share: number | null): string => (share === null ? '-' : `${(share * 100).toFixed(1)} %`);

function liveShare(c: ShareComparison, of: string): string {
  if (c.live.n === 0) return `no live ${of} (a dry run sends none): nothing to compare yet`;
  return `live ${pct(c.live.share)} of ${c.live.n} ${of}${c.live.low === null ? '' : ` [${pct(c.live.low)} to ${pct(c.live.high)}]`}`;
}

function verdict(c: ShareComparison, drifted: string): string {
  switch (c.verdict) {
    case 'outside':
      return `: outside the interval, ${drifted}`;
    case 'inside':
      return ': within the interval';
    case 'too little evidence':
      return c.live.n === 0 ? '' : ': too little evidence yet (under 10)';
    default:
      return '';
  }
}

function acceptance(month: DriftMonth, label: string): string {
  const c = month.acceptance;
  const paper = c.paper === null ? '' : `, the paper book modelled ${pct(c.paper)}`;
  return (
    `${label}acceptance: the backtest's market model expected ${pct(c.backtest)}${paper}; ${liveShare(c, 'answered offers')}` +
    verdict(c, 'the model of take-up has drifted from this market')
  );
}

function offers(month: DriftMonth, label: string): string {
  const c = month.offers;
  return (
    `${label}offers: the replay offered on ${pct(c.backtest)} of requests (${c.backtestOffers ?? 0} offers); ${liveShare(c, 'requests')} ` +
    `(${c.liveOffers} offers)` +
    verdict(c, 'live trading offers differently from the replay (caps, balance, a changed strategy or data)')
  );
}

function fills(month: DriftMonth): string {
  const { live, backtest, paper } = month.fills;
  const paperText = paper === null ? '' : `, the paper book ${paper.toFixed(1)}`;
  return `fills: the backtest expected ${backtest === null ? '-' : backtest.toFixed(1)} loans${paperText}; live ${live} funded`;
}

function defaults(month: DriftMonth): string {
  const loans = month.loans;
  if (loans === null || loans.loans === 0) return 'default: no live loan with a prediction yet';
  const reading =
    loans.reading === 'above expected'
      ? 'above what the predictions expect at this age: loans go bad faster than the model says'
      : loans.reading === 'too early'
        ? 'too early to judge (under a quarter of their terms has gone by)'
        : loans.reading === 'below expected'
          ? 'below what the predictions expect at this age'
          : 'in line with the predictions at this age';
  return (
    `default: predicted ${pct(loans.predicted)} over the term, ${pct(loans.expectedByNow)} by the loans' age ` +
    `(${(loans.ageMonths ?? 0).toFixed(1)} months); realised so far ${pct(loans.realised)} [${pct(loans.low)} to ${pct(loans.high)}] ` +
    `of ${loans.loans} loans: ${reading}`
  );
}

function returns(month: DriftMonth): string {
  const r = month.return;
  const live =
    r.liveSoFar === null
      ? 'no live loan yet'
      : `live so far ${pct(r.liveSoFar)} a year on USD ${formatCents(r.lentCents)} lent (net USD ${formatCents(r.netCents)}: interest and late fees less write-offs)`;
  const early = month.loans?.reading === 'too early' ? '; too early to compare' : '';
  return `return: the strategy expected ${pct(r.backtestExpected)} a year at its offered rates; ${live}${early}`;
}

/** The findings, all months first, then the months that drifted. */
export function driftFindings(report: Omit<DriftReport, 'findings'>): string[] {
  const lines = [acceptance(report.all, ''), offers(report.all, ''), fills(report.all), defaults(report.all), returns(report.all)];
  const early = report.hazard.find((row) => row.above);
  if (early !== undefined)
    lines.push(
      `by loan age: in month ${early.ageMonth} of the loans' lives ${pct(early.hazard)} of instalments due were missed ` +
        `[${pct(early.low)} to ${pct(early.high)}] against ${pct(early.expected)} expected: early evidence of more defaults than predicted`,
    );
  else if (report.hazard.length > 0)
    lines.push(`by loan age: no month of the loans' lives misses instalments above the predictions beyond noise`);
  for (const month of report.months) {
    if (month.acceptance.verdict === 'outside') lines.push(acceptance(month, `${month.month} `));
    if (month.offers.verdict === 'outside') lines.push(offers(month, `${month.month} `));
  }
  return lines;
}
