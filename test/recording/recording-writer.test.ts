import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openRecordingWriter, parseRecordingLine } from '../../src/recording/index.js';
import { recordingLineSchema } from '../../src/recording/index.js';
import { loanRequestJson } from '../service/fixtures/resources.js';

const dir = mkdtempSync(join(tmpdir(), 'lendbot-writer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the recording writer', () => {
  it('creates missing folders and writes one JSON line per request', async () => {
    const file = join(dir, 'a', 'b', 'rec.jsonl');
    const writer = await openRecordingWriter(file);
    for (const id of [1, 2, 3]) {
      await writer.write(recordingLineSchema.parse({ v: 1, seen_at: '2026-11-20T14:03:07Z', loan_request: loanRequestJson(id) }));
    }
    await writer.close();
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    expect(lines.map((line) => parseRecordingLine(line).ok)).toEqual([true, true, true]);
    // Borrowers' data: owner-only, like the database.
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('fails with the path when the file cannot be created', async () => {
    const blocker = join(dir, 'not-a-folder');
    writeFileSync(blocker, '');
    await expect(openRecordingWriter(join(blocker, 'rec.jsonl'))).rejects.toMatchObject({ code: 'EEXIST', path: blocker });
  });
});
