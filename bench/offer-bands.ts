/**
 * Where a strategy's offers win and why it refuses, by band (figures printed, never asserted):
 *
 *   node --import tsx bench/offer-bands.ts [--strategy strategies/balanced.yaml] [--worlds shoppers,lending-club]
 *       [--seed 1] [--requests 3000] [--days 150] [--balance 100000]
 *
 * The diagnosis behind issue 35's figures (bench/shipped-defaults.ts): for each world (the same
 * recordings that bench writes, one seed at today's default level), the strategy's requests by band
 * (LendingClub: its grade; a sandbox world: the recorded credit score range), with the
 * population's realised default, the offers made and won, the funded loans' realised default, the
 * median offered rate less the recorded competing rate (negative: below it), the offer's break-even at
 * its priced default and the level-uncertainty floor less the same competing rate (which of the
 * three is above it says what kept the offer from winning: the level, the floor or the rate
 * expected profit chose) and the offers outbid counted by that (level: the break-even at the priced
 * default was already at or above the competing rate; floor: the floor was; choice: only the rate
 * chosen), the offered rate less the request's maximum, the median priced default; then the skips by the reason that refused (the last one not about data bought), a price refusal
 * marked when its break-even is the level-uncertainty floor's. No caps, one draw.
 */
import { parseArgs } from 'node:util';
import { runDraws, type BacktestDecision } from '../src/backtest/index.js';
import { labelOf } from '../src/backtest/realised-fate.js';
import { loadStrategyFile } from '../src/engine/index.js';
import { gradeOfCreditScoreRange } from './lending-club-mapping.js';
import { LENDING_CLUB, oneSeedWorlds } from './shipped-defaults-worlds.js';

const { values } = parseArgs({
  options: {
    strategy: { type: 'string', default: 'strategies/balanced.yaml' },
    worlds: { type: 'string', default: `shoppers,${LENDING_CLUB}` },
    seed: { type: 'string', default: '1' },
    requests: { type: 'string', default: '3000' },
    days: { type: 'string', default: '150' },
    balance: { type: 'string', default: '100000' },
  },
});

const median = (xs: number[]): number | null => {
  if (xs.length === 0) return null;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? null;
};
const pct = (x: number | null): string => (x === null || Number.isNaN(x) ? '-' : `${(x * 100).toFixed(1)} %`);
const points = (x: number | null): string => (x === null ? '-' : `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}`);

interface Band {
  requests: number;
  defaults: number;
  resolved: number;
  offers: number;
  won: number;
  fundedDefaults: number;
  fundedResolved: number;
  underCompeting: number[];
  /** The offer's break-even at the priced default, and the level-uncertainty floor, less the competing rate. */
  breakEvenUnderCompeting: number[];
  floorUnderCompeting: number[];
  /** Offers outbid, by what was already above the competing rate: the break-even, else the floor, else only the rate chosen. */
  outbidBy: { level: number; floor: number; choice: number };
  underMax: number[];
  pricedDefault: number[];
  skips: Map<string, number>;
}
const band = (): Band => ({
  requests: 0,
  defaults: 0,
  resolved: 0,
  offers: 0,
  won: 0,
  fundedDefaults: 0,
  fundedResolved: 0,
  underCompeting: [],
  breakEvenUnderCompeting: [],
  floorUnderCompeting: [],
  outbidBy: { level: 0, floor: 0, choice: 0 },
  underMax: [],
  pricedDefault: [],
  skips: new Map(),
});

/** A skip reason without its numbers, so the same rule counts once. */
const reasonKind = (reason: string | undefined): string => (reason ?? '(none)').replace(/-?\d+(\.\d+)?/g, '#').slice(0, 70);

/**
 * Whether a price refusal's break-even is the level-uncertainty floor's (`floor F at q...` in the
 * level reason): the price at the learned level's mean would have been under the ceiling or not,
 * but the floor is what refused.
 */
function floorRefused(reasons: readonly string[], refusal: string | undefined): boolean {
  const breakEven = /^price break-even ([\d.]+) >/.exec(refusal ?? '')?.[1];
  const floor = reasons.map((reason) => /floor ([\d.]+) at q/.exec(reason)?.[1]).find((found) => found !== undefined);
  return breakEven !== undefined && floor !== undefined && Math.abs(Number(breakEven) - Number(floor)) < 1e-4;
}

const strategy = await loadStrategyFile(values.strategy);
for await (const { spec, recording, lendingClub, startingBalanceCents } of oneSeedWorlds(values)) {
  const { first } = runDraws(recording, [strategy], { startingBalanceCents, recordDecisions: true }, [1]);
  const decisions = new Map<number, BacktestDecision>(first.decisions.map((d) => [d.loan_request_id, d]));
  const bands = new Map<string, Band>();
  for (const entry of recording.entries) {
    const { line } = entry;
    const range = line.loan_request.borrower.credit_score;
    const key = lendingClub ? (gradeOfCreditScoreRange(range) ?? '?') : String(range);
    const b = bands.get(key) ?? band();
    bands.set(key, b);
    b.requests += 1;
    const label = labelOf(line);
    if (label !== null) {
      b.resolved += 1;
      if (label === 0) b.defaults += 1;
    }
    const decision = decisions.get(line.loan_request.id);
    if (decision === undefined) continue;
    if (decision.action !== 'offer') {
      // The refusing reason: the last that is not a data purchase's (those are appended after it).
      const refusal = [...decision.reasons].reverse().find((reason) => !reason.startsWith('data '));
      const kind = `${reasonKind(refusal)}${floorRefused(decision.reasons, refusal) ? ' (the level-uncertainty floor)' : ''}`;
      b.skips.set(kind, (b.skips.get(kind) ?? 0) + 1);
      continue;
    }
    b.offers += 1;
    if (decision.probability !== null) b.pricedDefault.push(1 - decision.probability);
    const competing = line.outcome?.best_competing_rate;
    if (decision.rate !== null) {
      if (typeof competing === 'number') {
        b.underCompeting.push(decision.rate - competing);
        const breakEven = decision.reasons.map((reason) => /; break-even ([\d.]+)/.exec(reason)?.[1]).find((found) => found !== undefined);
        const floor = decision.reasons.map((reason) => /floor ([\d.]+) at q/.exec(reason)?.[1]).find((found) => found !== undefined);
        if (breakEven !== undefined) b.breakEvenUnderCompeting.push(Number(breakEven) - competing);
        if (floor !== undefined) b.floorUnderCompeting.push(Number(floor) - competing);
        if (decision.market === 'outbid') {
          if (breakEven !== undefined && Number(breakEven) >= competing) b.outbidBy.level += 1;
          else if (floor !== undefined && Number(floor) >= competing) b.outbidBy.floor += 1;
          else b.outbidBy.choice += 1;
        }
      }
      b.underMax.push(decision.rate - line.loan_request.max_interest_rate);
    }
    if (decision.market === 'won') {
      b.won += 1;
      if (label !== null) {
        b.fundedResolved += 1;
        if (label === 0) b.fundedDefaults += 1;
      }
    }
  }
  console.log(`\n${spec.name}: net ${pct(first.summary.netAnnualizedReturn)}, ${first.loans.length} loans`);
  console.log(
    'band | requests | population default | offers | won | funded default (n) | rate - competing (median) | break-even - competing | floor - competing | outbid: level / floor / choice | rate - max | priced default | most frequent refusal',
  );
  for (const [key, b] of [...bands.entries()].sort(([a], [c]) => a.localeCompare(c))) {
    console.log(
      [
        key,
        b.requests,
        pct(b.resolved === 0 ? null : b.defaults / b.resolved),
        b.offers,
        b.won,
        `${pct(b.fundedResolved === 0 ? null : b.fundedDefaults / b.fundedResolved)} (${b.fundedResolved})`,
        points(median(b.underCompeting)),
        points(median(b.breakEvenUnderCompeting)),
        points(median(b.floorUnderCompeting)),
        `${b.outbidBy.level} / ${b.outbidBy.floor} / ${b.outbidBy.choice}`,
        points(median(b.underMax)),
        pct(median(b.pricedDefault)),
        [...b.skips.entries()].sort((a, c) => c[1] - a[1]).map(([kind, n]) => `${n} ${kind}`)[0] ?? '-',
      ].join(' | '),
    );
  }
  const skips = new Map<string, number>();
  for (const b of bands.values()) for (const [kind, n] of b.skips) skips.set(kind, (skips.get(kind) ?? 0) + n);
  console.log('skips by last reason:');
  for (const [kind, n] of [...skips.entries()].sort((a, c) => c[1] - a[1]).slice(0, 12)) console.log(`  ${n} ${kind}`);
}
