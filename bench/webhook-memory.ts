/**
 * Resident memory of the daemon after webhooks in bursts, beside a bare listener's (issue 39:
 * at or under 120 MB over 90 s after 6,000 webhooks; figures printed, never asserted).
 *
 *   baseline: a bare fastify + jose listener verifying the same HS256 tokens and answering 200,
 *             nothing stored, in a node process of its own;
 *   lendbot:  the compiled daemon (dist/, createDaemon as `lendbot run` builds it: the real
 *             listener, the SQLite inbox and decisions in a temp dir, the inbox worker, the pino
 *             logger at info writing JSON to a pipe), in a node process of its own.
 *
 * This process signs the tokens and POSTs --bursts bursts of --events deliveries each, with
 * --concurrency in flight and --pause seconds between bursts, to each listener in turn; then it
 * samples each listener's RSS (/proc) every --interval seconds for --watch seconds. The events are
 * `new_loan_request_created` for crypto-backed requests, which the default risk limits skip
 * before any marketplace call (bench/webhook-ack.ts does the same), so each event is a stored
 * inbox row and a skip decision; any marketplace call is refused.
 *
 * Run: node --import tsx bench/webhook-memory.ts [--events 1000] [--bursts 6] [--concurrency 16]
 *        [--pause 2] [--watch 90] [--interval 5] [--flags "--max-semi-space-size=1"]
 *   --flags  node flags of both processes (default: the start script's, --max-semi-space-size=2;
 *            "" for none)
 * Like `npm start`, it first compiles dist/ when it is out of date. Linux only (reads /proc).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { rssOf } from './process-rss.js';
import { postDelivery, signedDeliveries } from './webhook-deliveries.js';

/** The node flags of package.json's start script and the image (docs/operations.md). */
const START_FLAGS = '--max-semi-space-size=2';

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '1000' },
    bursts: { type: 'string', default: '6' },
    concurrency: { type: 'string', default: '16' },
    pause: { type: 'string', default: '2' },
    watch: { type: 'string', default: '90' },
    interval: { type: 'string', default: '5' },
    flags: { type: 'string', default: START_FLAGS },
  },
});
const [events, bursts, concurrency, pauseS, watchS, intervalS] = [
  values.events,
  values.bursts,
  values.concurrency,
  values.pause,
  values.watch,
  values.interval,
].map(Number) as [number, number, number, number, number, number];
const SECRET = 'whsec-bench-secret-0123456789abcdef';
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MB = 1024 * 1024;

// Each listener prints its webhook URL as its first line of stdout, then runs until killed.
const BASELINE = `
import fastify from 'fastify';
import { jwtVerify } from 'jose';
const key = new TextEncoder().encode(process.env.SECRET);
const app = fastify();
app.post('/webhooks', async (request) => {
  await jwtVerify(request.body.token, key, { algorithms: ['HS256'] });
  return { status: 'accepted' };
});
const url = await app.listen({ port: 0, host: '127.0.0.1' });
console.log(url + '/webhooks');
`;

const LENDBOT = `
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { createDaemon } from './dist/daemon/daemon.js';
import { daemonConfigSchema } from './dist/daemon/daemon-config.js';
import { freePort } from './dist/daemon/free-port.js';
import { loadStrategyFile } from './dist/engine/index.js';
const port = await freePort();
const config = daemonConfigSchema.parse({
  db: join(process.env.DIR, 'lendbot.db'),
  log_level: 'info',
  webhook: { host: '127.0.0.1', port },
  poll: { schedule: 'off', at_start: false },
  jobs: { balance_refresh: 'off', reconcile: 'off', fund_accepted: 'off', protections: 'off' },
});
const refuse = new Proxy({}, { get: (_t, name) => () => Promise.reject(new Error('unexpected marketplace call ' + String(name))) });
const strategy = await loadStrategyFile('strategies/balanced.yaml');
const daemon = await createDaemon(config, {}, { client: refuse, webhookSecret: process.env.SECRET, strategies: [strategy] });
await daemon.start();
process.stdout.write(daemon.webhookUrl + '\\n');
`;

interface Listener {
  child: ChildProcess;
  url: string;
}

function startListener(code: string, flags: readonly string[], env: Record<string, string>): Promise<Listener> {
  const child = spawn(process.execPath, [...flags, '--input-type=module', '-e', code], {
    cwd: ROOT,
    env: { ...process.env, ...env, SECRET },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let text = '';
    const onData = (chunk: Buffer): void => {
      text += chunk.toString('utf8');
      const first = /^(http\S+)$/m.exec(text);
      if (!first) return;
      // The daemon's log lines follow on the same pipe: read and dropped, as a log shipper would.
      child.stdout?.off('data', onData);
      child.stdout?.resume();
      resolve({ child, url: first[1] as string });
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`listener exited ${code} before listening`)));
  });
}

/** The bursts to one listener; the count of non-200 answers. */
async function sendBursts(url: string): Promise<number> {
  let failed = 0;
  for (let b = 0; b < bursts; b += 1) {
    const bodies = await signedDeliveries(SECRET, b + 1, events);
    const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
    let next = 0;
    const lane = async (): Promise<void> => {
      while (next < bodies.length) if ((await postDelivery(agent, new URL(url), bodies[next++]?.body ?? '')) !== 200) failed += 1;
    };
    await Promise.all(Array.from({ length: concurrency }, lane));
    agent.destroy();
    await new Promise((resolve) => setTimeout(resolve, pauseS * 1000));
  }
  return failed;
}

interface Watch {
  afterBursts: number;
  samples: number[];
  failed: number;
}

async function measure(label: string, code: string, flags: readonly string[], env: Record<string, string>): Promise<Watch> {
  const listener = await startListener(code, flags, env);
  const pid = listener.child.pid as number;
  const idle = rssOf(pid);
  const failed = await sendBursts(listener.url);
  const afterBursts = rssOf(pid);
  const samples: number[] = [];
  for (let t = 0; t <= watchS; t += intervalS) {
    samples.push(rssOf(pid));
    if (t + intervalS <= watchS) await new Promise((resolve) => setTimeout(resolve, intervalS * 1000));
  }
  listener.child.kill('SIGKILL');
  const mb = (bytes: number): string => (bytes / MB).toFixed(0);
  console.log(
    `${label}: idle ${mb(idle)} MB, right after the bursts ${mb(afterBursts)} MB, then every ${intervalS} s: ${samples.map(mb).join(' ')} MB`,
  );
  return { afterBursts, samples, failed };
}

if (![events, bursts, concurrency, watchS, intervalS].every((n) => Number.isSafeInteger(n) && n > 0) || !(pauseS >= 0)) {
  console.error(
    'usage: node --import tsx bench/webhook-memory.ts [--events N] [--bursts B] [--concurrency C] [--pause S] [--watch S] [--interval S] [--flags "..."]',
  );
  process.exit(2);
}
spawnSync(process.execPath, ['bin/build-dist.js', '--if-stale'], { cwd: ROOT, stdio: 'inherit' });
const dir = mkdtempSync(join(tmpdir(), 'lendbot-bench-webhook-memory-'));
try {
  console.log(`${bursts} bursts of ${events} webhooks, ${concurrency} in flight, ${pauseS} s apart; RSS watched for ${watchS} s`);
  const flags = (values.flags ?? '').split(/\s+/).filter(Boolean);
  console.log(`node flags of both: ${flags.join(' ') || 'none'}`);
  const baseline = await measure('baseline (bare fastify + jose)', BASELINE, flags, {});
  const lendbot = await measure('lendbot (compiled daemon)', LENDBOT, flags, { DIR: dir });
  const max = (w: Watch): string => (Math.max(...w.samples) / MB).toFixed(0);
  const last = (w: Watch): string => ((w.samples.at(-1) ?? 0) / MB).toFixed(0);
  console.log(
    `max over the ${watchS} s: baseline ${max(baseline)} MB, lendbot ${max(lendbot)} MB (last sample ${last(baseline)} vs ${last(lendbot)} MB)`,
  );
  console.log(`non-200 answers: baseline ${baseline.failed}, lendbot ${lendbot.failed}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
