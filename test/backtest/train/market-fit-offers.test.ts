// `lendbot train` fitting the take-up curve from the investor's own offers (the `offer` field a
// daemon export writes), through the real reader, trainer and model-file parser.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIN_TAKE_UP_LINES, type TrainReport } from '../../../src/backtest/train/index.js';
import { seededRandom } from '../../../src/engine/market/seeded-normals.js';
import { formatTrainReport } from '../../../src/cli/commands/train/train-report-text.js';
import { parseModelText } from '../../../src/engine/model/index.js';
import { recordingLineSchema, type Outcome, type RecordingLine } from '../../../src/recording/index.js';
import { recordingLine } from '../recording-fixtures.js';
import { trainLines } from './train-lines.js';

const HOUR_MS = 3_600_000;
const START = Date.parse('2026-01-01T00:00:00Z');
const MAX_RATE = 0.4;
/** The curve our own offers' borrowers follow. */
const OWN = { midpoint: 0.5, steepness: 8 };
/** A different curve for competitors' offers, so the test can tell which source was fitted. */
const COMPETING = { midpoint: 0.8, steepness: 5 };

const takeUp = (u: number, curve: { midpoint: number; steepness: number }): number =>
  1 / (1 + Math.exp(curve.steepness * (u - curve.midpoint)));
const rateAt = (u: number): number => 0.03 + u * (MAX_RATE - 0.03);
const seenAt = (i: number): string => new Date(START + i * HOUR_MS).toISOString().replace('.000Z', 'Z');

/** A loan that was made: repaid in four cases of five, so the default model has both labels. */
function fundedOutcome(random: () => number, extra: Partial<Outcome> = {}): Outcome {
  return random() < 0.8 ? { status: 'completed', repaid_fraction: 1, ...extra } : { status: 'default', repaid_fraction: 0.3, ...extra };
}

/** A line of a daemon export: our offer at `rate`, with the outcome only when it was accepted (our loan). */
function ownOfferLine(
  i: number,
  rate: number,
  status: 'accepted' | 'rejected' | 'expired' | 'pending',
  random: () => number,
): RecordingLine {
  const base = recordingLine({
    id: 10_000 + i,
    seenAt: seenAt(i),
    request: { max_interest_rate: MAX_RATE },
    ...(status === 'accepted' ? { outcome: fundedOutcome(random, { funded_rate: rate }) } : {}),
  });
  return recordingLineSchema.parse({ ...base, offer: { rate, status, at: seenAt(i) } });
}

/** `count` own offers at positions drawn uniformly, accepted following OWN, else rejected or expired. */
function ownOffers(count: number, seed: number, from = 0): RecordingLine[] {
  const random = seededRandom(seed);
  const lines: RecordingLine[] = [];
  for (let i = from; i < from + count; i += 1) {
    const u = random();
    const accepted = random() < takeUp(u, OWN);
    lines.push(ownOfferLine(i, rateAt(u), accepted ? 'accepted' : random() < 0.5 ? 'rejected' : 'expired', random));
  }
  return lines;
}

/** `count` requests we did not offer on, where a competitor did and borrowers follow COMPETING. */
function competitorLines(count: number, seed: number, from: number): RecordingLine[] {
  const random = seededRandom(seed);
  const lines: RecordingLine[] = [];
  for (let i = from; i < from + count; i += 1) {
    const u = random();
    const rate = rateAt(u);
    const outcome: Outcome =
      random() < takeUp(u, COMPETING)
        ? fundedOutcome(random, { best_competing_rate: rate })
        : { status: 'unfunded', best_competing_rate: rate };
    lines.push(recordingLine({ id: 10_000 + i, seenAt: seenAt(i), request: { max_interest_rate: MAX_RATE }, outcome }));
  }
  return lines;
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lendbot-own-offers-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const train = (name: string, lines: RecordingLine[]): Promise<TrainReport> => trainLines(dir, name, lines);

describe('take-up fitted from our own offers', () => {
  let report: TrainReport;
  beforeAll(async () => {
    // Our offers, then requests we left alone where competitors' borrowers follow another curve.
    report = await train('own.jsonl', [...ownOffers(4000, 11), ...competitorLines(2000, 12, 4000)]);
  });

  it('recovers the curve our offers were accepted by, in preference to the competing rates', () => {
    const takeUpSection = report.market.section.take_up;
    expect(takeUpSection?.source).toBe('own_offers');
    // 4000 offers: the estimates' standard errors are about 0.01 (midpoint) and 0.4 (steepness).
    expect(Math.abs((takeUpSection?.midpoint ?? 0) - OWN.midpoint)).toBeLessThan(0.04);
    expect(Math.abs((takeUpSection?.steepness ?? 0) - OWN.steepness)).toBeLessThan(1.2);
    expect(takeUpSection?.lines).toBe(4000);
    expect(report.market.takeUpLines.took + report.market.takeUpLines.walked).toBe(4000);
    // The competing rates still give the competition section.
    expect(report.market.section.competition?.lines).toBe(2000);
  });

  it('writes the source into a model file that loads, and names it in the report', () => {
    const loaded = parseModelText(JSON.stringify(report.model), 'model.json');
    expect(loaded.market?.takeUp?.midpoint).toBe(report.market.section.take_up?.midpoint);
    expect(report.model.market?.take_up?.source).toBe('own_offers');
    const text = formatTrainReport(report, { file: 'model.json', sha256: '0'.repeat(64) });
    expect(text).toMatch(
      /take-up from our own offers: midpoint 0\.\d{3}, steepness \d+\.\d{3} \(\d+ accepted or taken, \d+ rejected, expired or lost/,
    );
  });

  it('falls back to every offer’s fate when our settled offers are too few, and says so', async () => {
    // 30 offers: too few refusals of ours, so they are pooled with the competitors' 2000 fates.
    const fallback = await train('fallback.jsonl', [...ownOffers(30, 13), ...competitorLines(2000, 12, 30)]);
    expect(fallback.market.section.take_up?.source).toBe('all_offers');
    expect(fallback.market.evidence.takeUp).toMatchObject({
      ownOffers: 30,
      competingOffers: 2000,
      lines: 2030,
      verdict: 'fitted',
      borrowerDependent: false,
    });
    expect(Math.abs((fallback.market.section.take_up?.midpoint ?? 0) - COMPETING.midpoint)).toBeLessThan(0.1);
    expect(fallback.market.notes.some((note) => note.startsWith('take-up not fitted from our own offers:'))).toBe(true);
  });
});

describe('too few settled offers of our own', () => {
  it('fits no take-up, leaves pending offers out, and says why', async () => {
    const random = seededRandom(21);
    const lines: RecordingLine[] = [];
    let i = 0;
    // Plenty accepted, too few refused: pending offers (no answer yet) must not count as refused.
    for (; i < 120; i += 1) lines.push(ownOfferLine(i, rateAt(random() * 0.5), 'accepted', random));
    for (; i < 120 + MIN_TAKE_UP_LINES - 1; i += 1) lines.push(ownOfferLine(i, rateAt(0.6 + random() * 0.4), 'rejected', random));
    for (; i < 400; i += 1) lines.push(ownOfferLine(i, rateAt(0.6 + random() * 0.4), 'pending', random));
    const report = await train('few.jsonl', lines);
    expect(report.market.section.take_up).toBeUndefined();
    expect(report.market.notes).toContain(
      `take-up not fitted from our own offers: 120 offers taken and ${MIN_TAKE_UP_LINES - 1} not taken (each needs ${MIN_TAKE_UP_LINES}); trying every offer's fate`,
    );
    expect(report.model.market?.take_up).toBeUndefined();
  });
});
