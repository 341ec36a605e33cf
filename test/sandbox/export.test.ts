import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRecordingLine } from '../../src/recording/index.js';
import { exportSandboxRecording } from '../../src/sandbox/index.js';

const dir = mkdtempSync(join(tmpdir(), 'lendbot-sandbox-export-'));

describe('exportSandboxRecording', () => {
  it('writes one valid recording line per request, with data, scores and outcome', async () => {
    const file = join(dir, 'a.jsonl');
    const summary = await exportSandboxRecording(file, { seed: 5, requests: 300, providerNames: { a: 'acme', b: 'flow' } });
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(300);
    expect(summary.lines).toBe(300);
    const parsed = lines.map((text) => {
      const result = parseRecordingLine(text);
      if (!result.ok) throw new Error(result.message);
      return result.value;
    });
    const withData = parsed.filter((line) => line.data_aggs);
    expect(withData.length).toBeGreaterThan(250);
    for (const line of withData) expect(Object.keys(line.scores ?? {}).sort()).toEqual(['acme', 'flow']);
    const statuses = new Set(parsed.map((line) => line.outcome?.status));
    expect([...statuses].sort()).toEqual(['completed', 'default', 'unfunded']);
    for (const line of parsed) {
      const outcome = line.outcome;
      expect(outcome?.resolved_at).toBeDefined();
      if (outcome?.status === 'completed') expect(outcome.repaid_fraction).toBe(1);
      if (outcome?.status === 'default') expect(outcome.repaid_fraction).toBeLessThan(1);
      if (outcome?.funded_rate !== undefined) expect(outcome.funded_rate).toBeLessThanOrEqual(line.loan_request.max_interest_rate);
      // Nobody but competitors offers in a headless run, so the funded rate is the best competing one.
      if (outcome?.status !== 'unfunded') expect(outcome?.funded_rate).toBe(outcome?.best_competing_rate);
      expect(Date.parse(line.seen_at)).toBe(Date.parse(line.loan_request.created));
    }
    expect(Object.values(summary.byStatus).reduce((a, b) => a + b, 0)).toBe(300);
  });

  it('is deterministic for a seed; --transactions adds the raw bank data', async () => {
    await exportSandboxRecording(join(dir, 'b1.jsonl'), { seed: 9, requests: 50 });
    await exportSandboxRecording(join(dir, 'b2.jsonl'), { seed: 9, requests: 50 });
    expect(readFileSync(join(dir, 'b1.jsonl'), 'utf8')).toBe(readFileSync(join(dir, 'b2.jsonl'), 'utf8'));
    await exportSandboxRecording(join(dir, 'c.jsonl'), { seed: 9, requests: 5, includeTransactions: true });
    const first = JSON.parse(readFileSync(join(dir, 'c.jsonl'), 'utf8').split('\n')[0] ?? '{}') as { data_aggs?: { data_aggregation?: unknown } };
    expect(first.data_aggs?.data_aggregation).toBeDefined();
  });
});
