/**
 * What `lendbot train` fits of the market on sandbox shapes (figures printed, never asserted):
 *
 *   node --import tsx bench/market-fit-shapes.ts [--requests 4000] [--seed 7] [--shapes classic,shoppers]
 *
 * For each shape it exports a sandbox recording and fits the market twice:
 * - as exported: competitors' offers taken or walked away from (what a full-market recording shows);
 * - with exploration of our own: one offer per request at a uniformly drawn position between 0.03
 *   and the request's maximum, its fate decided as the sandbox's borrower would (accepted at or
 *   below its reservation rate when no competitor is cheaper; lost to a cheaper competitor; else
 *   rejected), then every reservation_rate removed, so the fit sees only the fates.
 * It prints the fitted competition, the take-up curve at default probabilities 0.02, 0.1 and 0.3,
 * the evidence, and whether the curve is steeper for good borrowers than for poor ones.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadRecording } from '../src/backtest/index.js';
import { featureList, trainingData, trainModel, type TrainReport } from '../src/backtest/train/index.js';
import { seededRandom } from '../src/engine/market/seeded-normals.js';
import { takeUpAt } from '../src/engine/index.js';
import { formatRecordingLine, type RecordingLine } from '../src/recording/index.js';
import { exportSandboxRecording } from '../src/sandbox/index.js';

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '4000' },
    seed: { type: 'string', default: '7' },
    shapes: { type: 'string', default: 'classic,shoppers' },
  },
});

/** Our exploratory offer on a line, its fate as the sandbox's borrower would decide it; reservation_rate removed. */
function explored(line: RecordingLine, random: () => number): RecordingLine {
  const outcome = line.outcome;
  const maxRate = line.loan_request.max_interest_rate;
  const rate = Number((0.03 + random() * (maxRate - 0.03)).toFixed(4));
  if (outcome === undefined) return line;
  const { reservation_rate: reservation, ...seen } = outcome;
  const competing = typeof outcome.best_competing_rate === 'number' ? outcome.best_competing_rate : undefined;
  const acceptable = reservation !== undefined && rate <= reservation;
  const cheaperCompetitor = competing !== undefined && competing <= rate && competing <= (reservation ?? 0);
  let status: 'accepted' | 'lost' | 'rejected';
  let after = seen;
  if (acceptable && !cheaperCompetitor) {
    status = 'accepted';
    // Our loan: funded at our rate; its repayment as recorded (or as if funded).
    const fate =
      seen.status === 'unfunded'
        ? (seen.if_funded ?? { status: 'completed', repaid_fraction: 1 })
        : { status: seen.status, repaid_fraction: seen.repaid_fraction };
    after = { ...seen, status: fate.status, repaid_fraction: fate.repaid_fraction, funded_rate: rate };
  } else {
    status = cheaperCompetitor ? 'lost' : 'rejected';
  }
  return { ...line, outcome: after, offer: { rate, status, at: line.seen_at } } as RecordingLine;
}

function describe(label: string, report: TrainReport): void {
  const { section, evidence, notes } = report.market;
  const c = section.competition;
  console.log(`  ${label}`);
  if (c?.intercept !== undefined)
    console.log(
      `    competition: share ${c.share}, best rate ${c.intercept} + ${c.per_default} x pd, spread ${c.spread} (${evidence.competitionRate.lines} rates)`,
    );
  const t = section.take_up;
  const e = evidence.takeUp;
  console.log(
    `    take-up evidence: ${e.lines} fates (${e.took} taken, ${e.walked} not; ${e.ownOffers} own, ${e.competingOffers} competing), verdict ${e.verdict}, likelihood ratio ${e.borrowerEvidence}`,
  );
  if (t === undefined) {
    console.log(`    take-up not fitted: ${notes.join('; ')}`);
    return;
  }
  const curve = {
    midpoint: t.midpoint,
    steepness: t.steepness,
    midpointPerDefault: t.midpoint_per_default ?? 0,
    steepnessPerDefault: t.steepness_per_default ?? 0,
  };
  const at = [0.02, 0.1, 0.3].map((pd) => ({ pd, ...takeUpAt(curve, pd) }));
  console.log(
    `    take-up (${t.source}): midpoint ${t.midpoint} + ${curve.midpointPerDefault} x pd, steepness ${t.steepness} + ${curve.steepnessPerDefault} x pd`,
  );
  for (const point of at)
    console.log(`      pd ${point.pd}: midpoint ${point.midpoint.toFixed(3)}, steepness ${point.steepness.toFixed(2)}`);
  const good = at[0];
  const poor = at[2];
  if (good && poor)
    console.log(
      `    steeper for good borrowers: ${good.steepness > poor.steepness ? 'yes' : 'no'}; walk away sooner (lower midpoint): ${good.midpoint < poor.midpoint ? 'yes' : 'no'}`,
    );
}

const dir = mkdtempSync(join(tmpdir(), 'lendbot-market-fit-'));
try {
  for (const shape of (values.shapes ?? '').split(',')) {
    const file = join(dir, `${shape}.jsonl`);
    await exportSandboxRecording(file, { seed: Number(values.seed), requests: Number(values.requests), shape });
    const recording = await loadRecording(file, {}, () => undefined);
    const train = async (path: string): Promise<TrainReport> => {
      const data = trainingData(await loadRecording(path, {}, () => undefined), featureList(undefined));
      return trainModel(data, { dataFile: path, l2: 'auto', trainShare: 0.7 });
    };
    console.log(`${shape} (seed ${values.seed}, ${recording.entries.length} requests)`);
    describe('as exported (competitors’ fates only)', await train(file));
    const random = seededRandom(Number(values.seed) + 1);
    const explore = join(dir, `${shape}-explored.jsonl`);
    writeFileSync(explore, `${recording.entries.map((entry) => formatRecordingLine(explored(entry.line, random))).join('\n')}\n`);
    describe('with an exploratory offer of ours on every request', await train(explore));
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
