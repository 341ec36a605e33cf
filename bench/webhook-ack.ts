// Webhook acknowledgement throughput with the durable inbox, against a bare handler, in one run.
//
//   baseline: fastify + jose verifying the same HS256 token and answering 200 (no store at all);
//   lendbot:  the whole daemon (createDaemon: the real listener, the SQLite inbox in a temp dir at
//             the configured `store.synchronous`, the inbox worker settling every event).
//
// A child process (this file with --role load) signs the tokens beforehand and POSTs each burst
// of --events deliveries with --concurrency in flight over keep-alive connections, so the sender
// does not share the servers' event loop. Bursts alternate (baseline, lendbot) --bursts times;
// the medians are printed with their ratio. The events are `new_loan_request_created` for
// crypto-backed requests, which the default risk limits drop before any marketplace call, so the
// daemon's work per event is the inbox insert before the 200 and `markProcessed` after it.
// "lost" counts acknowledged events missing from the inbox afterwards (must be 0).
//
// Run: node --import tsx bench/webhook-ack.ts [--events N] [--bursts B] [--concurrency C] [--synchronous normal|full]
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import fastify from 'fastify';
import { jwtVerify } from 'jose';
import { createDaemon } from '../src/daemon/daemon.js';
import { daemonConfigSchema } from '../src/daemon/daemon-config.js';
import { freePort } from '../src/daemon/free-port.js';
import { loadStrategyFile } from '../src/engine/index.js';
import { silentLogger } from '../src/log/logger.js';
import type { MarketplaceApi } from '../src/service/index.js';
import { openStore } from '../src/store/index.js';
import { webhookKey } from '../src/webhook/index.js';
import { postDelivery, signedDeliveries } from './webhook-deliveries.js';

const { values } = parseArgs({
  options: {
    role: { type: 'string', default: 'main' },
    events: { type: 'string', default: '2000' },
    bursts: { type: 'string', default: '4' },
    concurrency: { type: 'string', default: '16' },
    synchronous: { type: 'string', default: 'normal' },
  },
});
const SECRET = 'whsec-bench-secret-0123456789abcdef';

interface BurstRequest {
  url: string;
  events: number;
  concurrency: number;
  /** Distinct per burst, so every lendbot delivery is a new event. */
  prefix: number;
}
interface BurstResult {
  ms: number;
  ok: number;
  failed: number;
  acked: string[];
}

// ---- the sender (child process) ----

async function burst(request: BurstRequest): Promise<BurstResult> {
  const bodies = await signedDeliveries(SECRET, request.prefix, request.events);
  const agent = new http.Agent({ keepAlive: true, maxSockets: request.concurrency });
  const url = new URL(request.url);
  const acked: string[] = [];
  let failed = 0;
  let next = 0;
  const began = performance.now();
  const lane = async (): Promise<void> => {
    while (next < bodies.length) {
      const { uuid, body } = bodies[next++]!;
      const status = await postDelivery(agent, url, body);
      if (status === 200) acked.push(uuid);
      else failed += 1;
    }
  };
  await Promise.all(Array.from({ length: request.concurrency }, lane));
  const ms = performance.now() - began;
  agent.destroy();
  return { ms, ok: acked.length, failed, acked };
}

if (values.role === 'load') {
  process.on('message', (message: BurstRequest) => {
    void burst(message).then((result) => process.send?.(result));
  });
} else {
  await main();
}

// ---- the servers (main process) ----

async function main(): Promise<void> {
  const events = Number(values.events);
  const bursts = Number(values.bursts);
  const concurrency = Number(values.concurrency);
  const synchronous = values.synchronous;
  if (
    ![events, bursts, concurrency].every((n) => Number.isSafeInteger(n) && n > 0) ||
    (synchronous !== 'normal' && synchronous !== 'full')
  ) {
    console.error('usage: node --import tsx bench/webhook-ack.ts [--events N] [--bursts B] [--concurrency C] [--synchronous normal|full]');
    process.exit(2);
  }

  const sender = fork(fileURLToPath(import.meta.url), ['--role', 'load'], {
    execArgv: process.execArgv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let prefix = 1;
  const send = (url: string): Promise<BurstResult> =>
    new Promise((resolve) => {
      sender.once('message', (result: BurstResult) => resolve(result));
      sender.send({ url, events, concurrency, prefix: prefix++ } satisfies BurstRequest);
    });

  // Baseline: the least a listener can do and still check the signature.
  const key = webhookKey(SECRET);
  const bare = fastify();
  bare.post('/webhooks', async (request) => {
    const { token } = request.body as { token: string };
    await jwtVerify(token, key, { algorithms: ['HS256'] });
    return { status: 'accepted' };
  });
  const bareUrl = `${await bare.listen({ port: 0, host: '127.0.0.1' })}/webhooks`;

  // lendbot: the daemon as `lendbot run` builds it; no marketplace call is expected.
  const dir = mkdtempSync(join(tmpdir(), 'lendbot-bench-ack-'));
  const port = await freePort();
  const config = daemonConfigSchema.parse({
    db: join(dir, 'lendbot.db'),
    log_level: 'silent',
    webhook: { host: '127.0.0.1', port },
    poll: { schedule: 'off', at_start: false },
    jobs: { balance_refresh: 'off', reconcile: 'off', fund_accepted: 'off', protections: 'off' },
    store: { synchronous },
  });
  const unexpectedCall = new Proxy(
    {},
    { get: (_target, name) => () => Promise.reject(new Error(`unexpected marketplace call ${String(name)}`)) },
  ) as MarketplaceApi;
  // Opened here at the chosen level (the daemon would open config.db the same way).
  const store = openStore(config.db, { synchronous: config.store.synchronous });
  const strategy = await loadStrategyFile(fileURLToPath(new URL('../strategies/balanced.yaml', import.meta.url)));
  const daemon = await createDaemon(
    config,
    {},
    { store, client: unexpectedCall, log: silentLogger, webhookSecret: SECRET, strategies: [strategy] },
  );
  await daemon.start();

  const baseline: number[] = [];
  const lendbot: number[] = [];
  let lost = 0;
  let failed = 0;
  try {
    // One burst each to warm up (JIT, connections, the SQLite page cache); not counted.
    await send(bareUrl);
    await send(daemon.webhookUrl);
    for (let round = 0; round < bursts; round += 1) {
      const a = await send(bareUrl);
      baseline.push((a.ok / a.ms) * 1000);
      const b = await send(daemon.webhookUrl);
      lendbot.push((b.ok / b.ms) * 1000);
      failed += a.failed + b.failed;
      await daemon.inbox.drain();
      await daemon.pipeline.idle();
      lost += b.acked.filter((uuid) => daemon.store.inbox.get(uuid) === undefined).length;
      console.log(`burst ${round + 1}: baseline ${a.ok} in ${a.ms.toFixed(0)} ms, lendbot ${b.ok} in ${b.ms.toFixed(0)} ms`);
    }
  } finally {
    sender.kill();
    await bare.close();
    await daemon.stop();
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const b = median(baseline);
  const l = median(lendbot);
  console.log(`events per burst ${events}, bursts ${bursts}, concurrency ${concurrency}, store.synchronous ${synchronous}`);
  console.log(`baseline (bare fastify + jose)      ${b.toFixed(0)} acks/s (median)`);
  console.log(`lendbot (daemon, durable inbox)     ${l.toFixed(0)} acks/s (median)`);
  console.log(`ratio lendbot/baseline              ${(l / b).toFixed(2)}`);
  console.log(`lost ${lost}, non-200 answers ${failed}`);
  process.exit(lost === 0 && failed === 0 ? 0 : 1);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
