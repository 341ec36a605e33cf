/** The sandbox's export carries each borrower's loan history (spec 2.8), one item per completed loan. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseRecordingLine } from '../../src/recording/index.js';
import { exportSandboxRecording } from '../../src/sandbox/index.js';

const dir = mkdtempSync(join(tmpdir(), 'lendbot-sandbox-history-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('sandbox export: borrower history', () => {
  it('writes the history of every request, as many items as the borrower has completed loans', async () => {
    const file = join(dir, 'h.jsonl');
    await exportSandboxRecording(file, { seed: 11, requests: 60 });
    const lines = readFileSync(file, 'utf8')
      .trimEnd()
      .split('\n')
      .map((text) => {
        const parsed = parseRecordingLine(text);
        if (!parsed.ok) throw new Error(parsed.message);
        return parsed.value;
      });
    expect(lines.some((line) => (line.borrower_history?.length ?? 0) > 0)).toBe(true);
    for (const line of lines) {
      expect(line.borrower_history?.length).toBe(line.loan_request.borrower.completed_loans_count);
      for (const item of line.borrower_history ?? []) expect(Number(item.loan_amount)).toBeGreaterThan(0);
    }
  });
});
