/**
 * Where the money goes between a strategy and its moonshot (issue 35; figures printed, never asserted):
 *
 *   node --import tsx bench/price-discovery.ts [--strategy strategies/balanced.yaml] [--worlds shoppers,classic]
 *       [--seeds 1] [--requests 2000] [--days 150] [--balance 100000]
 *
 * The moonshot (bench/reference-strategies.ts) knows each borrower's reservation rate and the
 * competing offer, so on every request it knows W, the highest rate that wins. For each world
 * (today's default level) this prints, for the strategy's own offers: how many were won, how many
 * lost although W cleared the strategy's break-even (offered above a profitable winning price),
 * how many won below W and the expected profit left there (lent below what it could have
 * charged), how many a later rule priced (the level-uncertainty floor above the learned price)
 * and how many explored; the expected profit of its offers at the rates it chose against the best
 * single rule a lender without W could use (the same share of the way from break-even to the cap
 * for every offer) and against W itself. Then the moonshot's funded loans and realised profit by
 * what the strategy did with the same request (won it, lost it, skipped it on price, on
 * min_probability, on a filter), for the moonshot with the strategy's learned level (the SAME
 * probability: what is left is price and sight) and with the level held at the prior. No caps,
 * one draw; expected profits are under the strategy's own probability.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runDraws, type PreparedRecording } from '../src/backtest/index.js';
import { clairvoyantStrategy, recordedReservation } from '../src/backtest/clairvoyant-strategies.js';
import { recordedCompetition } from '../src/backtest/market-model.js';
import { highestWinningRate } from '../src/backtest/oracle-strategy.js';
import { loadStrategyFile, type CompiledStrategy, type Decision } from '../src/engine/index.js';
import { curvePoint, type PriceCurve } from '../src/engine/pricing/expected-profit.js';
import { MOONSHOT_HURDLES } from './reference-strategies.js';
import { worldRecording, worldSpecs } from './shipped-defaults-worlds.js';

const { values } = parseArgs({
  options: {
    strategy: { type: 'string', default: 'strategies/balanced.yaml' },
    worlds: { type: 'string', default: 'shoppers,classic' },
    seeds: { type: 'string', default: '1' },
    requests: { type: 'string', default: '2000' },
    days: { type: 'string', default: '150' },
    balance: { type: 'string', default: '100000' },
  },
});
const options = { startingBalanceCents: Math.round(Number(values.balance) * 100), recordDecisions: true };
const usd = (cents: number): string => (cents / 100).toFixed(0);
const pct = (x: number): string => `${(x * 100).toFixed(1)} %`;

/** The strategy, keeping the full decision (typed reasons, price curve) of each request it saw last. */
function watched(strategy: CompiledStrategy): { strategy: CompiledStrategy; seen: Map<number, Decision> } {
  const seen = new Map<number, Decision>();
  return {
    seen,
    strategy: {
      ...strategy,
      evaluate: (request, enrichment) => {
        const decision = strategy.evaluate(request, enrichment);
        seen.set(request.id, decision);
        return decision;
      },
    },
  };
}

/** What the strategy did with a request, for the moonshot's split. */
function actionOf(decision: Decision | undefined, won: boolean): string {
  if (decision === undefined) return 'never decided';
  if (decision.action === 'offer') return won ? 'offered, won' : 'offered, lost';
  const codes = decision.reasons.map((reason) => reason.code);
  if (codes.includes('price_level_uncertain')) return 'skipped: level floor above the cap';
  if (codes.some((code) => code.startsWith('price'))) return 'skipped: price';
  if (codes.includes('score_below_min')) return 'skipped: min_probability';
  return 'skipped: filter or data';
}

/** The highest winning rate of each request the recording can tell. */
function winningRates(recording: PreparedRecording): Map<number, number | null> {
  const rates = new Map<number, number | null>();
  for (const { line } of recording.entries) {
    const reservation = line.outcome?.reservation_rate;
    const competition = recordedCompetition(line.outcome, 'win');
    if (reservation === undefined || competition === 'lose') continue;
    rates.set(line.loan_request.id, highestWinningRate(reservation, line.loan_request.max_interest_rate, competition));
  }
  return rates;
}

interface PricedOffer {
  curve: PriceCurve;
  /** The highest rate that wins (null: none from 0.03). */
  w: number | null;
  rate: number;
  won: boolean;
  decision: Decision;
}

/** Expected profit won by offering `rateOf(offer)` on each offer (clamped to the searched range), and the wins. */
function ruleProfit(offers: readonly PricedOffer[], rateOf: (offer: PricedOffer) => number): string {
  let cents = 0;
  let wins = 0;
  for (const offer of offers) {
    const { curve, w } = offer;
    const rate = Math.max(curve.low, Math.min(curve.cap, rateOf(offer)));
    if (w === null || rate > w) continue;
    cents += Math.max(0, curvePoint(curve, rate).profitCents);
    wins += 1;
  }
  return `${usd(cents)} USD (${wins} won)`;
}

const base = await loadStrategyFile(values.strategy);
const own = base.params.target_return;
const dir = mkdtempSync(join(tmpdir(), 'lendbot-price-discovery-'));
try {
  const specs = worldSpecs({ worlds: values.worlds.split(','), seeds: values.seeds.split(',').map(Number), scales: [1], links: [] });
  for (const spec of specs) {
    const { recording } = await worldRecording(spec, dir, Number(values.requests), Number(values.days));
    const w = winningRates(recording);
    const { strategy, seen } = watched(base);
    const { first } = runDraws(recording, [strategy], options, [1]);
    const won = new Set(first.loans.map((loan) => loan.loanRequestId));
    const offers: PricedOffer[] = [];
    for (const decision of first.decisions) {
      const full = seen.get(decision.loan_request_id);
      if (decision.action !== 'offer' || full?.priceCurve === undefined || full.rate === undefined) continue;
      if (!w.has(decision.loan_request_id)) continue;
      offers.push({
        curve: full.priceCurve,
        w: w.get(decision.loan_request_id) ?? null,
        rate: full.rate,
        won: decision.market === 'won',
        decision: full,
      });
    }
    let lostProfitable = 0;
    let wonBelow = 0;
    let leftCents = 0;
    let floored = 0;
    let explored = 0;
    for (const { curve, w: winning, rate, won: offerWon, decision } of offers) {
      if (winning !== null && !offerWon && winning >= curve.low && curvePoint(curve, winning).profitCents > 0) lostProfitable += 1;
      if (winning !== null && offerWon && rate < winning) {
        wonBelow += 1;
        leftCents += curvePoint(curve, Math.min(winning, curve.maxInterestRate)).profitCents - curvePoint(curve, rate).profitCents;
      }
      if (
        decision.reasons.some(
          (reason) =>
            reason.code === 'price_level_uncertain' && reason.mode === 'cost_plus_floor' && Number(reason.floor) > Number(reason.ep),
        )
      )
        floored += 1;
      if (curve.learning?.exploration !== undefined) explored += 1;
    }
    const n = offers.length;
    console.log(`\n${spec.name}: ${base.name} ${pct(first.summary.netAnnualizedReturn)} (${first.loans.length} loans)`);
    console.log(
      `  offers ${n}: won ${offers.filter((o) => o.won).length}; lost above a profitable winning price ${lostProfitable} (${pct(lostProfitable / n)}); ` +
        `won below W ${wonBelow}, ${usd(leftCents)} USD expected profit left; priced by the level floor ${floored} (${pct(floored / n)}); explored ${explored}`,
    );
    const rules = [0.2, 0.4, 0.6, 0.8].map(
      (share) => `${share}: ${ruleProfit(offers, ({ curve }) => curve.low + share * (curve.cap - curve.low))}`,
    );
    console.log(
      `  expected profit on its offers: as offered ${ruleProfit(offers, ({ rate }) => rate)}; ` +
        `best fixed share of break-even..cap ${rules.join(', ')}; at W ${ruleProfit(offers, ({ w: winning }) => winning ?? 0)}`,
    );
    for (const feedsLevel of [true, false]) {
      let best: { hurdle: number; result: ReturnType<typeof runDraws>['first'] } | undefined;
      for (const hurdle of [...new Set([own ?? 0.03, ...MOONSHOT_HURDLES])]) {
        const moonshot = clairvoyantStrategy(
          base.withParams({ target_return: hurdle }),
          recording,
          { reservation: recordedReservation },
          'moonshot',
          { feedsLevel },
        );
        const result = runDraws(recording, [moonshot], options, [1]).first;
        if (best === undefined || result.summary.netAnnualizedReturn > best.result.summary.netAnnualizedReturn) best = { hurdle, result };
      }
      if (best === undefined) continue;
      const split = new Map<string, { loans: number; cents: number }>();
      for (const loan of best.result.loans) {
        const key = actionOf(seen.get(loan.loanRequestId), won.has(loan.loanRequestId));
        const entry = split.get(key) ?? { loans: 0, cents: 0 };
        entry.loans += 1;
        entry.cents += loan.profitCents;
        split.set(key, entry);
      }
      const ownProfit = first.loans.reduce((sum, loan) => sum + loan.profitCents, 0);
      console.log(
        `  moonshot, level ${feedsLevel ? 'learned' : 'prior'}, hurdle ${best.hurdle}: ${pct(best.result.summary.netAnnualizedReturn)} (${best.result.loans.length} loans); ` +
          `${base.name} ${usd(ownProfit)} USD realised on its ${first.loans.length}; the moonshot's by what ${base.name} did: ` +
          [...split.entries()]
            .sort((a, b) => b[1].cents - a[1].cents)
            .map(([key, { loans, cents }]) => `${key} ${loans} loans ${usd(cents)} USD`)
            .join('; '),
      );
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
