/**
 * The recording reader's chunked reading must read exactly what readline and parseRecordingLine
 * read, one line at a time: the same good lines, the same bad ones with the same numbers and
 * messages (docs/recording-format.md). The line check's equivalence with zod is
 * line-check-equivalence.test.ts.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRecordingLine, readRecording, type RecordingLineIssue } from '../../src/recording/index.js';
import { readRecordingLines } from '../../src/recording/recording-io.js';
import { seededRandom } from '../../src/engine/market/seeded-normals.js';
import { syntheticRecording } from '../backtest/recording-fixtures.js';
import { mutate } from './mutated-lines.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lendbot-reader-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** What readline + parseRecordingLine, a line at a time, make of a file. */
async function slowRead(file: string): Promise<{ good: unknown[]; issues: RecordingLineIssue[] }> {
  const good: unknown[] = [];
  const issues: RecordingLineIssue[] = [];
  let number = 0;
  for await (const text of createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity })) {
    number += 1;
    if (text.trim() === '') continue;
    const result = parseRecordingLine(text);
    if (result.ok) good.push(result.value);
    else issues.push({ file, line: number, message: result.message });
  }
  return { good, issues };
}

describe('the recording reader', () => {
  it('reads the same lines and reports the same bad lines, numbers and messages as zod and readline', async () => {
    const random = seededRandom(5);
    const lines = syntheticRecording(300, 2, () => 1).map((line) =>
      JSON.stringify(mutate(line as unknown as Record<string, unknown>, random)),
    );
    // Blank lines, a broken one, CRLF and lone CR breaks, and no newline at the end.
    const text = `${lines.slice(0, 100).join('\n')}\n\n   \n{not json\r\n${lines.slice(100, 200).join('\r\n')}\r${lines.slice(200).join('\n')}`;
    const file = join(dir, 'mixed.jsonl');
    await writeFile(file, text);
    const issues: RecordingLineIssue[] = [];
    const good = await readRecordingLines(file, (issue) => issues.push(issue));
    const slow = await slowRead(file);
    expect(issues.length).toBeGreaterThan(10);
    expect(issues).toEqual(slow.issues);
    expect(good).toEqual(slow.good);
    const streamed: unknown[] = [];
    for await (const line of readRecording(file, () => undefined)) streamed.push(line);
    expect(streamed).toEqual(slow.good);
  });

  it('splits lines as readline does across chunk borders', async () => {
    const line = JSON.stringify(syntheticRecording(1, 1, () => 1)[0]);
    // Over a MiB of lines, so breaks (and a CR of a CRLF) fall on a chunk border somewhere.
    const many = Array.from({ length: 2_000 }, (_, i) => (i % 3 === 0 ? `${line}\r` : i % 3 === 1 ? `${line}\r\n` : `${line}\n`)).join('');
    const file = join(dir, 'big.jsonl');
    await writeFile(file, many);
    const issues: RecordingLineIssue[] = [];
    const good = await readRecordingLines(file, (issue) => issues.push(issue));
    const slow = await slowRead(file);
    expect(issues).toEqual(slow.issues);
    expect(good).toHaveLength(slow.good.length);
  });

  it('reads what readline reads when a chunk border falls inside a CRLF or inside a two-byte character', async () => {
    const base = syntheticRecording(1, 1, () => 1)[0];
    const CHUNK = 1 << 20; // the reader's chunk size
    /** A line of exactly `bytes` bytes of UTF-8 (an unknown field pads it; readers keep those). */
    const lineOf = (bytes: number, note = '') => {
      const bare = JSON.stringify({ ...base, note });
      return JSON.stringify({ ...base, note: note + 'x'.repeat(bytes - Buffer.byteLength(bare)) });
    };
    /** Lines before `tail`, so that `tail` ends exactly `border` bytes into the file. */
    const fillTo = (border: number, tail: string) => {
      const fillers: string[] = [];
      let used = Buffer.byteLength(tail);
      while (border - used > 4_000 + 1) {
        fillers.push(`${lineOf(2_000)}\n`);
        used += 2_001;
      }
      fillers.push(`${lineOf(border - used - 1)}\n`);
      return fillers.join('') + tail;
    };
    const crlf = `${fillTo(CHUNK, `${lineOf(1_500)}\r`)}\n${lineOf(1_600)}\n`;
    const accented = lineOf(1_500, 'café');
    const file = join(dir, 'borders.jsonl');
    // "é" is two bytes: the border falls between them (its first byte is the chunk's last).
    const before = fillTo(CHUNK - 1, accented.slice(0, accented.indexOf('é')));
    const twoByte = `${before}${accented.slice(accented.indexOf('é'))}\n${lineOf(1_600)}\n`;
    expect(Buffer.byteLength(crlf.slice(0, crlf.indexOf('\r\n', CHUNK - 4_000) + 1))).toBe(CHUNK);
    expect(Buffer.from(twoByte).subarray(CHUNK - 1, CHUNK + 1)).toEqual(Buffer.from('é'));
    for (const text of [crlf, twoByte]) {
      await writeFile(file, text);
      const issues: RecordingLineIssue[] = [];
      const good = await readRecordingLines(file, (issue) => issues.push(issue));
      const slow = await slowRead(file);
      expect(issues).toEqual([]);
      expect(good).toEqual(slow.good);
      expect(good.length).toBeGreaterThan(500);
    }
    expect((await readRecordingLines(file, () => undefined)).some((line) => (line as { note?: string }).note?.startsWith('café'))).toBe(
      true,
    );
  });
});
