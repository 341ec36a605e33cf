/**
 * The compact recording (src/backtest/compact/) against its reference, the recording read into
 * parsed lines and prepared (readRecordingLines, prepareRecording): the same entries, the same
 * duplicates rule, and the same backtest to the byte, on a sandbox export and on hand-made lines
 * out of order and recorded twice; the compact form gives back every JSON value as JSON.parse
 * made it.
 */
import { appendFile, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CompactJson } from '../../src/backtest/compact/compact-json.js';
import { loadCompactRecording, RecordingTooLargeError, type ReadProgress } from '../../src/backtest/compact/compact-recording.js';
import {
  prepareRecording,
  readForReplay,
  worldFacts,
  type PreparedRecording,
  type ReplayEntry,
  type ReplayRead,
} from '../../src/backtest/prepared-recording.js';
import {
  calibrationOfPass,
  calibrationOfProbabilities,
  StrategyProbabilityPass,
  strategyProbabilities,
} from '../../src/backtest/calibration/index.js';
import { worldFactsOf } from '../../src/backtest/world-facts.js';
import { borrowerWorlds, groupDefaultRates } from '../../src/backtest/borrower-worlds.js';
import { runBacktest, runBacktestsTogether } from '../../src/backtest/run-backtest.js';
import { DEFAULT_MARKET } from '../../src/backtest/market-model.js';
import { runDraws } from '../../src/backtest/draws.js';
import { populationDefault } from '../../src/backtest/offer-stats.js';
import { recordedAcceptanceShare } from '../../src/backtest/worlds-band.js';
import { decideSync, loadStrategyFiles, type DecideContext, type Decision, type SpendLedger } from '../../src/engine/index.js';
import { ReplayDataSource } from '../../src/backtest/recording-data.js';
import { DEFAULT_RISK_LIMITS } from '../../src/risk/index.js';
import { exportSandboxRecording } from '../../src/sandbox/index.js';
import type { RecordingLineIssue } from '../../src/recording/index.js';
import { readRecordingLines } from '../../src/recording/recording-io.js';
import { recordingLine, writeRecording } from './recording-fixtures.js';

let dir: string;
let exported: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lendbot-compact-'));
  exported = join(dir, 'classic.jsonl');
  await exportSandboxRecording(exported, { seed: 7, requests: 1500, shape: 'classic' });
  // A damaged line and a blank one: both readers skip them and report the same issue.
  await appendFile(exported, '{"v":1,"seen_at":"nope"}\n\n');
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Every entry as plain data, its line as JSON text (key order included). */
function entriesOf(recording: PreparedRecording): unknown[] {
  return recording.entries.map((entry) => ({
    seenAt: entry.seenAt,
    seenMs: entry.seenMs,
    totalCents: entry.totalCents,
    scoreBand: entry.scoreBand,
    line: JSON.stringify(entry.line),
  }));
}

async function both(
  file: string,
  period = {},
): Promise<{ compact: PreparedRecording; reference: PreparedRecording; issues: [RecordingLineIssue[], RecordingLineIssue[]] }> {
  const issues: [RecordingLineIssue[], RecordingLineIssue[]] = [[], []];
  const compact = await loadCompactRecording(file, { period, onIssue: (issue) => issues[0].push(issue) });
  const reference = prepareRecording(await readRecordingLines(file, (issue) => issues[1].push(issue)), period);
  return { compact, reference, issues };
}

describe('the compact recording', () => {
  it('holds the same entries as the parsed lines, in the same order, with the same bad lines reported', async () => {
    const { compact, reference, issues } = await both(exported);
    expect(compact.entries.length).toBe(1500);
    expect(entriesOf(compact)).toEqual(entriesOf(reference));
    expect(compact.duplicates).toBe(reference.duplicates);
    expect(issues[0]).toEqual(issues[1]);
    expect(issues[0]).toHaveLength(1);
    // The outcome counts made while reading are what a pass over the lines counts.
    expect(compact.outcomeCounts).toBeDefined();
    expect(reference.outcomeCounts).toBeUndefined();
    expect(recordedAcceptanceShare(compact)).toBe(recordedAcceptanceShare(reference));
    expect(populationDefault(compact)).toEqual(populationDefault(reference));
    expect(populationDefault(compact).n).toBeGreaterThan(0);
    // A copy with other entries is counted from its lines, not from the counts made while reading.
    const none = { ...compact, entries: compact.entries.filter((entry) => entry.line.outcome?.reservation_rate === undefined) };
    expect(recordedAcceptanceShare(none)).toBe(0);
  });

  it('gives the same backtest, to the byte, as the parsed lines (draws, decisions, calibration learning)', async () => {
    const { compact, reference } = await both(exported);
    const strategies = await loadStrategyFiles(['strategies/balanced.yaml']);
    const options = { startingBalanceCents: 5_000_000, limits: DEFAULT_RISK_LIMITS, recordDecisions: true, recordContributions: true };
    expect(JSON.stringify(runBacktest(compact, strategies, options))).toBe(JSON.stringify(runBacktest(reference, strategies, options)));
    const draws = (recording: PreparedRecording): string => JSON.stringify(runDraws(recording, strategies, options, [1, 2]));
    expect(draws(compact)).toBe(draws(reference));
  });

  it('keeps the rule for a request recorded twice and lines out of order: first seen_at, last content, ties in first-appearance order', async () => {
    const file = join(dir, 'twice.jsonl');
    const paid = { status: 'completed' as const, best_competing_rate: null, repaid_fraction: 1 };
    const lost = { status: 'default' as const, best_competing_rate: null, repaid_fraction: 0.2 };
    await writeRecording(file, [
      recordingLine({ id: 3, seenAt: '2026-01-01T12:00:00Z' }),
      recordingLine({ id: 1, seenAt: '2026-01-01T10:00:00Z' }),
      // Request 1 again, later in the file and seen later: keeps 10:00, takes this outcome.
      recordingLine({ id: 1, seenAt: '2026-01-01T11:00:00Z', outcome: paid }),
      // Request 2 seen at 10:00 too: after request 1, which appeared first in the file.
      recordingLine({ id: 2, seenAt: '2026-01-01T10:00:00.000Z' }),
      // Request 3 again, seen earlier than its first line: moves to 09:00 and takes this outcome.
      recordingLine({ id: 3, seenAt: '2026-01-01T09:00:00Z', outcome: lost }),
      // Request 2 again at the same instant, written otherwise: the first line's text stays.
      recordingLine({ id: 2, seenAt: '2026-01-01T10:00:00Z', outcome: paid }),
    ]);
    const { compact, reference } = await both(file);
    const view = (recording: PreparedRecording): unknown[] =>
      recording.entries.map((entry) => [entry.line.loan_request.id, entry.seenAt, entry.line.outcome?.status]);
    expect(view(compact)).toEqual([
      [3, '2026-01-01T09:00:00Z', 'default'],
      [1, '2026-01-01T10:00:00Z', 'completed'],
      [2, '2026-01-01T10:00:00.000Z', 'completed'],
    ]);
    expect(view(reference)).toEqual(view(compact));
    expect(compact.duplicates).toBe(3);
    expect(reference.duplicates).toBe(3);
    // A period leaves lines out before duplicates are matched: request 3's 09:00 line is outside.
    const period = { from: '2026-01-01T09:30:00Z' };
    const trimmed = await both(file, period);
    expect(view(trimmed.compact)).toEqual(view(trimmed.reference));
    expect(view(trimmed.compact)[2]).toEqual([3, '2026-01-01T12:00:00Z', undefined]);
  });

  it('reads a line for a replay without its recorded data, built only when the data source asks, and keeps the world facts', async () => {
    const { compact, reference } = await both(exported);
    compact.entries.forEach((entry, index) => {
      const full = entry.line;
      const { line, data } = readForReplay(entry);
      // The same line but for the recorded data, which the data source reads from `data`.
      const withoutData = { ...full, data_aggs: undefined, scores: undefined, borrower_history: undefined };
      expect(JSON.stringify(line)).toBe(JSON.stringify(withoutData));
      expect(JSON.stringify([data.data_aggs, data.scores, data.borrower_history])).toBe(
        JSON.stringify([full.data_aggs, full.scores, full.borrower_history]),
      );
      expect(worldFacts(entry)).toEqual(worldFactsOf(full));
      expect(worldFacts(reference.entries[index] as ReplayEntry)).toEqual(worldFactsOf(full));
    });
    expect(groupDefaultRates(compact)).toEqual(groupDefaultRates(reference));
  });

  it('builds the recorded data of only the requests a replay buys data for', async () => {
    const { compact } = await both(exported);
    const strategies = await loadStrategyFiles(['strategies/balanced.yaml']);
    const decode = vi.spyOn(CompactJson.prototype, 'decode');
    try {
      const result = runBacktest(compact, strategies, { startingBalanceCents: 5_000_000, limits: DEFAULT_RISK_LIMITS });
      // Skipped at a free filter or refused by the guard before buying: no banking data built.
      expect(result.summary.requests).toBe(1500);
      expect(decode.mock.calls.length).toBeGreaterThan(0);
      expect(decode.mock.calls.length).toBeLessThan(1500 / 2);
    } finally {
      decode.mockRestore();
    }
  });

  it("finds the calibration section's probabilities as the first draw reads each request, as a pass of their own finds them", async () => {
    const { compact } = await both(exported);
    const strategies = await loadStrategyFiles(['strategies/balanced.yaml', 'strategies/conservative.yaml']);
    const options = { startingBalanceCents: 5_000_000, limits: DEFAULT_RISK_LIMITS };
    const passes = strategies.map((strategy) => new StrategyProbabilityPass(strategy));
    const onRead = (entry: ReplayEntry, read: ReplayRead): void => passes.forEach((pass) => pass.add(entry, read));
    const riding = runDraws(compact, strategies, { ...options, onRead }, [1, 2]);
    strategies.forEach((strategy, index) => {
      const alone = strategyProbabilities(compact, strategy);
      expect(alone.scored.length).toBeGreaterThan(100);
      expect(passes[index]?.result(compact.entries.length)).toEqual(alone);
      // The section read from the pass's columns is the one of its scored requests, to the byte (key order included).
      const pass = passes[index] as StrategyProbabilityPass;
      expect(JSON.stringify(calibrationOfPass(pass, compact.entries.length))).toBe(JSON.stringify(calibrationOfProbabilities(alone)));
    });
    // The replay itself is the same with the pass riding on it.
    expect(JSON.stringify(riding)).toBe(JSON.stringify(runDraws(compact, strategies, options, [1, 2])));
  });

  it("finds each strategy's probability without searching a price, the probability a whole evaluation gives", async () => {
    const { compact } = await both(exported);
    const strategies = await loadStrategyFiles(['strategies/balanced.yaml', 'strategies/conservative.yaml']);
    const spent: SpendLedger = { spentSince: () => 0, subscribedSince: () => false, record: () => undefined };
    for (const strategy of strategies) {
      const source = new ReplayDataSource();
      const context = { strategies: [strategy], nowMs: 0, ledger: spent };
      const probabilityOnly = { ...context, probabilityOnly: true };
      const whole: number[] = [];
      const alone: number[] = [];
      let priced = 0;
      for (const entry of compact.entries) {
        source.line = entry.line;
        const decide = (asked: DecideContext): Decision =>
          decideSync(entry.line.loan_request, asked, source, () => ({ allowed: true })).decision;
        const full = decide(context);
        const only = decide(probabilityOnly);
        whole.push(full.probability ?? Number.NaN, Number(full.contributions.at(-1)?.value ?? Number.NaN));
        alone.push(only.probability ?? Number.NaN, Number(only.contributions.at(-1)?.value ?? Number.NaN));
        if (full.rate !== undefined) priced += 1;
        expect(only.rate).toBeUndefined();
      }
      expect(alone).toEqual(whole);
      expect(priced).toBeGreaterThan(50);
    }
  });

  it('replays several backtests in lockstep, each request read once, with the result each gives alone', async () => {
    const { compact } = await both(exported);
    const [balanced, conservative] = await loadStrategyFiles(['strategies/balanced.yaml', 'strategies/conservative.yaml']);
    if (!balanced || !conservative) throw new Error('strategies not loaded');
    const options = { startingBalanceCents: 5_000_000, limits: DEFAULT_RISK_LIMITS, recordDecisions: true };
    const [quality] = borrowerWorlds(compact, DEFAULT_MARKET.response, { replaceRecorded: true }).filter((w) => w.name === 'quality');
    const runs = [
      { strategies: [balanced], options },
      { strategies: [balanced], options: { ...options, market: { seed: 2 }, world: quality } },
      { strategies: [conservative, balanced], options: { ...options, recordContributions: true } },
    ];
    const alone = runs.map(({ strategies, options: own }) => JSON.stringify(runBacktest(compact, strategies, own)));
    expect(runBacktestsTogether(compact, runs).map((result) => JSON.stringify(result))).toEqual(alone);
  });

  it('stops with an error naming the memory limit when the recording does not fit', async () => {
    const read = loadCompactRecording(exported, { onIssue: () => undefined, memoryLimitBytes: 100_000 });
    await expect(read).rejects.toBeInstanceOf(RecordingTooLargeError);
    await expect(read).rejects.toThrow(
      /does not fit in the 0 MB of memory configured \(node's heap limit; the recording may take half of it/,
    );
    await expect(loadCompactRecording(exported, { onIssue: () => undefined, memoryLimitBytes: 50_000_000 })).resolves.toBeDefined();
  });

  it('tells its progress as it reads', async () => {
    const seen: ReadProgress[] = [];
    const fileBytes = (await stat(exported)).size;
    await loadCompactRecording(exported, { onIssue: () => undefined, progressEveryBytes: 1, fileBytes, onProgress: (p) => seen.push(p) });
    expect(seen.length).toBeGreaterThanOrEqual(1);
    expect(seen.at(-1)).toEqual({ bytesRead: fileBytes, fileBytes, requests: 1500 });
  });
});

describe('the compact form of JSON values', () => {
  const awkward: unknown[] = [
    null,
    true,
    false,
    0,
    -0,
    1,
    -1,
    127,
    128,
    2 ** 31,
    -(2 ** 31) - 1,
    Number.MAX_SAFE_INTEGER,
    Number.MAX_SAFE_INTEGER + 2,
    -Number.MAX_SAFE_INTEGER - 2,
    0.1,
    0.1 + 0.2,
    3078.27,
    -1030.5,
    0.4718,
    -0.0001,
    1e-7,
    1.5e300,
    5e-324,
    123456789.1234,
    1e21,
    '',
    'a',
    'première',
    '😀 emoji',
    '\ud800 lone high',
    'lone low \udc00',
    '2026-01-01T00:00:01.572Z',
    '2026-01-01T00:00:00Z',
    '2026-02-30T00:00:00.000Z',
    '1969-12-31T23:59:59.999Z',
    '+2026-01-01T00:00:01.572Z',
    'x'.repeat(200),
    [],
    {},
    [1, [2, [3, {}]], 'x'],
    { b: 1, a: 2, 10: 'ten', 2: 'two', nested: { z: null, y: [{ q: 1 }, { q: 2, r: 3 }] } },
    JSON.parse('{"__proto__": {"polluted": true}, "after": 1}'),
    JSON.parse('{"a": 1, "a": 2}'),
    JSON.parse('-0'),
  ];

  it('gives back each value as JSON.parse made it: same JSON text, same numbers (-0 included), own keys in order', () => {
    const json = new CompactJson();
    // Twice, so repeated strings come back from the table the second time.
    const addresses = [...awkward, ...awkward].map((value) => json.encode(value));
    addresses.forEach((address, index) => {
      const value = awkward[index % awkward.length];
      const back = json.decode(address);
      expect(JSON.stringify(back)).toBe(JSON.stringify(value));
      expect(same(back, value)).toBe(true);
    });
    expect(Object.getPrototypeOf(json.decode(addresses[awkward.length - 3] as number))).toBe(Object.prototype);
  });
});

/** Equal as JSON.parse values: Object.is for numbers, own enumerable keys in the same order. */
function same(a: unknown, b: unknown): boolean {
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return Object.is(a, b);
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  if (keysA.join('\u0000') !== keysB.join('\u0000')) return false;
  return keysA.every((key) => same((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
}
