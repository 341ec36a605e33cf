/**
 * `lendbot webhook test` against a real daemon (the harness: the real listener on a free port, a
 * real SQLite file, the sandbox as its marketplace): the signed event is answered 200, lands in the
 * daemon's inbox, and is processed: a made-up loan request is dropped as not listed; a listed one
 * gets a decision. Another secret is refused (401) and the command says which variable to fix.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDaemonHarness, type DaemonHarness } from '../daemon/daemon-harness.js';
import { runCli } from './run-cli.js';

let harness: DaemonHarness;
let env: Record<string, string>;
let db: string;

beforeAll(async () => {
  harness = await startDaemonHarness({ dryRun: true });
  env = { LENDBOT_WEBHOOK_SECRET: harness.sandbox.credentials.webhookSecret };
  db = join(harness.dir, 'lendbot.db');
});

afterAll(async () => {
  await harness.close();
});

describe('lendbot webhook test', () => {
  it('a made-up loan request: answered 200, stored in the inbox, processed and dropped as not listed', async () => {
    const result = await runCli(['webhook', 'test', '--url', harness.daemon.webhookUrl, '--db', db], env);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toMatch(
      /^sent new_loan_request_created [0-9a-f-]{36} \(loan request 999999999\) to http:\/\/127\.0\.0\.1:\d+\/webhooks$/,
    );
    expect(lines[1]).toMatch(/^answered 200 .*: the signature verified with LENDBOT_WEBHOOK_SECRET$/);
    expect(lines[2]).toBe('the daemon:');
    expect(lines[3]).toMatch(/^ {2}stored in the inbox at \d{4}-/);
    expect(lines[4]).toMatch(
      /^ {2}processed at .*: not listed: the marketplace has no such open loan request, so the event was dropped as unknown$/,
    );
    const uuid = /([0-9a-f-]{36})/.exec(lines[0] ?? '')?.[1] ?? '';
    expect(harness.store.inbox.get(uuid)?.outcome).toBe('not listed');
  });

  it('a listed loan request: --json reports the decision the daemon recorded', async () => {
    const request = harness.sandbox.control.createLoanRequest({ svcColor: 1 });
    const result = await runCli(
      [
        'webhook',
        'test',
        '--url',
        harness.daemon.webhookUrl,
        '--db',
        db,
        '--json',
        '--loan-request-id',
        String(request.id),
        '--amount',
        String(request.loan_amount),
      ],
      env,
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as {
      status: number;
      ok: boolean;
      daemon: { stored: boolean; processed: boolean; outcome: string; decision: { action: string; dryRun: boolean } | null };
    };
    expect(report.status).toBe(200);
    expect(report.ok).toBe(true);
    expect(report.daemon.stored).toBe(true);
    expect(report.daemon.processed).toBe(true);
    // The sandbox announces the request to the daemon too: whichever event comes second finds it decided.
    expect(['processed', 'duplicate: already decided']).toContain(report.daemon.outcome);
    const stored = harness.store.decisions.get(request.id);
    expect(stored).toBeDefined();
    expect(report.daemon.decision).toMatchObject({ action: stored?.action, dryRun: true });
  });

  it('another secret: the listener answers 401 and the command fails naming LENDBOT_WEBHOOK_SECRET', async () => {
    const result = await runCli(['webhook', 'test', '--url', harness.daemon.webhookUrl], { LENDBOT_WEBHOOK_SECRET: 'not-the-secret' });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/answered 401 .*the listener refused the signature/);
    expect(result.stderr).toMatch(/^lendbot: the listener did not take the event: LENDBOT_WEBHOOK_SECRET here differs from the daemon's/);
  });

  it('without the secret it stops before sending, naming the variable', async () => {
    const result = await runCli(['webhook', 'test', '--url', harness.daemon.webhookUrl], {});
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^lendbot: LENDBOT_WEBHOOK_SECRET is not set/);
  });
});
