// The headless export streams: the market forgets each request once its fate is final, and the
// file is still the one the whole market, kept to the end, would write.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatRecordingLine } from '../../src/recording/index.js';
import {
  exportSandboxRecording,
  Market,
  outcomeOf,
  recordingLine,
  runHeadlessMarket,
  type ExportOptions,
  type ExportProgress,
} from '../../src/sandbox/index.js';
import { tempDirForFile } from '../temp-dir.js';

const dir = tempDirForFile('lendbot-export-memory-');
const DAY_MS = 86_400_000;
const START = Date.parse('2026-01-01T00:00:00Z');

describe('a market that forgets final requests (onFinal)', () => {
  it('holds only what is live, open requests and running loans, however many requests have come and gone', () => {
    const finals: number[] = [];
    // One request every ten hours: 3,000 of them over about 3.4 years, so most loans end long before the last arrival.
    const market = new Market({ seed: 4, startMs: START, arrivalsPerHour: 0.1, maxArrivals: 3000, onFinal: (r) => finals.push(r.id) });
    let mostHeld = 0;
    for (let t = START; t < START + 6 * 365 * DAY_MS; t += 7 * DAY_MS) {
      market.advanceTo(t);
      let offers = 0;
      for (const request of market.requests.values()) {
        const loan = request.loanId === null ? undefined : market.loanBook.loans.get(request.loanId);
        const live = request.status === 'open' || request.status === 'offered' || (loan !== undefined && loan.resolvedMs === null);
        expect(live, `request ${request.id} (${request.status}, loan ${loan?.status}) is final but still held`).toBe(true);
        offers += request.offerIds.length;
      }
      // Counted entries, not bytes: no offer or loan outlives its request.
      expect(market.offers.size).toBeLessThanOrEqual(offers);
      expect(market.loanBook.loans.size).toBeLessThanOrEqual(market.requests.size);
      mostHeld = Math.max(mostHeld, market.requests.size);
    }
    expect(market.arrivedCount).toBe(3000);
    expect(market.requests.size).toBe(0);
    expect(market.offers.size).toBe(0);
    expect(market.loanBook.loans.size).toBe(0);
    expect(new Set(finals).size).toBe(3000);
    // A loan runs at most about two years: about 0.1 × 24 × 760 requests arrive in that time, half of them funded.
    expect(mostHeld).toBeGreaterThan(50);
    expect(mostHeld).toBeLessThan(1000);
  });
});

describe('exportSandboxRecording streams', () => {
  it('writes, to the byte, the lines of the whole market kept to the end, holding only what is live', async () => {
    const options: ExportOptions = { seed: 8, requests: 1500, arrivalsPerHour: 0.05, shape: 'shoppers', defaultScale: 1.5 };
    const file = join(dir, 'streamed.jsonl');
    const progress: ExportProgress[] = [];
    const summary = await exportSandboxRecording(file, { ...options, onProgress: (p) => progress.push(p) });
    const market = runHeadlessMarket(options);
    const expected = [...market.requests.values()]
      .map(
        (request) => `${formatRecordingLine(recordingLine(market.seed, request, outcomeOf(market, request.id), options, market.shape))}\n`,
      )
      .join('');
    expect(readFileSync(file, 'utf8')).toBe(expected);
    expect(summary.lines).toBe(1500);
    expect(summary.walkedAway).toBe([...market.requests.values()].filter((request) => request.refusedRate !== null).length);
    // 1,500 requests over about 3.4 years: the market held open requests and running loans only,
    // and a final line waited at most for the arrivals of the longest loan's life (0.05 × 24 × 800).
    const most = (key: 'held' | 'waiting'): number => Math.max(...progress.map((p) => p[key]));
    expect(most('held')).toBeLessThan(500);
    expect(most('waiting')).toBeLessThanOrEqual(960);
    expect(progress.at(-1)).toMatchObject({ arrived: 1500, total: 1500 });
    expect(progress.some((p) => p.written > 0 && p.arrived < 1500)).toBe(true);
  });
});
