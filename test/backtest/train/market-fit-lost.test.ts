// Lost offers (the request left the list without our loan) in the take-up fit of `lendbot train`:
// a lost offer at r is refused evidence; one whose line names the rate the borrower took (c)
// counts as a take at c and says nothing about r (below r we were outbid: the competition model's
// part; not below, ours came too late). Through the real reader (a recording file) and fitMarket.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRecording } from '../../../src/backtest/index.js';
import { fitMarket } from '../../../src/backtest/train/market-fit.js';
import { trainingData } from '../../../src/backtest/train/index.js';
import { ratePosition } from '../../../src/engine/index.js';
import { recordingLineSchema, type Outcome, type RecordingLine } from '../../../src/recording/index.js';
import { recordingLine, writeRecording } from '../recording-fixtures.js';

const MAX_RATE = 0.4;
const START = Date.parse('2026-01-01T00:00:00Z');
const seenAt = (i: number): string => new Date(START + i * 3_600_000).toISOString().replace('.000Z', 'Z');

type Status = 'accepted' | 'rejected' | 'lost' | 'expired' | 'pending';

function ownLine(i: number, rate: number, status: Status, outcome?: Outcome): RecordingLine {
  const base = recordingLine({
    id: 20_000 + i,
    seenAt: seenAt(i),
    request: { max_interest_rate: MAX_RATE },
    ...(outcome ? { outcome } : {}),
  });
  return recordingLineSchema.parse({ ...base, offer: { rate, status, at: seenAt(i) } });
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lendbot-lost-offers-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function fitted(lines: RecordingLine[]) {
  const file = join(dir, `rec-${lines.length}.jsonl`);
  await writeRecording(file, lines);
  let skipped = 0;
  const recording = await loadRecording(file, {}, () => {
    skipped += 1;
  });
  expect(skipped).toBe(0);
  return fitMarket(trainingData(recording, ['loan_terms']).lines, () => 0.9);
}

describe('lost offers in the take-up fit', () => {
  it('counts a lost offer as refused at our rate, and one whose line names the rate taken as that take only', async () => {
    const lines: RecordingLine[] = [];
    let i = 0;
    for (let n = 0; n < 25; n += 1, i += 1) lines.push(ownLine(i, 0.1, 'accepted', { status: 'current', funded_rate: 0.1 }));
    for (let n = 0; n < 20; n += 1, i += 1) lines.push(ownLine(i, 0.3, 'lost')); // nothing known of the winner
    // Lost to a cheaper rate the line names: a take at 0.15, nothing about our 0.35 (outbid).
    for (let n = 0; n < 30; n += 1, i += 1) lines.push(ownLine(i, 0.35, 'lost', { status: 'current', funded_rate: 0.15 }));
    // Lost although the rate taken was dearer: a take at 0.3, nothing about our 0.2.
    for (let n = 0; n < 10; n += 1, i += 1) lines.push(ownLine(i, 0.2, 'lost', { status: 'completed', best_competing_rate: 0.3 }));
    for (let n = 0; n < 5; n += 1, i += 1) lines.push(ownLine(i, 0.3, 'pending'));
    const fit = await fitted(lines);
    expect(fit.takeUpLines).toEqual({ took: 25 + 30 + 10, walked: 20 });
    expect(fit.section.take_up?.source).toBe('own_offers');
    expect(fit.section.take_up?.lines).toBe(85);
    // Takes lie at 0.1, 0.15, 0.3 and refusals at 0.3: refusals rise with the rate.
    const midpoint = fit.section.take_up?.midpoint ?? 0;
    expect(midpoint).toBeGreaterThan(ratePosition(0.15, MAX_RATE));
    expect(midpoint).toBeLessThan(ratePosition(0.35, MAX_RATE));
  });

  it('reads a lost offer on an unfunded line as refused only (nobody took anything)', async () => {
    const lines: RecordingLine[] = [];
    for (let i = 0; i < 20; i += 1) lines.push(ownLine(i, 0.1, 'accepted', { status: 'current', funded_rate: 0.1 }));
    for (let i = 20; i < 45; i += 1) lines.push(ownLine(i, 0.3, 'lost', { status: 'unfunded', best_competing_rate: 0.12 }));
    const fit = await fitted(lines);
    expect(fit.takeUpLines).toEqual({ took: 20, walked: 25 });
  });
});
