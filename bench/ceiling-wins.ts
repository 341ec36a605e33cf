/**
 * What the lenders of bench/pricing-ceiling.ts win (docs/backtesting.md, "How far a lender can
 * get: the ceilings"), figures printed, never asserted:
 *
 *   node --import tsx bench/ceiling-wins.ts [--shapes shoppers,classic,urgent] [--seeds 1,2] [--requests 3000]
 *
 * For every request of a sandbox export, each lender's decision (with the banking data the line
 * carries) and, for an offer, the borrower's recorded choice (recorded acceptance: reservation
 * rate and competing offer). Decisions alone: no cash limit, no replay. Over the offers won: the
 * strategy's calibrated repayment probability against the sandbox's hidden one, the share that
 * did not repay in full (loans of known fate), and the mean rate.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { clairvoyantStrategy, recordedReservation } from '../src/backtest/clairvoyant-strategies.js';
import { borrowerChoice, recordedCompetition } from '../src/backtest/index.js';
import { realisedDefault } from '../src/backtest/realised-fate.js';
import { loadStrategyFile, type CompiledStrategy, type Enrichment } from '../src/engine/index.js';
import { hiddenRepayProbabilities } from './hidden-truth.js';
import { MARKET_GRID_OPTIONS, marketGrid, marketRecordings } from './market-grid.js';

const { values } = parseArgs({
  options: {
    ...MARKET_GRID_OPTIONS,
    shapes: { type: 'string', default: 'shoppers,classic,urgent' },
    requests: { type: 'string', default: '3000' },
  },
});
const grid = marketGrid(values);
const balanced = await loadStrategyFile('strategies/balanced.yaml');
const dir = mkdtempSync(join(tmpdir(), 'lendbot-wins-'));
const mean = (xs: number[]): string => (xs.length === 0 ? '-' : (xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(3));
console.log(
  'shape | seed | lender | offers | won | outbid | declined | won: score p | won: true p | won: not repaid in full (known) | won: mean rate',
);
try {
  for await (const { shape, seed, recording } of marketRecordings(grid, dir)) {
    const truth = hiddenRepayProbabilities({ seed, requests: grid.requests, shape, arrivalsPerHour: grid.arrivalsPerHour });
    const risk = { repayProbability: (id: number) => truth.get(id) };
    const lenders: Array<[string, CompiledStrategy]> = [
      ['default', balanced],
      ['market clairvoyant', clairvoyantStrategy(balanced, recording, { reservation: recordedReservation }, 'market')],
      ['risk clairvoyant', clairvoyantStrategy(balanced, recording, risk, 'risk')],
      ['both clairvoyant', clairvoyantStrategy(balanced, recording, { ...risk, reservation: recordedReservation }, 'both')],
    ];
    for (const [name, lender] of lenders) {
      const counts = { offers: 0, won: 0, outbid: 0, declined: 0 };
      const score: number[] = [];
      const hidden: number[] = [];
      const defaulted: number[] = [];
      const rates: number[] = [];
      for (const { line } of recording.entries) {
        const enrichment: Enrichment = line.data_aggs ? { bankingData: line.data_aggs } : { unavailable: { bankingData: true } };
        const decision = lender.evaluate(line.loan_request, enrichment);
        const competition = recordedCompetition(line.outcome, 'win');
        if (decision.action !== 'offer' || decision.rate === undefined || competition === 'lose') continue;
        counts.offers += 1;
        const choice = borrowerChoice(decision.rate, line.outcome?.reservation_rate ?? 0, competition);
        counts[choice] += 1;
        if (choice !== 'won') continue;
        score.push(balanced.evaluate(line.loan_request, enrichment).probability ?? Number.NaN);
        hidden.push(truth.get(line.loan_request.id) ?? Number.NaN);
        rates.push(decision.rate);
        const fate = realisedDefault(line);
        if (fate !== undefined) defaulted.push(fate ? 1 : 0);
      }
      console.log(
        [
          shape,
          seed,
          name,
          counts.offers,
          counts.won,
          counts.outbid,
          counts.declined,
          mean(score),
          mean(hidden),
          `${mean(defaulted)} (n ${defaulted.length})`,
          mean(rates),
        ].join(' | '),
      );
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
