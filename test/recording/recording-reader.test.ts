/**
 * The recording reader's fast path (a compiled check generated from the zod schema, chunked
 * reading) must read exactly what zod and readline read: the same good lines, the same bad ones
 * with the same numbers and messages (docs/recording-format.md).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRecordingLine, readRecording, type RecordingLineIssue } from '../../src/recording/index.js';
import { readRecordingLines } from '../../src/recording/recording-io.js';
import { recordingLineCheck } from '../../src/recording/line-check.js';
import { compileLineCheck } from '../../src/recording/line-check-ajv.js';
import { lineCheckSchema } from '../../src/recording/line-check-schema.js';
import { recordingLineSchema } from '../../src/recording/recording-schema.js';
import { seededRandom } from '../../src/backtest/tune/seeded-random.js';
import { syntheticRecording } from '../backtest/recording-fixtures.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lendbot-reader-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** What readline + parseRecordingLine (the reader before the fast path) make of a file. */
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

/** A line with one field set to a wrong or odd value, or left as it is. */
function mutate(line: Record<string, unknown>, random: () => number): Record<string, unknown> {
  const copy = structuredClone(line) as Record<string, Record<string, unknown>>;
  const request = copy.loan_request as Record<string, unknown>;
  const borrower = request.borrower as Record<string, unknown>;
  const cases: Array<() => void> = [
    () => undefined,
    () => (request.loan_amount = 'abc'),
    () => (request.loan_amount = ' 12.50 '),
    () => (request.total_amount = '1e3'),
    () => (request.loan_terms = '12'),
    () => (request.borrower_card_color = 7),
    () => (request.borrower_card_color = 1.5),
    () => (borrower.credit_score = null),
    () => (borrower.hard_inquiries = null),
    () => delete request.id,
    () => ((copy as Record<string, unknown>).seen_at = '2026-02-30T00:00:00Z'),
    () => ((copy as Record<string, unknown>).seen_at = '2026-01-01 00:00:00'),
    () => ((copy as Record<string, unknown>).v = 2),
    () => ((copy as Record<string, unknown>).outcome = { status: 'default', repaid_fraction: 1.5 }),
    () => ((copy as Record<string, unknown>).outcome = { status: 'lost' }),
    () => ((copy as Record<string, unknown>).someday_field = { anything: [1, 'two'] }),
    () => (request.extra_field_from_the_service = 'kept'),
    () => ((copy as Record<string, unknown>).offer = { rate: 0.2, status: 'accepted', at: '2026-01-01T00:00:00+02:00' }),
    () => ((copy as Record<string, unknown>).scores = { acme: { a_score: 'high' } }),
  ];
  cases[Math.floor(random() * cases.length)]?.();
  return copy;
}

describe('the recording reader', () => {
  it('has a compiled check for the current schema', () => {
    expect(recordingLineCheck()).toBeTypeOf('function');
  });

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

  it("gives zod's verdict on every line: nullable fields, refined amounts, wrong types (the written check and Ajv's at run time)", () => {
    const written = recordingLineCheck();
    const prepared = lineCheckSchema();
    if (!written || !prepared) throw new Error('no compiled check');
    const compiled = compileLineCheck(prepared);
    type Line = Record<string, Record<string, unknown>>;
    // Fields zod reads as nullable (merged into one JSON Schema type list) or refines (amounts).
    const edits: Array<(line: Line) => void> = [
      (l) => (l.loan_request!.borrower = { ...(l.loan_request!.borrower as object), svc_score: null }),
      (l) => (l.loan_request!.borrower = { ...(l.loan_request!.borrower as object), svc_score: 'x' }),
      (l) => (l.loan_request!.borrower = { ...(l.loan_request!.borrower as object), annual_income: 1.5 }),
      (l) => (l.loan_request!.borrower = { ...(l.loan_request!.borrower as object), credit_utilization: null }),
      (l) => (l.loan_request!.borrower = { ...(l.loan_request!.borrower as object), credit_utilization: '0.3' }),
      (l) => (l.loan_request!.borrower_data_aggs = null),
      (l) => (l.loan_request!.borrower_data_aggs = 5),
      (l) => (l.loan_request!.borrower_data_aggs = { sum_values: [{ CREDIT: 1 }] }),
      (l) => (l.loan_request!.highlight = null),
      (l) => (l.loan_request!.highlight = { status: 1, title: 't' }),
      (l) => (l.loan_request!.fav_loan_request_id = null),
      (l) => (l.loan_request!.fav_loan_request_id = 'x'),
      (l) => (l.loan_request!.fee_svc = '1.005'),
      (l) => (l.loan_request!.fee_svc = ' 3.00'),
      (l) => (l.loan_request!.fee_svc = null),
      (l) => (l.loan_request!.crypto_amount = '12'),
      (l) => (l.loan_request!.crypto_amount = 12),
      (l) => (l.outcome = { status: 'completed', best_competing_rate: null }),
      (l) => (l.outcome = { status: 'completed', best_competing_rate: -1 }),
      (l) => (l.outcome = { status: 'completed', resolved_at: '2026-13-01T00:00:00Z' }),
    ];
    const random = seededRandom(9);
    const lines = syntheticRecording(100, 4, () => 1) as unknown as Line[];
    let refused = 0;
    for (const [index, line] of lines.entries()) {
      const copy = structuredClone(line);
      edits[index % edits.length]?.(copy);
      for (const json of [copy, mutate(copy, random)]) {
        const zod = recordingLineSchema.safeParse(json).success;
        expect(written(json), JSON.stringify(json)).toBe(zod);
        expect(compiled(json), JSON.stringify(json)).toBe(zod);
        if (!zod) refused += 1;
      }
    }
    expect(refused).toBeGreaterThan(20);
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
