/**
 * "0 lost" across a process crash at the default durability (store.synchronous: normal, WAL, no
 * fsync per commit): a `lendbot run` child acknowledges a stream of webhooks, several in flight at
 * once (so commits are grouped), and is killed with SIGKILL in the middle of it. Every event it
 * answered 200 must be in the inbox when the file is opened again.
 */
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/daemon/free-port.js';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/index.js';
import { openStore } from '../../src/store/index.js';
import { childEnv, startChildDaemon, writeChildConfig } from './child-daemon.js';
import { OFFER_ALL, signEvent, waitFor } from './daemon-harness.js';

const EVENTS = 400;
const IN_FLIGHT = 16;
const KILL_AFTER_ACKS = 150;

let sandbox: SandboxHandle;
let dir: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ manualClock: true, seed: 5 });
  dir = mkdtempSync(join(tmpdir(), 'lendbot-durability-'));
});

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the webhook inbox across a SIGKILL', () => {
  it('holds every acknowledged event when reopened', { timeout: 90_000 }, async () => {
    const port = await freePort();
    const db = join(dir, 'lendbot.db');
    const configFile = join(dir, 'lendbot.yaml');
    writeChildConfig(configFile, { db, port, strategy: OFFER_ALL });
    const daemon = startChildDaemon(configFile, childEnv(sandbox), children);
    await waitFor(() => daemon.output().includes('lendbot started'), `the daemon to start\n${daemon.output()}`, 30_000);

    // Signed before sending, so the deliveries arrive as a burst. Crypto-backed requests are
    // dropped by the default risk levels, so the daemon only stores and settles them.
    const bodies = await Promise.all(
      Array.from({ length: EVENTS }, async (_, i) => {
        const uuid = randomUUID();
        const data = {
          loan_request_id: 900_000 + i,
          loan_request_amount: 500,
          loan_request_type: 'crypto',
          has_banking_data: false,
          automated_loan_request: false,
        };
        const token = await signEvent(sandbox.credentials.webhookSecret, { webhook_uuid: uuid, topic: 'new_loan_request_created', data });
        return { uuid, body: JSON.stringify({ token }) };
      }),
    );

    const acked: string[] = [];
    let next = 0;
    const url = `http://127.0.0.1:${port}/webhooks`;
    const lane = async (): Promise<void> => {
      while (next < bodies.length) {
        const { uuid, body } = bodies[next++]!;
        try {
          const response = await fetch(url, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', 'X-Svc-Topic': 'new_loan_request_created' },
            body,
          });
          await response.arrayBuffer();
          if (response.status !== 200) continue;
          acked.push(uuid);
          // Killed with deliveries still in flight: those get no answer and are not counted.
          if (acked.length === KILL_AFTER_ACKS) daemon.child.kill('SIGKILL');
        } catch {
          // The connection died with the process: not acknowledged, so the marketplace would retry.
        }
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
    await daemon.exited;
    expect(daemon.child.signalCode).toBe('SIGKILL');
    expect(acked.length).toBeGreaterThanOrEqual(KILL_AFTER_ACKS);

    // Opened the way the next start opens it (recovering the WAL the killed process left).
    const store = openStore(db);
    try {
      const missing = acked.filter((uuid) => store.inbox.get(uuid) === undefined);
      expect(missing).toEqual([]);
    } finally {
      store.close();
    }
  });
});
