/**
 * A daemon killed with SIGKILL while an offer is in flight, then restarted: nothing is offered
 * twice, the unknown offer is settled, and a webhook stored before the kill is processed after.
 */
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/daemon/free-port.js';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/index.js';
import { childEnv, queryDatabase, startChildDaemon, writeChildConfig, type ChildDaemon } from './child-daemon.js';
import { OFFER_ALL, postWebhook, signEvent, waitFor } from './daemon-harness.js';

let sandbox: SandboxHandle;
let dir: string;
let env: Record<string, string>;
let configFile: string;
let webhookUrl: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ manualClock: true, seed: 11 });
  sandbox.control.setBalance(1_000_000);
  dir = mkdtempSync(join(tmpdir(), 'lendbot-crash-'));
  const port = await freePort();
  webhookUrl = `http://127.0.0.1:${port}/webhooks`;
  configFile = join(dir, 'lendbot.yaml');
  writeChildConfig(configFile, { db: join(dir, 'lendbot.db'), port, strategy: OFFER_ALL });
  env = childEnv(sandbox);
});

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

function startDaemon(): ChildDaemon {
  return startChildDaemon(configFile, env, children);
}

/** Reads the daemon's database the way an operator would, while the daemon runs. */
function query<T>(sql: string, ...params: unknown[]): T[] {
  return queryDatabase<T>(join(dir, 'lendbot.db'), sql, ...params);
}

describe('a daemon killed mid-offer', () => {
  it('offers nothing twice and loses no stored webhook after a restart', { timeout: 90_000 }, async () => {
    const x = sandbox.control.createLoanRequest({ svcColor: 1, competitorOffers: 0 });
    // Every answer takes 1.5 s, so the kill lands while make_offer is in flight.
    sandbox.control.setFaults({ latencyMs: 1500 });

    const first = startDaemon();
    await waitFor(
      () => query('SELECT 1 FROM offers WHERE loan_request_id = ? AND state = ?', x.id, 'intent').length === 1,
      `the intent for ${x.id}\n${first.output()}`,
      30_000,
    );

    // A webhook arrives while the pipeline is busy: it is stored (200) but not yet processed.
    const y = sandbox.control.createLoanRequest({ svcColor: 0, competitorOffers: 0 });
    const uuid = randomUUID();
    const token = await signEvent(sandbox.credentials.webhookSecret, {
      webhook_uuid: uuid,
      topic: 'new_loan_request_created',
      data: {
        loan_request_id: y.id,
        loan_request_amount: Number(y.loan_amount),
        loan_request_type: 'cash',
        has_banking_data: true,
        automated_loan_request: false,
      },
    });
    expect(await postWebhook(webhookUrl, JSON.stringify({ token }))).toBe(200);
    first.child.kill('SIGKILL');
    await first.exited;
    expect(query<{ processed_at: string | null }>('SELECT processed_at FROM webhook_inbox WHERE webhook_uuid = ?', uuid)).toEqual([
      { processed_at: null },
    ]);

    sandbox.control.setFaults({ latencyMs: 0 });
    const second = startDaemon();
    await waitFor(
      () =>
        query('SELECT 1 FROM decisions WHERE loan_request_id IN (?, ?)', x.id, y.id).length === 2 &&
        query('SELECT 1 FROM offers WHERE loan_request_id = ? AND state = ?', x.id, 'placed').length === 1,
      `both decisions and the settled offer\n${second.output()}`,
      30_000,
    );
    await waitFor(() => query('SELECT 1 FROM webhook_inbox WHERE processed_at IS NULL').length === 0, 'an empty inbox');

    expect(sandbox.control.offers().filter((offer) => offer.loan_request?.id === x.id)).toHaveLength(1);
    expect(sandbox.control.offers().filter((offer) => offer.loan_request?.id === y.id)).toHaveLength(1);
    expect(query('SELECT loan_request_id FROM decisions WHERE loan_request_id = ?', x.id)).toHaveLength(1);
    expect(query<{ outcome: string }>('SELECT outcome FROM webhook_inbox WHERE webhook_uuid = ?', uuid)[0]!.outcome).toMatch(
      /^(processed|duplicate: already decided)$/,
    );

    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    expect(second.output()).toContain('lendbot stopped');
  });
});
