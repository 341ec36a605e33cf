// The webhook listener under a long fuzz run: seeded hostile and genuine deliveries (the bodies of
// test/webhook/webhook-fuzz-bodies.ts) POSTed one after another to the real listener with a real
// SQLite inbox in a temp dir. Prints figures; nothing asserts on them, but the run exits 1 if any
// answer was a 5xx or differed from what the body expects, or the inbox holds anything but the
// genuine first-seen events.
// Run: node --import tsx bench/webhook-fuzz.ts [--bodies N] [--seed S]   (default 20,000 bodies)
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { ManualClock } from '../src/clock/clock.js';
import { silentLogger } from '../src/log/logger.js';
import { databaseOf, openStore } from '../src/store/index.js';
import { buildWebhookServer, DEFAULT_BODY_LIMIT_BYTES } from '../src/webhook/index.js';
import { deliverFuzzBody, fuzzBodies } from '../test/webhook/webhook-fuzz-bodies.js';

const { values } = parseArgs({ options: { bodies: { type: 'string', default: '20000' }, seed: { type: 'string', default: '1' } } });
const bodies = Number(values.bodies);
const seed = Number(values.seed);
if (!Number.isSafeInteger(bodies) || bodies < 1 || !Number.isSafeInteger(seed)) {
  console.error('usage: node --import tsx bench/webhook-fuzz.ts [--bodies N] [--seed S]');
  process.exit(2);
}

const secret = 'whsec-bench-secret-0123456789abcdef';
const clock = new ManualClock('2026-11-20T14:00:00Z');
const dir = mkdtempSync(join(tmpdir(), 'lendbot-bench-webhook-'));
const store = openStore(join(dir, 'lendbot.db'));
let wakes = 0;
const server = buildWebhookServer({ secret, inbox: store.inbox, clock, log: silentLogger, worker: { wake: () => (wakes += 1) } });
const agent = new http.Agent({ keepAlive: true });

try {
  const url = `${await server.listen({ port: 0, host: '127.0.0.1' })}/webhooks`;
  const byStatus = new Map<number, number>();
  const byKind = new Map<string, number>();
  const expectedUuids = new Set<string>();
  let expectedWakes = 0;
  let unexpected = 0;
  let serverErrors = 0;
  let postMs = 0;
  const began = performance.now();
  for await (const fuzz of fuzzBodies(bodies, {
    seed,
    secret,
    nowSeconds: Math.floor(clock.now() / 1000),
    bodyLimitBytes: DEFAULT_BODY_LIMIT_BYTES,
  })) {
    if (fuzz.storesUuid !== undefined) expectedUuids.add(fuzz.storesUuid);
    if (fuzz.wakes) expectedWakes += 1;
    byKind.set(fuzz.kind, (byKind.get(fuzz.kind) ?? 0) + 1);
    const sent = performance.now();
    const { status, answer } = await deliverFuzzBody(url, fuzz, agent);
    postMs += performance.now() - sent;
    byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
    if (status >= 500) serverErrors += 1;
    if (status !== fuzz.status || (fuzz.answer !== undefined && answer !== fuzz.answer)) {
      unexpected += 1;
      if (unexpected <= 5)
        console.error(`unexpected: ${fuzz.kind}: expected ${fuzz.status} ${fuzz.answer ?? ''}, got ${status} ${String(answer)}`);
    }
  }
  const seconds = (performance.now() - began) / 1000;
  const stored = (databaseOf(store).prepare('SELECT COUNT(*) AS n FROM webhook_inbox').get() as { n: number }).n;

  console.log(`bodies sent                 ${bodies.toLocaleString()} (seed ${seed})`);
  for (const [status, count] of [...byStatus].sort(([a], [b]) => a - b))
    console.log(`  status ${status}                ${count.toLocaleString()}`);
  console.log(`5xx answers                 ${serverErrors}`);
  console.log(`answers not as expected     ${unexpected}`);
  console.log(`stored events               ${stored.toLocaleString()} (expected ${expectedUuids.size.toLocaleString()})`);
  console.log(`pipeline wake-ups           ${wakes.toLocaleString()} (expected ${expectedWakes.toLocaleString()})`);
  console.log(
    `bodies/s                    ${(bodies / seconds).toFixed(0)} (${seconds.toFixed(1)} s; ${(postMs / bodies).toFixed(2)} ms a POST)`,
  );
  console.log('kinds:');
  for (const [kind, count] of [...byKind].sort(([, a], [, b]) => b - a)) console.log(`  ${kind.padEnd(28)} ${count.toLocaleString()}`);
  if (serverErrors > 0 || unexpected > 0 || stored !== expectedUuids.size || wakes !== expectedWakes) process.exitCode = 1;
} finally {
  agent.destroy();
  await server.close();
  store.close();
  rmSync(dir, { recursive: true, force: true });
}
