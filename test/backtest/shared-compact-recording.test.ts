/**
 * A loaded recording shared with another thread (tune's workers): the same entries, lines and
 * outcome counts, read over the same memory (not a copy), as structured cloning to a worker gives it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compactRecordingFromShared, shareCompactRecording } from '../../src/backtest/compact/shared-compact-recording.js';
import { loadRecording } from '../../src/backtest/load-recording.js';
import { sliceRecording, type PreparedRecording } from '../../src/backtest/prepared-recording.js';
import { exportSandboxRecording } from '../../src/sandbox/index.js';

let dir: string;
let recording: PreparedRecording;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lendbot-shared-compact-'));
  const file = join(dir, 'classic.jsonl');
  await exportSandboxRecording(file, { seed: 7, requests: 600, shape: 'classic' });
  recording = await loadRecording(file, { from: '2026-01-01T02:00:00Z' }, () => undefined);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const plain = (r: PreparedRecording): unknown[] =>
  r.entries.map((e) => ({
    seenAt: e.seenAt,
    seenMs: e.seenMs,
    totalCents: e.totalCents,
    scoreBand: e.scoreBand,
    line: JSON.stringify(e.line),
  }));

describe('a compact recording shared with another thread', () => {
  it('gives the same entries, lines, duplicates and outcome counts', () => {
    const shared = shareCompactRecording(recording);
    expect(shared).toBeDefined();
    // What a worker receives: the message's structured clone.
    const read = compactRecordingFromShared(structuredClone(shared!));
    expect(plain(read)).toEqual(plain(recording));
    expect(read.duplicates).toBe(recording.duplicates);
    const { of: _a, ...counts } = recording.outcomeCounts!;
    const { of: _b, ...readCounts } = read.outcomeCounts!;
    expect(readCounts).toEqual(counts);
    expect(read.outcomeCounts?.of).toBe(read.entries);
  });

  it('reads the same memory, not a copy', () => {
    const shared = shareCompactRecording(recording)!;
    const cloned = structuredClone(shared);
    expect(shared.json.chunks[0]).toBeInstanceOf(SharedArrayBuffer);
    const mine = new Uint8Array(shared.json.chunks[0]!);
    const theirs = new Uint8Array(cloned.json.chunks[0]!);
    const before = theirs[0];
    mine[0] = (mine[0]! + 1) % 256;
    expect(theirs[0]).toBe((before! + 1) % 256);
    mine[0] = before!;
    expect(cloned.columns.values.seenMs.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(cloned.order.buffer).toBeInstanceOf(SharedArrayBuffer);
  });

  it('is not offered for a part of a recording, which a thread reads itself', () => {
    expect(shareCompactRecording(sliceRecording(recording, 0, 10))).toBeUndefined();
  });
});
