/**
 * `lendbot run --sandbox` starts the sandbox marketplace in a process of its own: the daemon's
 * client reaches it, the daemon's copy of its clock agrees with the sandbox's (also after the
 * control API moves time by hand), and closing it ends the process.
 */
import { describe, expect, it } from 'vitest';
import { readClock, MirrorClock } from '../../src/cli/commands/run/sandbox-messages.js';
import { startEmbeddedSandbox } from '../../src/cli/commands/run/embedded-sandbox.js';
import { daemonConfigSchema } from '../../src/daemon/daemon-config.js';
import { silentLogger } from '../../src/log/logger.js';
import { SpeedClock } from '../../src/sandbox/sim-clock.js';
import { systemClock } from '../../src/clock/clock.js';

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const sandboxNow = async (url: string): Promise<number> =>
  ((await (await fetch(`${url}/_sandbox/state`)).json()) as { now: string | number }).now as number;

describe('the embedded sandbox in its own process', () => {
  it('serves the daemon, keeps the clocks together and stops when closed', { timeout: 60_000 }, async () => {
    const config = daemonConfigSchema.parse({ webhook: { port: 0 }, ops: { port: 0 }, log_level: 'silent' });
    const sandbox = await startEmbeddedSandbox(config, silentLogger);
    try {
      expect(sandbox.pid).not.toBe(process.pid);
      expect(alive(sandbox.pid)).toBe(true);
      const page = await sandbox.client.listLoanRequests();
      expect(Array.isArray(page.items ?? page)).toBe(true);

      const toMs = (value: string | number): number => (typeof value === 'number' ? value : Date.parse(value));
      // A day of market a second: an HTTP round trip is minutes of simulated time, so compare loosely.
      const before = toMs(await sandboxNow(sandbox.url));
      const mirrored = sandbox.clock.now();
      expect(Math.abs(mirrored - before)).toBeLessThan(config.sandbox.speed * 2_000);

      const jump = 30 * 86_400_000;
      await fetch(`${sandbox.url}/_sandbox/advance`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ms: jump }),
      });
      await new Promise((resolve) => setTimeout(resolve, 500));
      const after = toMs(await sandboxNow(sandbox.url));
      expect(Math.abs(sandbox.clock.now() - after)).toBeLessThan(config.sandbox.speed * 2_000);
      expect(sandbox.clock.now() - mirrored).toBeGreaterThan(jump);
    } finally {
      await sandbox.close();
    }
    expect(alive(sandbox.pid)).toBe(false);
  });
});

describe('the embedded sandbox’s webhooks to the daemon', () => {
  type Webhooks = { subscriptions: Array<{ active: boolean }>; deliveries: unknown[] };
  const webhooksOf = async (url: string): Promise<Webhooks> => (await (await fetch(`${url}/_sandbox/webhooks`)).json()) as Webhooks;

  it('wait until the daemon says it listens: nothing is sent (nor fails) before', { timeout: 60_000 }, async () => {
    // Nobody listens on the webhook port: any delivery would fail and be retried with a warning.
    const config = daemonConfigSchema.parse({ webhook: { port: 0 }, ops: { port: 0 }, log_level: 'silent' });
    const sandbox = await startEmbeddedSandbox(config, silentLogger);
    try {
      // A day of market a second: a second and a half makes dozens of loan requests.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const page = await sandbox.client.listLoanRequests();
      expect((page.items ?? []).length).toBeGreaterThan(0);
      const paused = await webhooksOf(sandbox.url);
      expect(paused.subscriptions.map((s) => s.active)).toEqual([false]);
      expect(paused.deliveries).toEqual([]);

      sandbox.daemonListening();
      const deadline = Date.now() + 20_000;
      let sent = paused;
      while (sent.deliveries.length === 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        sent = await webhooksOf(sandbox.url);
      }
      expect(sent.deliveries.length).toBeGreaterThan(0);
    } finally {
      await sandbox.close();
    }
  });
});

describe('the daemon’s copy of the sandbox clock', () => {
  it('agrees with the sandbox’s own clock to the millisecond, and follows jumps', () => {
    const speed = 86_400;
    const clock = new SpeedClock(systemClock, Date.parse('2026-01-01T00:00:00Z'), speed);
    const mirror = new MirrorClock(readClock(clock, speed));
    for (let i = 0; i < 5; i += 1) {
      const reading = readClock(clock, speed);
      const wall = Date.now();
      const copy = mirror.now();
      if (Date.now() === wall && wall === reading.wallMs) expect(copy).toBe(reading.atMs);
    }
    clock.advance(3_600_000);
    mirror.jumped(3_600_000);
    const reading = readClock(clock, speed);
    if (Date.now() === reading.wallMs) expect(Math.abs(mirror.now() - reading.atMs)).toBeLessThanOrEqual(speed);
  });
});
