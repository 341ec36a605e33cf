// `lendbot status` on a database a fast sandbox run wrote: every row carries the sandbox's
// simulated clock (here five years ahead of this machine's, an hour a second), so status must
// read "now", "today", "this month" and the last poll's age in that clock, and say so.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock/clock.js';
import { createDaemon, type Daemon } from '../../src/daemon/daemon.js';
import { daemonConfigSchema } from '../../src/daemon/daemon-config.js';
import { freePort } from '../../src/daemon/free-port.js';
import { loadStrategyFile } from '../../src/engine/index.js';
import { silentLogger } from '../../src/log/logger.js';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/index.js';
import { clientFor } from '../sandbox/sandbox-fixture.js';
import { OFFER_ALL } from '../daemon/daemon-harness.js';
import { runCli } from './run-cli.js';

const SPEED = 3600;
const START = '2031-06-01T06:00:00Z';
const OFF = 'off';

let sandbox: SandboxHandle | undefined;
let daemon: Daemon | undefined;
let dir: string | undefined;
afterEach(async () => {
  await daemon?.stop();
  await sandbox?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  sandbox = undefined;
  daemon = undefined;
  dir = undefined;
});

interface StatusJson {
  at: string;
  clock: { kind: string; speed: number; running: boolean; read_at_wall: string };
  decisions_today: { offer: number; skip: number };
  offers_today: { offers: number };
  data_spend: { month_start: string };
  last_poll: { at: string; age_seconds: number };
}

async function status(db: string, config: string, json = true): Promise<string> {
  const result = await runCli(['status', '--db', db, '--config', config, ...(json ? ['--json'] : [])]);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return result.stdout;
}

describe('lendbot status after a sandbox run', () => {
  it('reads every time in the simulated clock the rows were written in, and says so', async () => {
    dir = mkdtempSync(join(tmpdir(), 'lendbot-status-clock-'));
    const db = join(dir, 'sandbox.db');
    const config = join(dir, 'lendbot.yaml');
    writeFileSync(config, `strategies: [${OFFER_ALL}]\n`);
    sandbox = await startSandbox({ speed: SPEED, startTime: START, arrivalsPerHour: 3, warmupHours: 4, initialBalanceCents: 1_000_000 });
    // As `lendbot run --sandbox` wires it: the market's clock for the rows, the wall clock for signatures and back-off.
    const client = clientFor(sandbox, { daemonRetries: true, clock: systemClock });
    daemon = await createDaemon(
      daemonConfigSchema.parse({
        db,
        webhook: { host: '127.0.0.1', port: await freePort() },
        ops: { port: 0 },
        poll: { schedule: OFF, at_start: false },
        jobs: { balance_refresh: OFF, reconcile: OFF, fund_accepted: OFF, protections: OFF },
        risk: { max_open_exposure: null, max_per_borrower: null, max_amount_per_day: null },
      }),
      {},
      {
        client,
        clock: sandbox.clock,
        webhookSecret: sandbox.credentials.webhookSecret,
        backoffClock: systemClock,
        clockSpeed: SPEED,
        mode: 'sandbox',
        strategies: [await loadStrategyFile(OFFER_ALL)],
        log: silentLogger,
      },
    );
    await daemon.start();
    await daemon.runJob('poll');

    // While the run goes on, status follows its clock.
    const running = JSON.parse(await status(db, config)) as StatusJson;
    expect(running.clock).toMatchObject({ kind: 'simulated', speed: SPEED, running: true });
    expect(Date.parse(running.at)).toBeGreaterThanOrEqual(Date.parse(running.last_poll.at));

    await daemon.stop();
    const stoppedAt = sandbox.clock.now();
    daemon = undefined;
    const report = JSON.parse(await status(db, config)) as StatusJson;
    expect(report.clock).toMatchObject({ kind: 'simulated', speed: SPEED, running: false });
    // "Now" is where the run's clock stopped, not this machine's time five years earlier.
    expect(report.at.slice(0, 10)).toBe('2031-06-01');
    expect(Date.parse(report.at)).toBeLessThanOrEqual(stoppedAt);
    expect(Date.parse(report.at)).toBeGreaterThanOrEqual(Date.parse(report.last_poll.at));
    // The poll ended moments (real) before the stop: simulated seconds to hours, never years or zero by clamping.
    expect(report.last_poll.age_seconds).toBe(Math.round((Date.parse(report.at) - Date.parse(report.last_poll.at)) / 1000));
    expect(report.last_poll.age_seconds).toBeLessThan(6 * 3600);
    // "Today" and "this month" are the run's: the poll's decisions count.
    expect(report.decisions_today.offer + report.decisions_today.skip).toBeGreaterThan(0);
    expect(report.offers_today.offers).toBe(report.decisions_today.offer);
    expect(report.data_spend.month_start).toBe('2031-06-01T00:00:00.000Z');

    const text = await status(db, config, false);
    const lines = text.split('\n').map((line) => line.replace(/ {2,}/, '|'));
    expect(lines.slice(0, 2)).toEqual([
      `as of|${report.at}`,
      `clock|simulated, ${SPEED}x (the sandbox run's clock); every time here is in it, stopped at ${report.clock.read_at_wall} by this machine's clock`,
    ]);
    expect(lines.find((line) => line.startsWith('last poll|'))).toMatch(
      new RegExp(`^last poll\\|${report.last_poll.at.replace(/\./g, '\\.')} \\(\\d+ (s|min|h) ago\\)$`),
    );
  });
});
