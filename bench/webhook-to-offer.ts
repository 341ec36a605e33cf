// Webhook received to offer POST sent: lendbot's own time, against a minimal bot, in one run.
//
// The marketplace is the sandbox, run in a child process (this file with --role market) so its
// work never shares the bots' event loop. For each event the market creates a loan request, signs
// its `new_loan_request_created` webhook and times, at its own HTTP server, from just before the
// webhook POST leaves to the moment the bot's make_offer POST arrives. The time the market spent
// answering the bot's other calls in between (list, banking data, balance: arrival to response
// sent, taken at the raw server) is subtracted, so what is left is the bot's own time plus the
// loopback hops.
//
//   baseline: a minimal bot: fastify + jose verify, the same marketplace client, list (narrowed by
//             the event's amount) to find the request, banking data, make_offer at a fixed rate.
//   lendbot:  the daemon (createDaemon) with the shipped balanced strategy, its SQLite store in a
//             temp dir, risk caps off and a large balance so every event can end in an offer.
// Events alternate (baseline, lendbot) one at a time, after --warmup events each. Both bots share
// this process and the market, so load on the machine falls on both: each quantile (p50, p90,
// p99) is printed for both and compared with the bot's own, never with a figure from another run.
// --steps also prints the daemon's own step timings (enrich, decide, guard, act) from its
// decision rows.
//
// Run: node --import tsx bench/webhook-to-offer.ts [--events N] [--warmup W] [--synchronous normal|full] [--steps]
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import fastify from 'fastify';
import { jwtVerify, SignJWT } from 'jose';
import { createDaemon } from '../src/daemon/daemon.js';
import { daemonConfigSchema } from '../src/daemon/daemon-config.js';
import { freePort } from '../src/daemon/free-port.js';
import { loadStrategyFile } from '../src/engine/index.js';
import { silentLogger } from '../src/log/logger.js';
import { createControl } from '../src/sandbox/control.js';
import { SandboxRuntime } from '../src/sandbox/runtime.js';
import { buildServer } from '../src/sandbox/server/app.js';
import { marketShape } from '../src/sandbox/shapes/index.js';
import { manualDrivenClock } from '../src/sandbox/sim-clock.js';
import { DEFAULT_PROVIDER_NAMES } from '../src/sandbox/index.js';
import { NEW_LOAN_REQUEST_TOPIC } from '../src/domain/index.js';
import { reasonText } from '../src/domain/decision-reason.js';
import { createMarketplaceClient, DEFAULT_RETRY, type MarketplaceClient } from '../src/service/index.js';
import { openStore } from '../src/store/index.js';
import { webhookKey } from '../src/webhook/index.js';

const { values } = parseArgs({
  options: {
    role: { type: 'string', default: 'main' },
    events: { type: 'string', default: '300' },
    warmup: { type: 'string', default: '30' },
    synchronous: { type: 'string', default: 'normal' },
    steps: { type: 'boolean', default: false },
  },
});

const CREDENTIALS = { apiKey: 'sbx_key_bench', secretKey: 'sbx_secret_bench', webhookSecret: 'sbx_whsec_bench' };

interface EventRequest {
  webhookUrl: string;
}
interface EventResult {
  /** Webhook POST leaving the market to make_offer arriving, ms; undefined when no offer came. */
  totalMs?: number | undefined;
  /** The market's own time answering the bot's calls in between, ms. */
  marketMs: number;
  calls: number;
}

// ---- the market (child process) ----

async function runMarket(): Promise<void> {
  const startMs = Date.now();
  const clock = manualDrivenClock(startMs);
  const runtime = new SandboxRuntime({
    seed: 11,
    arrivalsPerHour: 0.0001,
    initialBalanceCents: 1_000_000_000,
    clock,
    webhookSecret: CREDENTIALS.webhookSecret,
    webhookTimeoutMs: 60_000,
    providerNames: DEFAULT_PROVIDER_NAMES,
    log: silentLogger,
    shape: marketShape(undefined),
  });
  const control = createControl(runtime, CREDENTIALS.webhookSecret);
  const app = buildServer(runtime, control, CREDENTIALS, undefined);
  await app.ready();

  // Timestamps at the raw server: a request's arrival and the end of its answer.
  let window: { offerFor: number; calls: Array<{ at: number; end?: number }>; resolveOffer: (at: number) => void } | undefined;
  app.server.prependListener('request', (request: http.IncomingMessage, response: http.ServerResponse) => {
    const at = performance.now();
    const current = window;
    if (current === undefined) return;
    if (request.method === 'POST' && request.url?.includes(`/loan_requests/${current.offerFor}/make_offer/`)) {
      current.resolveOffer(at);
      return;
    }
    const call: { at: number; end?: number } = { at };
    current.calls.push(call);
    response.on('finish', () => (call.end = performance.now()));
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  const key = webhookKey(CREDENTIALS.webhookSecret);
  const agent = new http.Agent({ keepAlive: true });
  let sequence = 0;

  async function runEvent(message: EventRequest): Promise<EventResult> {
    // A borrower every strategy here would lend to.
    const request = control.createLoanRequest({
      svcColor: 0,
      creditScore: 780,
      completedLoans: 5,
      hasBankingData: true,
      maxInterestRate: 1.2,
      competitorOffers: 0,
    });
    sequence += 1;
    const data = {
      loan_request_id: request.id,
      loan_request_amount: Number(request.loan_amount),
      loan_request_type: 'cash',
      has_banking_data: true,
      automated_loan_request: false,
    };
    const uuid = `00000000-0000-4000-8000-${String(sequence).padStart(12, '0')}`;
    const token = await new SignJWT({ webhook_uuid: uuid, topic: NEW_LOAN_REQUEST_TOPIC, data })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt(Math.floor(Date.now() / 1000))
      .sign(key);
    const body = JSON.stringify({ token });
    let resolveOffer!: (at: number) => void;
    const offer = new Promise<number | undefined>((resolve) => {
      resolveOffer = resolve;
      setTimeout(() => resolve(undefined), 2_000).unref();
    });
    const current = { offerFor: request.id, calls: [] as Array<{ at: number; end?: number }>, resolveOffer };
    window = current;
    const sent = performance.now();
    const webhook = new Promise<void>((resolve) => {
      const post = http.request(
        message.webhookUrl,
        {
          method: 'POST',
          agent,
          headers: { 'content-type': 'application/json', 'x-svc-topic': NEW_LOAN_REQUEST_TOPIC, 'content-length': Buffer.byteLength(body) },
        },
        (response) => {
          response.resume();
          response.on('end', () => resolve());
        },
      );
      post.on('error', () => resolve());
      post.end(body);
    });
    const arrived = await offer;
    await webhook;
    window = undefined;
    const end = arrived ?? performance.now();
    const marketMs = current.calls.reduce((sum, call) => sum + (Math.min(call.end ?? end, end) - call.at), 0);
    return { totalMs: arrived === undefined ? undefined : arrived - sent, marketMs, calls: current.calls.length };
  }

  process.on('message', (message: EventRequest | 'stop') => {
    if (message === 'stop') {
      agent.destroy();
      void app.close().then(() => process.exit(0));
      return;
    }
    void runEvent(message).then((result) => process.send?.(result));
  });
  process.send?.({ url, startMs });
}

if (values.role === 'market') {
  await runMarket();
} else {
  await main();
}

// ---- the bots (main process) ----

function clientFor(url: string): MarketplaceClient {
  return createMarketplaceClient(
    {
      baseUrl: url,
      apiKey: CREDENTIALS.apiKey,
      secretKey: CREDENTIALS.secretKey,
      signatureMode: 'timestamp-secret',
      numericRangeFormat: 'min-max-params',
      timeoutMs: 5000,
      retry: DEFAULT_RETRY,
    },
    {},
  );
}

/** The least a bot can do for a webhook: verify, find the request, look at its banking data, offer. */
async function startMinimalBot(marketUrl: string): Promise<{ url: string; close: () => Promise<void> }> {
  const client = clientFor(marketUrl);
  const key = webhookKey(CREDENTIALS.webhookSecret);
  const app = fastify();
  const handle = async (id: number, amount: number): Promise<void> => {
    for await (const page of client.loanRequestPages({ loanAmount: { min: Math.floor(amount), max: Math.ceil(amount) } })) {
      if (!page.items.some((item) => item.id === id)) continue;
      await client.fetchBankingData(id);
      await client.makeOffer(id, { offeredInterest: 0.2, automateFund: true });
      return;
    }
  };
  app.post('/webhooks', async (request) => {
    const { token } = request.body as { token: string };
    const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] });
    const data = payload.data as { loan_request_id: number; loan_request_amount: number };
    handle(data.loan_request_id, data.loan_request_amount).catch(() => undefined);
    return { status: 'accepted' };
  });
  const url = `${await app.listen({ port: 0, host: '127.0.0.1' })}/webhooks`;
  return { url, close: () => app.close() };
}

async function main(): Promise<void> {
  const events = Number(values.events);
  const warmup = Number(values.warmup);
  const synchronous = values.synchronous;
  if (
    !Number.isSafeInteger(events) ||
    events < 1 ||
    !Number.isSafeInteger(warmup) ||
    warmup < 0 ||
    (synchronous !== 'normal' && synchronous !== 'full')
  ) {
    console.error('usage: node --import tsx bench/webhook-to-offer.ts [--events N] [--warmup W] [--synchronous normal|full] [--steps]');
    process.exit(2);
  }
  const market = fork(fileURLToPath(import.meta.url), ['--role', 'market'], {
    execArgv: process.execArgv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const { url: marketUrl } = await new Promise<{ url: string }>((resolve) => market.once('message', resolve));
  const runEvent = (webhookUrl: string): Promise<EventResult> =>
    new Promise((resolve) => {
      market.once('message', resolve);
      market.send({ webhookUrl } satisfies EventRequest);
    });

  const bot = await startMinimalBot(marketUrl);
  const dir = mkdtempSync(join(tmpdir(), 'lendbot-bench-offer-'));
  const config = daemonConfigSchema.parse({
    db: join(dir, 'lendbot.db'),
    log_level: 'silent',
    webhook: { host: '127.0.0.1', port: await freePort() },
    poll: { schedule: 'off', at_start: false },
    jobs: { balance_refresh: 'off', reconcile: 'off', fund_accepted: 'off', protections: 'off' },
    risk: { max_open_exposure: null, max_per_borrower: null, max_amount_per_day: null },
    store: { synchronous },
  });
  // Opened here at the chosen level (the daemon would open config.db the same way).
  const store = openStore(config.db, { synchronous: config.store.synchronous });
  const strategy = await loadStrategyFile(fileURLToPath(new URL('../strategies/balanced.yaml', import.meta.url)));
  const daemon = await createDaemon(
    config,
    {},
    { store, client: clientFor(marketUrl), log: silentLogger, webhookSecret: CREDENTIALS.webhookSecret, strategies: [strategy] },
  );
  await daemon.start();
  const skips = new Map<string, number>();
  daemon.pipeline.onDecided((_request, _source, result) => {
    if (result.action === 'offer') return;
    const last = result.reasons.at(-1);
    const key = last === undefined ? '?' : reasonText(last);
    skips.set(key, (skips.get(key) ?? 0) + 1);
  });

  const own: Record<'baseline' | 'lendbot', number[]> = { baseline: [], lendbot: [] };
  const calls: Record<'baseline' | 'lendbot', number> = { baseline: 0, lendbot: 0 };
  const missed: Record<'baseline' | 'lendbot', number> = { baseline: 0, lendbot: 0 };
  try {
    for (let i = 0; i < warmup + events; i += 1) {
      for (const who of ['baseline', 'lendbot'] as const) {
        const result = await runEvent(who === 'baseline' ? bot.url : daemon.webhookUrl);
        // Let the bot finish what follows the POST (marking it placed, the decision row) before the next event.
        await settle(who === 'lendbot' ? daemon : undefined);
        if (i < warmup) continue;
        if (result.totalMs === undefined) {
          missed[who] += 1;
          continue;
        }
        own[who].push(result.totalMs - result.marketMs);
        calls[who] += result.calls;
      }
    }
  } finally {
    market.send('stop');
    await bot.close();
    if (values.steps) {
      const { databaseOf } = await import('../src/store/index.js');
      const rows = databaseOf(daemon.store).prepare("SELECT timings_json FROM decisions WHERE action = 'offer'").all() as Array<{
        timings_json: string;
      }>;
      const steps = new Map<string, number[]>();
      for (const row of rows)
        for (const [step, ms] of Object.entries(JSON.parse(row.timings_json) as Record<string, number>))
          steps.set(step, [...(steps.get(step) ?? []), ms]);
      for (const [step, ms] of steps) console.log(`lendbot step ${step} p50 ${quantile(ms, 0.5)} p99 ${quantile(ms, 0.99)}`);
    }
    await daemon.stop();
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(
    `events ${events} each (after ${warmup} warm-up), store.synchronous ${synchronous}; ms from webhook sent to make_offer received, market time subtracted`,
  );
  for (const who of ['baseline', 'lendbot'] as const) {
    const times = own[who];
    const name = who === 'baseline' ? 'baseline (minimal bot)' : 'lendbot (daemon, balanced)';
    console.log(
      `${name.padEnd(30)} p50 ${quantile(times, 0.5).toFixed(2)}  p90 ${quantile(times, 0.9).toFixed(2)}  p99 ${quantile(times, 0.99).toFixed(2)}  ` +
        `(offers ${times.length}, no offer ${missed[who]}, market calls per event ${(calls[who] / Math.max(1, times.length)).toFixed(1)})`,
    );
  }
  if (skips.size > 0) console.log(`lendbot skipped: ${[...skips].map(([reason, n]) => `${n} x ${reason}`).join('; ')}`);
  // Both bots share this process and the market, so each quantile is compared with the bot's own.
  const ratio = (q: number): string => (quantile(own.lendbot, q) / quantile(own.baseline, q)).toFixed(2);
  console.log(`ratio lendbot/baseline p50 ${ratio(0.5)}  p90 ${ratio(0.9)}  p99 ${ratio(0.99)}`);
}

async function settle(daemon: Awaited<ReturnType<typeof createDaemon>> | undefined): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 5));
  if (daemon === undefined) return;
  while (daemon.pipeline.inFlight > 0 || daemon.store.inbox.depth() > 0) await new Promise((resolve) => setTimeout(resolve, 1));
}

function quantile(values: number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}
