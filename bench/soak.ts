/**
 * A soak of `lendbot run` with restarts (issue 37's closing check): the real CLI in a child
 * process trades on a sandbox marketplace that keeps running in this process across the daemon's
 * restarts, with faults on (slow answers, some 500s, some list items that fail their schema) and
 * stretches where every call fails. Every --restart-every seconds the daemon is stopped, SIGKILL
 * and SIGTERM in turn, and started again. It records the SIGTERM exit codes and times, the
 * daemon's RSS, every /healthz answer against what it should have said, and, after each stop,
 * the money promised (at the sandbox and in the daemon's database) against the balance and any
 * request offered twice. Prints figures; asserts nothing.
 *
 * Run: node --import tsx bench/soak.ts [--minutes 30] [--restart-every 120] [--balance 300000]
 *        [--speed 600] [--arrivals 6] [--fail-seconds 150]
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { HOUR_MS } from '../src/clock/time-constants.js';
import { freePort } from '../src/daemon/free-port.js';
import { startSandbox } from '../src/sandbox/index.js';
import { childEnv } from '../test/daemon/child-daemon.js';
import { OFFER_ALL } from '../test/daemon/daemon-harness.js';
import { rssOf } from './process-rss.js';
import { expectedHealth, marketMoney, storedMoney, type FailingStretch } from './soak-checks.js';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '30' },
    'restart-every': { type: 'string', default: '120' },
    balance: { type: 'string', default: '300000' },
    speed: { type: 'string', default: '600' },
    arrivals: { type: 'string', default: '6' },
    'fail-seconds': { type: 'string', default: '150' },
  },
});
const MINUTES = Number(values.minutes);
const RESTART_EVERY_MS = Number(values['restart-every']) * 1000;
const FAIL_MS = Number(values['fail-seconds']) * 1000;
const ROOT = fileURLToPath(new URL('..', import.meta.url));
// `lendbot run`'s shutdown grace (src/cli/commands/run/index.ts): past it the daemon exits 1.
const SIGTERM_LIMIT_MS = 10_000;
const POLL_EVERY_S = 5;
// Degraded takes three failed polls in a row (poll.failures_before_degraded), each with its read
// retries (about 7.5 s) and the scheduler's back-off after a failed run: 44 s measured from a
// start into a failing marketplace. Ok again takes one poll after that back-off.
const SETTLE = { toBadMs: 60_000, toOkMs: 60_000 };
const FAULTS = { latencyMs: 100, errorRate: 0.03, malformedRate: 0.01 };
// The daemon runs on real time, the sandbox `speed` times faster: an offer's reservation
// (risk.offer_expiry_hours) lasts twice the borrowers' longest wait (30 simulated hours,
// src/sandbox/competitor-model.ts) in real hours. At 72 real hours, every offer lost at the
// sandbox kept its money reserved for the whole soak and offers stopped once the first ones filled the balance.
const EXPIRY_HOURS = 60 / Number(values.speed);
const EXPIRY_MS = EXPIRY_HOURS * HOUR_MS;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const usd = (cents: number) => (cents / 100).toLocaleString('en-US', { maximumFractionDigits: 0 });
const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(0);

const dir = mkdtempSync(join(tmpdir(), 'lendbot-soak-'));
const dbFile = join(dir, 'lendbot.db');
const configFile = join(dir, 'lendbot.yaml');
const port = await freePort();
writeFileSync(
  configFile,
  [
    `db: ${dbFile}`,
    // Offers on every request it can price, below risk level 3 (the daemon tests' strategy).
    `strategies: [${OFFER_ALL}]`,
    `webhook: { host: 127.0.0.1, port: ${port} }`,
    'ops: { port: 0 }',
    `poll: { schedule: "*/${POLL_EVERY_S} * * * * *", at_start: true }`,
    'jobs: { balance_refresh: "*/15 * * * * *", reconcile: "*/15 * * * * *", retrain: off }',
    // Only the balance binds: the caps would stop the flow of offers long before it.
    `risk: { max_open_exposure: null, max_per_borrower: null, max_amount_per_day: null, offer_expiry_hours: ${EXPIRY_HOURS} }`,
    '',
  ].join('\n'),
);

const sandbox = await startSandbox({ speed: Number(values.speed), arrivalsPerHour: Number(values.arrivals), seed: 37 });
sandbox.control.setBalance(Math.round(Number(values.balance) * 100));
sandbox.control.setFaults(FAULTS);
const subscription = sandbox.control.subscribe(`http://127.0.0.1:${port}/webhooks`, 'soak@example.com');
const env = childEnv(sandbox);
delete env.LENDBOT_READ_RETRIES; // the default retries, as a deployment has them

// As `npm start` does: compile dist/ when stale, so the compiled daemon is measured.
spawnSync(process.execPath, ['bin/build-dist.js', '--if-stale'], { cwd: ROOT, stdio: 'inherit' });

interface Running {
  child: ChildProcess;
  startMs: number;
  exited: Promise<number | null>;
}
function startDaemon(): Running {
  const child = spawn(process.execPath, ['--max-semi-space-size=2', 'bin/lendbot.js', 'run', '--config', configFile], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  void exited.then((code) => code !== 0 && code !== null && console.log(`  daemon exit ${code}: ${stderr.trim().slice(-400)}`));
  sandbox.control.reactivate(subscription.id); // deliveries while it was down may have paused it
  return { child, startMs: Date.now(), exited };
}

const runStart = Date.now();
const endMs = runStart + MINUTES * 60_000;
// Every call fails for FAIL_MS at a third and at two thirds of the run.
const stretches: FailingStretch[] = [1 / 3, 2 / 3].map((at) => ({ fromMs: runStart + at * MINUTES * 60_000, toMs: 0 }));
for (const s of stretches) s.toMs = s.fromMs + FAIL_MS;

const rss: Array<{ atMs: number; bytes: number }> = [];
// Per failing stretch: seconds from its start to the first answer that was not ok, from its end to the first ok.
const lags = stretches.map(() => ({ toBad: NaN, toOk: NaN }));
const health = { ok: 0, degraded: 0, failing: 0, noAnswer: 0, judged: 0, truthful: 0, lies: [] as string[] };
const sigterms: Array<{ code: number | null; ms: number }> = [];
let kills = 0;
let maxMarket = { ratio: 0, pendingCents: 0, balanceCents: 0 };
let maxStored = { ratio: 0, reservedCents: 0, balanceCents: 0 };
const duplicates = { market: 0, stored: 0 };
let unsettledAtStops = 0;

function sampleMarket(): void {
  const money = marketMoney(sandbox);
  const ratio = money.balanceCents > 0 ? money.pendingCents / money.balanceCents : money.pendingCents > 0 ? Infinity : 0;
  if (ratio > maxMarket.ratio) maxMarket = { ratio, pendingCents: money.pendingCents, balanceCents: money.balanceCents };
  duplicates.market = Math.max(duplicates.market, money.duplicateRequests);
}

async function checkHealth(daemon: Running): Promise<void> {
  const atMs = Date.now();
  let status = 'no answer';
  try {
    const answer = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(3000) });
    status = ((await answer.json()) as { status: string }).status;
  } catch {
    // not listening yet (start-up) or too slow: counted, not judged
  }
  if (status === 'ok') health.ok += 1;
  else if (status === 'degraded') health.degraded += 1;
  else if (status === 'failing') health.failing += 1;
  else health.noAnswer += 1;
  stretches.forEach((stretch, i) => {
    const lag = lags[i];
    if (lag === undefined || status === 'no answer') return;
    if (atMs >= stretch.fromMs && status !== 'ok' && Number.isNaN(lag.toBad)) lag.toBad = (atMs - stretch.fromMs) / 1000;
    if (atMs >= stretch.toMs && status === 'ok' && Number.isNaN(lag.toOk)) lag.toOk = (atMs - stretch.toMs) / 1000;
  });
  const expected = expectedHealth(atMs, daemon.startMs, stretches, SETTLE);
  if (expected === undefined || status === 'no answer') return;
  health.judged += 1;
  if ((status === 'ok') === (expected === 'ok')) health.truthful += 1;
  else health.lies.push(`${((atMs - runStart) / 1000).toFixed(0)} s: said ${status}, expected ${expected}`);
}

async function afterStop(): Promise<void> {
  sampleMarket();
  const stored = await storedMoney(dbFile, EXPIRY_MS);
  const ratio = stored.balanceCents > 0 ? stored.reservedCents / stored.balanceCents : 0;
  if (ratio > maxStored.ratio) maxStored = { ratio, reservedCents: stored.reservedCents, balanceCents: stored.balanceCents };
  duplicates.stored = Math.max(duplicates.stored, stored.duplicateRequests);
  unsettledAtStops += stored.unsettled;
}

let restarts = 0;
let daemon = startDaemon();
let nextRestart = runStart + RESTART_EVERY_MS;
let tick = 0;
while (Date.now() < endMs) {
  await sleep(2000);
  tick += 1;
  const now = Date.now();
  const failing = stretches.some((s) => now >= s.fromMs && now < s.toMs);
  sandbox.control.setFaults(failing ? { ...FAULTS, errorRate: 1 } : FAULTS);
  await checkHealth(daemon);
  if (tick % 3 === 0) {
    rss.push({ atMs: now, bytes: rssOf(daemon.child.pid ?? 0) });
    sampleMarket();
  }
  if (now >= nextRestart && now < endMs - 30_000) {
    const signal = restarts % 2 === 0 ? 'SIGKILL' : 'SIGTERM';
    const stopAt = Date.now();
    daemon.child.kill(signal);
    const code = await daemon.exited;
    if (signal === 'SIGTERM') sigterms.push({ code, ms: Date.now() - stopAt });
    else kills += 1;
    restarts += 1;
    await afterStop();
    console.log(
      `${((Date.now() - runStart) / 60_000).toFixed(1)} min: ${signal}${signal === 'SIGTERM' ? ` exit ${code} in ${Date.now() - stopAt} ms` : ''}, ` +
        `${marketMoney(sandbox).offers} offers so far`,
    );
    daemon = startDaemon();
    nextRestart = Date.now() + RESTART_EVERY_MS;
  }
}
const lastStop = Date.now();
daemon.child.kill('SIGTERM');
sigterms.push({ code: await daemon.exited, ms: Date.now() - lastStop });
await afterStop();
const final = marketMoney(sandbox);
await sandbox.close();

const quarters = [0, 1, 2, 3].map((q) => {
  const from = runStart + (q * (endMs - runStart)) / 4;
  const part = rss.filter((s) => s.atMs >= from && s.atMs < from + (endMs - runStart) / 4 && s.bytes > 0).map((s) => s.bytes);
  return part.length === 0 ? '-' : `${mb(Math.min(...part))}-${mb(Math.max(...part))}`;
});
const within = sigterms.filter((s) => s.code === 0 && s.ms <= SIGTERM_LIMIT_MS).length;
const rows: Array<[string, string]> = [
  ['minutes run', ((Date.now() - runStart) / 60_000).toFixed(1)],
  ['restarts (SIGKILL / SIGTERM)', `${restarts} (${kills} / ${restarts - kills}), plus the final SIGTERM`],
  ['offers made (at the sandbox)', String(final.offers)],
  [
    'offers by status',
    Object.entries(final.byStatus)
      .map(([status, n]) => `${status} ${n}`)
      .join(', '),
  ],
  ['duplicate offers (sandbox / database)', `${duplicates.market} / ${duplicates.stored}`],
  [
    'max pending vs balance (sandbox, every 6 s)',
    `${usd(maxMarket.pendingCents)} of ${usd(maxMarket.balanceCents)} USD (${(maxMarket.ratio * 100).toFixed(1)} %)`,
  ],
  [
    'max reserved vs known balance (database, at stops)',
    `${usd(maxStored.reservedCents)} of ${usd(maxStored.balanceCents)} USD (${(maxStored.ratio * 100).toFixed(1)} %)`,
  ],
  ['offers unsettled at the stops (summed)', String(unsettledAtStops)],
  ['daemon RSS per quarter, MB (min-max)', quarters.join(', ')],
  [
    'SIGTERM exits within 10 s with code 0',
    `${within} of ${sigterms.length} (codes ${sigterms.map((s) => s.code).join(' ')}; ms ${sigterms.map((s) => s.ms).join(' ')})`,
  ],
  ['healthz answers (ok / degraded / failing / none)', `${health.ok} / ${health.degraded} / ${health.failing} / ${health.noAnswer}`],
  ['healthz truthful (of those judged)', `${health.truthful} of ${health.judged}`],
  ['failing stretches: s to first not-ok / to ok again', lags.map((lag) => `${lag.toBad.toFixed(0)} / ${lag.toOk.toFixed(0)}`).join('; ')],
];
console.log(
  `\nsoak: ${MINUTES} min, restart every ${RESTART_EVERY_MS / 1000} s, balance ${values.balance} USD, sandbox speed ${values.speed}, reservations ${(EXPIRY_HOURS * 60).toFixed(0)} min, ` +
    `${values.arrivals} requests per simulated hour, faults ${JSON.stringify(FAULTS)}, every call failing for ${FAIL_MS / 1000} s twice; /healthz judged ${SETTLE.toBadMs / 1000} s into a failing stretch or a start, ${SETTLE.toOkMs / 1000} s after`,
);
for (const [label, value] of rows) console.log(`${label.padEnd(52)} ${value}`);
for (const lie of health.lies.slice(0, 20)) console.log(`  healthz untruthful at ${lie}`);
rmSync(dir, { recursive: true, force: true });
