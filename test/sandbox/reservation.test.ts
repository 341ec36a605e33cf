/**
 * Every sandbox borrower has a reservation rate (src/sandbox/borrower-rules.ts): the highest rate
 * it accepts from anyone. The export writes it as `outcome.reservation_rate`, so a replay of an
 * export decides acceptance with no curve, and the shapes' rules show (or do not show) adverse
 * selection against a lender who prices blind.
 */
import { describe, expect, it } from 'vitest';
import { takeUpProbability } from '../../src/engine/index.js';
import type { RecordingLine } from '../../src/recording/index.js';
import { Market, MARKET_SHAPES, marketShape, reservationRate, type MarketShape } from '../../src/sandbox/index.js';
import { exportedLines } from './exported-lines.js';
import { DAY } from './sandbox-fixture.js';
import { tempDirForFile } from '../temp-dir.js';

const START = Date.parse('2026-01-01T00:00:00Z');
const dir = tempDirForFile('lendbot-sandbox-reservation-');
/** The naive lender's one price (capped at each request's maximum). */
const NAIVE_RATE = 0.2;

interface NaiveRun {
  market: Market;
  /** Requests the naive lender offered on, by id. */
  offered: Set<number>;
  /** Requests whose loan the naive lender made. */
  won: Set<number>;
}

/** The shape with nobody else offering: what the borrowers' rule does on its own. */
function alone(shape: MarketShape): MarketShape {
  return { ...shape, competitors: { ...shape.competitors, lendersByColor: [0, 0, 0, 0, 0] } };
}

/** A market where a lender offers NAIVE_RATE on every request the moment it appears, then runs to the end. */
function naiveRun(shape: string | MarketShape, seed: number, requests: number): NaiveRun {
  const market = new Market({
    seed,
    startMs: START,
    arrivalsPerHour: 30,
    maxArrivals: requests,
    initialBalanceCents: 10_000_000_000,
    shape: typeof shape === 'string' ? marketShape(shape) : shape,
  });
  const offered = new Set<number>();
  market.onNewLoanRequest((request) => {
    const offer = market.makeOffer(request.id, Math.min(NAIVE_RATE, request.maxInterestRate), true);
    if (!offer.ok) throw new Error(offer.refusal.text);
    offered.add(request.id);
  });
  for (let t = START; market.arrivedCount < requests; t += DAY) market.advanceTo(t);
  market.advanceTo(market.now() + 800 * DAY);
  const won = new Set([...market.loanBook.loans.values()].filter((loan) => loan.lender === 'investor').map((loan) => loan.loanRequestId));
  return { market, offered, won };
}

/**
 * What a replay of the line decides for an offer at `rate`, from the line alone: the borrower
 * takes the cheapest offer at or below its reservation rate, the competitor's on a tie, and only
 * a request that could be funded (funded, or `if_funded` written) is a loan.
 */
function replayWins(line: RecordingLine, rate: number): boolean {
  const outcome = line.outcome;
  if (outcome?.reservation_rate === undefined) throw new Error(`line ${line.loan_request.id} has no reservation_rate`);
  const fundable = outcome.status !== 'unfunded' || outcome.if_funded !== undefined;
  const competing = outcome.best_competing_rate ?? null;
  return fundable && rate <= outcome.reservation_rate && (competing === null || rate < competing);
}

function defaulted(line: RecordingLine): boolean {
  const outcome = line.outcome;
  return (outcome?.status === 'unfunded' ? outcome.if_funded?.status : outcome?.status) === 'default';
}

/** A share with its 95 % interval (normal approximation). */
function share(hits: number, n: number): { rate: number; low: number; high: number } {
  const rate = hits / n;
  const half = 1.96 * Math.sqrt((rate * (1 - rate)) / n);
  return { rate, low: rate - half, high: rate + half };
}

/** The default rate of the loans the naive lender made against that of every request it offered on. */
function adverseSelection(run: NaiveRun): { won: ReturnType<typeof share>; offered: ReturnType<typeof share>; ratio: number } {
  const defaults = (ids: Set<number>): number => [...ids].filter((id) => run.market.requests.get(id)?.truth.missedMonth !== null).length;
  const won = share(defaults(run.won), run.won.size);
  const offered = share(defaults(run.offered), run.offered.size);
  return { won, offered, ratio: won.rate / offered.rate };
}

describe('reservation rates', () => {
  it('under a take-up curve, are the rate where the curve meets the borrower’s draw', () => {
    const curve = { kind: 'take-up-curve', midpoint: 0.65, steepness: 6 } as const;
    for (const maxInterestRate of [0.24, 0.36, 0.6, 0.99]) {
      for (let draw = 0.005; draw < 1; draw += 0.03) {
        const reservation = reservationRate(curve, { maxInterestRate, repayProbability: 0.8 }, draw);
        expect(reservation).toBeLessThanOrEqual(maxInterestRate);
        for (let tenThousandths = 300; tenThousandths <= maxInterestRate * 10_000; tenThousandths += 11) {
          const rate = tenThousandths / 10_000;
          const byCurve = draw < takeUpProbability(rate, maxInterestRate, curve);
          // The same decision, but within a ten-thousandth of the crossing (the rate is kept to four decimals).
          if (Math.abs(takeUpProbability(rate, maxInterestRate, curve) - draw) > 1e-3)
            expect(rate <= reservation, `${draw} ${rate}`).toBe(byCurve);
        }
      }
    }
    expect(reservationRate(curve, { maxInterestRate: 0.36, repayProbability: 0.8 }, 0)).toBe(0.36);
    expect(reservationRate(curve, { maxInterestRate: 0.36, repayProbability: 0.8 }, 0.9999)).toBe(0);
  });

  it('tie acceptance to quality where borrowers shop, and hardly to the rate where they need the money', () => {
    const shoppers = marketShape('shoppers').borrowers;
    const urgent = marketShape('urgent').borrowers;
    const at = (rule: typeof shoppers, repayProbability: number, draw = 0.5): number =>
      reservationRate(rule, { maxInterestRate: 0.6, repayProbability }, draw);
    // A good borrower accepts a little above a fair price for its risk; a poor one up to the maximum.
    expect(at(shoppers, 0.97)).toBeLessThan(0.15);
    expect(at(shoppers, 0.9)).toBeLessThan(at(shoppers, 0.8));
    expect(at(shoppers, 0.5)).toBe(0.6);
    // Whatever the quality, a needy borrower accepts most of the way to the maximum.
    for (const draw of [0, 0.5, 0.999]) expect(at(urgent, 0.97, draw)).toBe(at(urgent, 0.5, draw));
    expect(at(urgent, 0.9, 0.999)).toBeGreaterThan(0.03 + 0.6 * 0.57);
  });

  it('decide a tie between the sandbox investor and a competitor for the competitor, even when the investor offered first', () => {
    const market = new Market({ seed: 2, startMs: START, arrivalsPerHour: 0, initialBalanceCents: 10_000_000 });
    const request = market.createLoanRequest({
      takeUp: 1,
      hasFundingResource: true,
      competitorRates: [0.2],
      decisionDelayMs: 20 * 3_600_000,
    });
    const offer = market.makeOffer(request.id, 0.2, true);
    if (!offer.ok) throw new Error(offer.refusal.text);
    market.advanceTo(START + DAY);
    expect(request.bestCompetingRate).toBe(0.2);
    expect(offer.value.status).toBe('rejected');
    expect(market.loanBook.loans.get(request.loanId ?? 0)?.lender).toMatch(/^competitor-/);
  });

  it('can be fixed through the control API: takeUp 1 is the maximum, 0 accepts nothing, reservationRate wins', () => {
    for (const shape of Object.values(MARKET_SHAPES)) {
      const market = new Market({ seed: 2, startMs: START, arrivalsPerHour: 0, shape });
      expect(market.createLoanRequest({ takeUp: 1, maxInterestRate: 0.6 }).reservationRate, shape.name).toBe(0.6);
      expect(market.createLoanRequest({ takeUp: 0 }).reservationRate, shape.name).toBe(0);
      expect(market.createLoanRequest({ takeUp: 1, reservationRate: 0.21234 }).reservationRate, shape.name).toBe(0.2123);
      expect(market.createLoanRequest({ reservationRate: 0.02 }).reservationRate, shape.name).toBe(0);
    }
  });
});

describe('outcome.reservation_rate in exports', () => {
  it.each(Object.keys(MARKET_SHAPES).map((name) => [name]))(
    '%s: is written on every line, and with the competing rate decides, line by line, which offers a live lender won',
    async (shape) => {
      const lines = await exportedLines(dir, shape, 8, 1000);
      const live = naiveRun(shape, 8, 1000);
      expect(lines).toHaveLength(1000);
      let wins = 0;
      for (const line of lines) {
        const request = live.market.requests.get(line.loan_request.id);
        const reservation = line.outcome?.reservation_rate;
        expect(reservation, `line ${line.loan_request.id}`).toBe(request?.reservationRate);
        expect(reservation).toBeLessThanOrEqual(line.loan_request.max_interest_rate);
        const rate = Math.min(NAIVE_RATE, line.loan_request.max_interest_rate);
        expect(replayWins(line, rate), `request ${line.loan_request.id}`).toBe(live.won.has(line.loan_request.id));
        if (replayWins(line, rate)) wins += 1;
      }
      // Some won, some not: the comparison says something.
      expect(wins).toBeGreaterThan(100);
      expect(wins).toBeLessThan(900);
    },
    60_000,
  );
});

describe('adverse selection against a lender who prices blind', () => {
  it('where acceptance depends on quality (shoppers), its loans default more than its offers, live and in the export', async () => {
    const run = naiveRun('shoppers', 9, 3000);
    const { won, offered, ratio } = adverseSelection(run);
    expect(run.won.size).toBeGreaterThan(500);
    expect(ratio).toBeGreaterThan(1.2);
    expect(won.low).toBeGreaterThan(offered.high);
    // The export of the same market shows it without the lender ever running.
    const lines = await exportedLines(dir, 'shoppers', 9, 3000);
    const wonLines = lines.filter((line) => replayWins(line, Math.min(NAIVE_RATE, line.loan_request.max_interest_rate)));
    const fundable = lines.filter((line) => line.outcome?.status !== 'unfunded' || line.outcome.if_funded !== undefined);
    const exported =
      share(wonLines.filter(defaulted).length, wonLines.length).rate / share(fundable.filter(defaulted).length, fundable.length).rate;
    expect(exported).toBeGreaterThan(1.2);
  }, 60_000);

  it('comes from the borrowers’ rule itself: with nobody else offering, shoppers’ loans still default more than the offers, classic’s hardly', () => {
    const shoppers = adverseSelection(naiveRun(alone(marketShape('shoppers')), 10, 2000));
    const classic = adverseSelection(naiveRun(alone(marketShape('classic')), 10, 2000));
    expect(shoppers.ratio).toBeGreaterThan(1.25);
    expect(shoppers.won.low).toBeGreaterThan(shoppers.offered.high);
    expect(classic.ratio).toBeLessThan(1.12);
  }, 60_000);

  it('where borrowers need the money whatever the rate (urgent), its loans default about as often as its offers', () => {
    const run = naiveRun('urgent', 9, 3000);
    const { won, offered, ratio } = adverseSelection(run);
    expect(run.won.size).toBeGreaterThan(1000);
    expect(ratio).toBeGreaterThan(0.85);
    expect(ratio).toBeLessThan(1.15);
    expect(offered.rate).toBeGreaterThan(won.low);
    expect(offered.rate).toBeLessThan(won.high);
  }, 60_000);
});
