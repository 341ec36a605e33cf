/**
 * When the daemon serves the operator listener and /mcp: with a token always; without one only on
 * loopback (read-only, and /mcp anonymously only in the sandbox); on another host without a
 * token it does not start the listener, says so, and trades on.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createDaemon, type Daemon } from '../../src/daemon/daemon.js';
import { daemonConfigSchema } from '../../src/daemon/daemon-config.js';
import { loadStrategyFile } from '../../src/engine/index.js';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/index.js';
import { clientFor } from '../sandbox/sandbox-fixture.js';
import { captureLog } from '../log/log-capture.js';
import { OFFER_ALL } from '../daemon/daemon-harness.js';
import { callTool, connectAgent } from './operator-harness.js';

let running: { daemon: Daemon; sandbox: SandboxHandle; dir: string } | undefined;
afterEach(async () => {
  if (!running) return;
  await running.daemon.stop();
  await running.sandbox.close();
  rmSync(running.dir, { recursive: true, force: true });
  running = undefined;
});

async function start(mode: 'live' | 'sandbox', host: string, env: Record<string, string> = {}) {
  const sandbox = await startSandbox({ manualClock: true, seed: 3, arrivalsPerHour: 0 });
  const dir = mkdtempSync(join(tmpdir(), 'lendbot-surface-'));
  const config = daemonConfigSchema.parse({
    db: join(dir, 'lendbot.db'),
    webhook: { host: '127.0.0.1', port: 0 },
    poll: { schedule: 'off', at_start: false },
    jobs: { balance_refresh: 'off', reconcile: 'off', fund_accepted: 'off', protections: 'off' },
    ops: { host, port: 0 },
  });
  const { log, lines } = captureLog();
  const client = clientFor(sandbox, { daemonRetries: true });
  const daemon = await createDaemon(config, env, {
    client,
    clock: sandbox.clock,
    log,
    mode,
    strategies: [await loadStrategyFile(OFFER_ALL)],
    webhookSecret: sandbox.credentials.webhookSecret,
  });
  running = { daemon, sandbox, dir };
  await daemon.start();
  return { daemon, lines };
}

describe('the operator listener', () => {
  it('serves the sandbox on loopback without a token, to callers named "sandbox"', async () => {
    const { daemon } = await start('sandbox', '127.0.0.1');
    const url = daemon.operatorUrl();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const agent = await connectAgent(new URL('/mcp', url), 'anything');
    try {
      const paused = await callTool(agent, 'pause_offers');
      expect(paused.data.reason).toContain('agent:sandbox');
    } finally {
      await agent.close();
    }
  });

  it('serves live on loopback without a token read-only, with /mcp closed to everyone', async () => {
    const { daemon } = await start('live', '127.0.0.1');
    const url = daemon.operatorUrl();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const mcp = await fetch(new URL('/mcp', url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(mcp.status).toBe(401);
    const me = await fetch(new URL('/api/me', url));
    expect(await me.json()).toMatchObject({ signedIn: false, name: null, canRead: true, canChange: false });
    const pause = await fetch(new URL('/api/pause', url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(pause.status).toBe(401);
  });

  it('does not start without a token on a host other than loopback, and says so', async () => {
    for (const mode of ['live', 'sandbox'] as const) {
      const { daemon, lines } = await start(mode, '0.0.0.0');
      expect(daemon.operatorUrl()).toBeUndefined();
      expect(lines.map((line) => line.msg)).toContain(
        'operator listener not started: no operator token (set LENDBOT_OPERATOR_TOKEN, or a named token of ops.tokens); without one it serves only on loopback',
      );
      await running?.daemon.stop();
      await running?.sandbox.close();
      if (running) rmSync(running.dir, { recursive: true, force: true });
      running = undefined;
    }
  });

  it('asks for the token in the sandbox too once one is set', async () => {
    const { daemon } = await start('sandbox', '127.0.0.1', { LENDBOT_OPERATOR_TOKEN: 'sandbox-token-1' });
    const url = new URL('/mcp', daemon.operatorUrl());
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(response.status).toBe(401);
    const agent = await connectAgent(url, 'sandbox-token-1');
    await agent.close();
  });
});
