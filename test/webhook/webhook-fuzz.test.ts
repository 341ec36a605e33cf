import http from 'node:http';
import { databaseOf } from '../../src/store/index.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_BODY_LIMIT_BYTES } from '../../src/webhook/index.js';
import { T0 } from '../store/fixtures.js';
import { deliverFuzzBody, fuzzBodies } from './webhook-fuzz-bodies.js';
import { SECRET, startListener, type Harness } from './webhook-fixtures.js';

const BODIES = 2000;

let h: Harness;
let agent: http.Agent;
beforeEach(async () => {
  h = await startListener();
  agent = new http.Agent({ keepAlive: true });
});
afterEach(async () => {
  agent.destroy();
  await h.close();
});

describe('webhook listener under fuzzing', () => {
  it(`answers ${BODIES} hostile and genuine deliveries as expected, never 5xx, storing only first-seen genuine events`, async () => {
    const expectedUuids = new Set<string>();
    let expectedWakes = 0;
    const kinds = new Map<string, number>();
    const wrong: string[] = [];
    const serverErrors: string[] = [];
    let index = 0;
    for await (const fuzz of fuzzBodies(BODIES, {
      seed: 20261120,
      secret: SECRET,
      nowSeconds: Math.floor(T0 / 1000),
      bodyLimitBytes: DEFAULT_BODY_LIMIT_BYTES,
    })) {
      kinds.set(fuzz.kind, (kinds.get(fuzz.kind) ?? 0) + 1);
      if (fuzz.storesUuid !== undefined) expectedUuids.add(fuzz.storesUuid);
      if (fuzz.wakes) expectedWakes += 1;
      const { status, answer } = await deliverFuzzBody(h.url, fuzz, agent);
      if (status >= 500) serverErrors.push(`#${index} ${fuzz.kind}: ${status}`);
      if (status !== fuzz.status || (fuzz.answer !== undefined && answer !== fuzz.answer)) {
        wrong.push(`#${index} ${fuzz.kind}: expected ${fuzz.status} ${fuzz.answer ?? ''}, got ${status} ${String(answer)}`);
      }
      index += 1;
    }

    expect(serverErrors).toEqual([]);
    expect(wrong.slice(0, 10)).toEqual([]);
    // Every kind of delivery was tried, genuine ones often enough to matter.
    expect(kinds.size).toBeGreaterThanOrEqual(20);
    expect(expectedUuids.size).toBeGreaterThan(BODIES / 10);
    const rows = databaseOf(h.store).prepare('SELECT webhook_uuid AS uuid FROM webhook_inbox').all() as Array<{ uuid: string }>;
    expect(rows).toHaveLength(expectedUuids.size);
    expect(new Set(rows.map((row) => row.uuid))).toEqual(expectedUuids);
    expect(h.stored).toHaveLength(expectedWakes);
    expect(h.outcomes).toHaveLength(BODIES);
  }, 60_000);
});
