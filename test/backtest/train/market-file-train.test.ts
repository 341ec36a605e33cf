// `lendbot train`'s market fit from what a lender observes: a recording whose own offers were all
// accepted (no refusal of ours) still fits take-up from the competing offers borrowers took or
// walked away from; the market file carries the evidence; reservation_rate is never read.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { marketFileOf, type TrainReport } from '../../../src/backtest/train/index.js';
import { seededRandom } from '../../../src/engine/market/seeded-normals.js';
import { parseMarketText } from '../../../src/engine/market-file.js';
import { recordingLineSchema, type Outcome, type RecordingLine } from '../../../src/recording/index.js';
import { recordingLine } from '../recording-fixtures.js';
import { trainLines } from './train-lines.js';

const MAX_RATE = 0.4;
const START = Date.parse('2026-01-01T00:00:00Z');
const seenAt = (i: number): string => new Date(START + i * 3_600_000).toISOString().replace('.000Z', 'Z');
const takeUp = (u: number): number => 1 / (1 + Math.exp(6 * (u - 0.6)));
const rateAt = (u: number): number => 0.03 + u * (MAX_RATE - 0.03);

function funded(random: () => number, extra: Partial<Outcome>): Outcome {
  return random() < 0.8 ? { status: 'completed', repaid_fraction: 1, ...extra } : { status: 'default', repaid_fraction: 0.3, ...extra };
}

/**
 * 3000 requests: every tenth carries our own offer, always accepted (the "11915 taken and 0 not
 * taken" shape); on the others a competitor offered and the borrower took it or walked away by the
 * curve. `reservation` writes a reservation_rate on every line, contradicting the fates.
 */
function recording(seed: number, reservation: boolean): RecordingLine[] {
  const random = seededRandom(seed);
  const lines: RecordingLine[] = [];
  for (let i = 0; i < 3000; i += 1) {
    const u = random();
    const rate = rateAt(u);
    const extra = reservation ? { reservation_rate: 0.031 } : {};
    if (i % 10 === 0) {
      const base = recordingLine({
        id: 30_000 + i,
        seenAt: seenAt(i),
        request: { max_interest_rate: MAX_RATE },
        outcome: funded(random, { funded_rate: rate, ...extra }),
      });
      lines.push(recordingLineSchema.parse({ ...base, offer: { rate, status: 'accepted', at: seenAt(i) } }));
      continue;
    }
    const outcome: Outcome =
      random() < takeUp(u)
        ? funded(random, { best_competing_rate: rate, funded_rate: rate, ...extra })
        : { status: 'unfunded', best_competing_rate: rate, ...extra };
    lines.push(recordingLine({ id: 30_000 + i, seenAt: seenAt(i), request: { max_interest_rate: MAX_RATE }, outcome }));
  }
  return lines;
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lendbot-market-file-train-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const train = (name: string, lines: RecordingLine[]): Promise<TrainReport> => trainLines(dir, name, lines);

describe('take-up from every offer’s fate', () => {
  it('fits from competing offers taken or walked away from when our own were all accepted', async () => {
    const report = await train('accepted.jsonl', recording(31, false));
    expect(report.market.notes).toContain(
      "take-up not fitted from our own offers: 300 offers taken and 0 not taken (each needs 20); trying every offer's fate",
    );
    const takeUpSection = report.market.section.take_up;
    expect(takeUpSection?.source).toBe('all_offers');
    expect(Math.abs((takeUpSection?.midpoint ?? 0) - 0.6)).toBeLessThan(0.06);
    expect(Math.abs((takeUpSection?.steepness ?? 0) - 6)).toBeLessThan(1.5);
    expect(report.market.evidence.takeUp).toMatchObject({ ownOffers: 300, competingOffers: 2700, lines: 3000, verdict: 'fitted' });
  });

  it('writes a market file with the evidence per part that loads for a strategy', async () => {
    const report = await train('file.jsonl', recording(32, false));
    const text = JSON.stringify(marketFileOf(report, 'file.jsonl', new Date('2027-01-01T00:00:00Z')), null, 2);
    const loaded = parseMarketText(text, 'markets/m.json');
    expect(loaded.definition.fitted).toMatchObject({ data_file: 'file.jsonl', fitted_at: '2027-01-01T00:00:00.000Z' });
    expect(loaded.definition.evidence?.competition_share).toMatchObject({ lines: 2700, verdict: 'fitted' });
    expect(loaded.definition.evidence?.take_up).toMatchObject({
      lines: 3000,
      took: report.market.takeUpLines.took,
      own_offers: 300,
      competing_offers: 2700,
      verdict: 'fitted',
    });
    expect(loaded.market.takeUp?.midpoint).toBe(report.market.section.take_up?.midpoint);
    expect(loaded.market.competition?.share).toBe(1);
  });

  it('never reads outcome.reservation_rate: the same fates give the same fit with or without it', async () => {
    const without = await train('plain.jsonl', recording(33, false));
    const with_ = await train('reservation.jsonl', recording(33, true));
    expect(with_.market.section).toEqual(without.market.section);
  });
});
