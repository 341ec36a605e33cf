/**
 * The winner's curse a sandbox recording really holds, to judge what `pricing.winners_curse`
 * learns against (figures printed, never asserted; it reads what no lender sees):
 *
 *   node --import tsx bench/true-curse.ts [--shapes shoppers,classic] [--seeds 1,2] [--requests 3000]
 *       [--strategy strategies/balanced.yaml]
 *
 * For the requests the strategy offers on (a dry replay: its scores as it priced them), and a
 * rate at each position u between 0.03 and the request's maximum, which of them an offer at that
 * rate would win (the borrower's recorded reservation rate at least the rate, no cheaper
 * competing offer), and how those repaid (the recorded outcome, or `if_funded`) against the
 * mean score: P(repay | won at u) as the recording has it, at every rate, where a lender learns
 * it only at the rates it funded.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { defaultBalance, runBacktest, type PreparedRecording } from '../src/backtest/index.js';
import { labelOf } from '../src/backtest/realised-fate.js';
import { loadStrategyFile } from '../src/engine/index.js';
import { MARKET_GRID_OPTIONS, marketGrid, marketRecordings } from './market-grid.js';

const { values } = parseArgs({
  options: {
    ...MARKET_GRID_OPTIONS,
    requests: { type: 'string', default: '3000' },
    shapes: { type: 'string', default: 'shoppers,classic' },
    draws: { type: 'string', default: '1' },
    strategy: { type: 'string', default: 'strategies/balanced.yaml' },
  },
});
const POSITIONS = [0.1, 0.3, 0.5, 0.7, 0.9];
const strategy = await loadStrategyFile(values.strategy);

/** The strategy's score of each request it offers on, by request id (a replay that settles nothing). */
function offeredScores(recording: PreparedRecording): Map<number, number> {
  const result = runBacktest(recording, [strategy], {
    startingBalanceCents: defaultBalance(recording).cents,
    recordDecisions: true,
    market: { settle: false },
  });
  const scores = new Map<number, number>();
  for (const decision of result.decisions) {
    const match = /score probability ([\d.]+)/.exec(decision.reasons.join(' '));
    if (match && decision.action === 'offer') scores.set(decision.loan_request_id, Number(match[1]));
  }
  return scores;
}

/** Of the offered requests, those an offer at position u would win: how many, their repaid share and mean score. */
function wonAt(recording: PreparedRecording, scores: Map<number, number>, u: number): { won: number; repaid: number; scored: number } {
  let won = 0;
  let repaid = 0;
  let scored = 0;
  for (const { line } of recording.entries) {
    const score = scores.get(line.loan_request.id);
    const label = labelOf(line);
    const reservation = line.outcome?.reservation_rate;
    if (score === undefined || label === null || reservation === undefined) continue;
    const rate = 0.03 + u * (line.loan_request.max_interest_rate - 0.03);
    const best = line.outcome?.best_competing_rate;
    if (reservation < rate || (typeof best === 'number' && best <= rate)) continue;
    won += 1;
    repaid += label;
    scored += score;
  }
  return { won, repaid: repaid / won, scored: scored / won };
}

const dir = mkdtempSync(join(tmpdir(), 'lendbot-true-curse-'));
try {
  console.log(`shape | seed | offered on | ${POSITIONS.map((u) => `u ${u}: won, repaid vs scored`).join(' | ')}`);
  for await (const { shape, seed, recording } of marketRecordings(marketGrid(values), dir)) {
    const scores = offeredScores(recording);
    const cells = POSITIONS.map((u) => {
      const at = wonAt(recording, scores, u);
      return `${at.won}, ${at.repaid.toFixed(2)} vs ${at.scored.toFixed(2)}`;
    });
    console.log(`${shape} | ${seed} | ${scores.size} | ${cells.join(' | ')}`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
