/**
 * A decision made live reaches the operator API's explanation as the values its reasons were
 * made as (the decisions table's reason_values_json), not as its text read back: a plugin's own
 * text that looks like lendbot's guard and filter reasons stays the plugin's (`other`).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedReasons } from '../../src/store/reason-texts-to-values.js';
import { loadStrategyFile } from '../../src/engine/index.js';
import type { DecisionAnswer } from '../../src/operator/api/api-types.js';
import { startApiHarness, type ApiHarness } from './api-harness.js';

/** Texts the stored-text reader would take for the guard's and a filter's. */
const LOOKALIKES = ['guard paused: by hand', 'filter credit_score < 600'];

const PLUGIN = `
export const name = 'lookalike';
export const version = '1.0.0';
export function evaluate() {
  return { action: 'skip', reasons: ${JSON.stringify(LOOKALIKES)} };
}
`;

let h: ApiHarness;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lendbot-reason-values-'));
  const file = join(dir, 'lookalike.mjs');
  writeFileSync(file, PLUGIN);
  h = await startApiHarness({ strategies: [await loadStrategyFile(file)] });
}, 60_000);
afterAll(async () => {
  await h?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('reasons as values, from the decide step to the API', () => {
  it("shows a plugin's guard-like text as the plugin's reason, not a guard refusal", async () => {
    // What reading the text back would have said: the guard refused, a filter failed.
    expect(storedReasons(LOOKALIKES).map((reason) => reason.code)).toEqual(['guard', 'filter_failed']);

    const request = h.makeRequest();
    await h.daemon.runJob('poll');
    const response = await h.call(`/api/decisions/${request.id}`);
    expect(response.status).toBe(200);
    const { decision, explanation } = (await response.json()) as DecisionAnswer;
    expect(decision.action).toBe('skip');
    // The stored text is the plugin's, byte for byte; its codes come from the values.
    expect(decision.reasons).toEqual(LOOKALIKES);
    expect(decision.reason_codes).toEqual(['other', 'other']);
    expect(decision.reason_words).toEqual(LOOKALIKES);
    expect(decision.guard_code).toBeNull();
    expect(explanation?.guard).toEqual({ checked: false, allowed: null, code: null, reason: null });
  });
});
