// `lendbot train` fits the winner's curse on our own funded loans (src/backtest/train/curse-fit.ts)
// and writes it into the market file with its evidence: where the loans we won at high rates
// repaid worse than those won at low rates, P(repay | won) falls with the rate; where repayment
// did not depend on our rate, w stays near 0; a strategy using the file starts from that w.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { marketFileOf, type TrainReport } from '../../../src/backtest/train/index.js';
import { seededRandom } from '../../../src/engine/market/seeded-normals.js';
import { parseMarketText } from '../../../src/engine/market-file.js';
import { wonRepayProbability } from '../../../src/engine/market/repay-curse.js';
import { recordingLineSchema, type RecordingLine } from '../../../src/recording/index.js';
import { recordingLine } from '../recording-fixtures.js';
import { trainLines } from './train-lines.js';

const MAX_RATE = 0.4;
const START = Date.parse('2026-01-01T00:00:00Z');
const seenAt = (i: number): string => new Date(START + i * 3_600_000).toISOString().replace('.000Z', 'Z');

/**
 * 3000 requests; every third carries our own accepted offer at a random rate, funded at it; the
 * others were funded by someone else. `repays(u, random)`: whether one of OUR loans repaid, at
 * rate position u; every other loan repays with chance 0.85.
 */
function recording(seed: number, repays: (u: number, random: () => number) => boolean): RecordingLine[] {
  const random = seededRandom(seed);
  const lines: RecordingLine[] = [];
  for (let i = 0; i < 3000; i += 1) {
    const u = random();
    const rate = 0.03 + u * (MAX_RATE - 0.03);
    const own = i % 3 === 0;
    const repaid = own ? repays(u, random) : random() < 0.85;
    const outcome = repaid
      ? { status: 'completed' as const, repaid_fraction: 1, funded_rate: rate }
      : { status: 'default' as const, repaid_fraction: 0.3, funded_rate: rate };
    const base = recordingLine({ id: 40_000 + i, seenAt: seenAt(i), request: { max_interest_rate: MAX_RATE }, outcome });
    lines.push(own ? recordingLineSchema.parse({ ...base, offer: { rate, status: 'accepted', at: seenAt(i) } }) : base);
  }
  return lines;
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lendbot-curse-fit-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const train = (name: string, lines: RecordingLine[]): Promise<TrainReport> => trainLines(dir, name, lines);

/** P(repay | won) at position u for a borrower scored 0.85, under the file's w. */
const wonAt = (w: readonly number[], u: number): number => wonRepayProbability(0.85, 0.03 + u * (MAX_RATE - 0.03), MAX_RATE, w);

describe("the winner's curse from our own funded loans", () => {
  it('finds that loans won at high rates repay worse, and writes it into the market file', async () => {
    // Ours repay 0.95 at the lowest rate, falling to 0.55 at the maximum.
    const report = await train(
      'cursed.jsonl',
      recording(41, (u, random) => random() < 0.95 - 0.4 * u),
    );
    expect(report.curse.evidence).toMatchObject({ lines: 1000, verdict: 'fitted' });
    expect(wonAt(report.curse.w, 0.9)).toBeLessThan(wonAt(report.curse.w, 0.1) - 0.2);
    const text = JSON.stringify(marketFileOf(report, 'cursed.jsonl', new Date('2027-01-01T00:00:00Z')), null, 2);
    const loaded = parseMarketText(text, 'markets/m.json');
    expect(loaded.definition.winners_curse?.w).toEqual(report.curse.w);
    expect(loaded.definition.evidence?.winners_curse).toMatchObject({
      lines: 1000,
      repaid: report.curse.evidence.repaid,
      verdict: 'fitted',
    });
    // A strategy with pricing.market.file starts its curse there.
    expect(loaded.market.curse).toEqual(report.curse.w);
  });

  it('stays near 0 when our loans repaid as everyone else’s, whatever the rate', async () => {
    const report = await train(
      'flat.jsonl',
      recording(42, (_u, random) => random() < 0.85),
    );
    expect(report.curse.evidence.lines).toBe(1000);
    expect(Math.abs(wonAt(report.curse.w, 0.9) - wonAt(report.curse.w, 0.1))).toBeLessThan(0.05);
  });

  it('writes no curse without own funded loans of both fates', async () => {
    const report = await train(
      'none.jsonl',
      recording(43, () => true),
    );
    expect(report.curse.evidence.verdict).toBe('none');
    const file = marketFileOf(report, 'none.jsonl', new Date('2027-01-01T00:00:00Z'));
    expect(file.winners_curse).toBeUndefined();
    expect(file.evidence?.winners_curse?.note).toMatch(/not fitted/);
  });
});
