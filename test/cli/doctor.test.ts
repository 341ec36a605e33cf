/**
 * `lendbot doctor` against real servers: the sandbox for a passing run; the fixture marketplace
 * refusing the key, sending a skewed Date header; a strategy file with an error; a database path
 * that is a directory; an operator port held by another program; a webhook listener with another
 * secret. Everything runs in-process through the real program (runCli).
 */
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/daemon/free-port.js';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/index.js';
import { formatChecks } from '../../src/cli/commands/doctor/check-runner.js';
import { openStore } from '../../src/store/index.js';
import { OFFER_ALL, startDaemonHarness, type DaemonHarness } from '../daemon/daemon-harness.js';
import { doctorHarness, fixOf, fixtureEnv, lineOf } from './doctor-harness.js';
import { runCli } from './run-cli.js';

const doctor = doctorHarness();
const { closers, writeConfig, fixtureMarketplace } = doctor;
const dir = doctor.dir;

afterEach(() => doctor.cleanup());
afterAll(() => doctor.remove());

describe('lendbot doctor', () => {
  it('passes against the sandbox: every check ok, the webhook a warning while no daemon runs, exit 0', async () => {
    // The sandbox dates its answers in simulated time (2026-01-01) and checks signatures against the wall clock.
    const sandbox: SandboxHandle = await startSandbox({ manualClock: true, arrivalsPerHour: 0, initialBalanceCents: 250_000 });
    closers.push(() => sandbox.close());
    const config = await writeConfig();
    const result = await runCli(['doctor', '--config', config], {
      LENDBOT_BASE_URL: sandbox.url,
      LENDBOT_API_KEY: sandbox.credentials.apiKey,
      LENDBOT_SECRET_KEY: sandbox.credentials.secretKey,
      LENDBOT_WEBHOOK_SECRET: sandbox.credentials.webhookSecret,
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(lineOf(result.stdout, 'config')).toMatch(/^ok /);
    expect(lineOf(result.stdout, 'credentials')).toMatch(/^ok .*signed read of the loan request list was accepted/);
    expect(lineOf(result.stdout, 'clock')).toMatch(/^warn .*yet it accepted our signed read/);
    expect(lineOf(result.stdout, 'balance')).toMatch(/^ok .*available 2500\.00/);
    expect(lineOf(result.stdout, 'webhook')).toMatch(/^warn .*no daemon listens at http:\/\/127\.0\.0\.1:\d+\/webhooks/);
    expect(lineOf(result.stdout, 'operator')).toMatch(/^ok .*is free/);
    expect(lineOf(result.stdout, 'database')).toMatch(/^ok .*does not exist yet/);
    expect(lineOf(result.stdout, 'strategy')).toMatch(/^ok .*balanced\.yaml loads/);
    expect(lineOf(result.stdout, 'notifications')).toMatch(/^skip /);
    expect(result.stdout).toMatch(/live trading can work \(2 warnings above\)\n$/);
  });

  it('a refused key fails the credentials line naming LENDBOT_API_KEY, skips the balance, exits non-zero', async () => {
    const server = await fixtureMarketplace();
    const result = await runCli(['doctor', '--config', await writeConfig()], fixtureEnv(server, { LENDBOT_API_KEY: 'revoked-key' }));
    expect(result.code).toBe(1);
    expect(lineOf(result.stdout, 'credentials')).toMatch(/^FAIL .*403 authentication refused: Invalid API Key \[AUTH_INVALID_API_KEY\]/);
    expect(result.stdout).toMatch(/fix: check LENDBOT_API_KEY; the key may have been revoked/);
    // The hint is said once, on the fix line.
    expect(result.stdout.split('check LENDBOT_API_KEY')).toHaveLength(2);
    expect(lineOf(result.stdout, 'balance')).toMatch(/^skip /);
    expect(lineOf(result.stdout, 'clock')).toMatch(/^ok /);
    expect(result.stderr).toBe('lendbot: 1 check failed: live trading cannot work until it is fixed\n');
  });

  it('missing keys fail the credentials line naming the variable', async () => {
    const result = await runCli(['doctor', '--config', await writeConfig()], { LENDBOT_BASE_URL: 'http://127.0.0.1:9' });
    expect(result.code).toBe(1);
    expect(lineOf(result.stdout, 'credentials')).toMatch(/^FAIL .*LENDBOT_API_KEY is not set/);
  });

  it('a skewed Date header: a warning when lendbot corrects it, a failure when correction is off', async () => {
    const server = await fixtureMarketplace({ nowSeconds: () => Math.floor(Date.now() / 1000) + 900 });
    const corrected = await runCli(['doctor', '--config', await writeConfig()], fixtureEnv(server));
    expect(lineOf(corrected.stdout, 'clock')).toMatch(
      /^warn .*the service's clock is (899|900|901) s from ours: beyond the 300 s signatures allow; lendbot signs with the service's time/,
    );
    expect(corrected.stdout).toMatch(/fix: synchronise the machine's clock \(NTP\)/);
    expect(lineOf(corrected.stdout, 'credentials')).toMatch(/^ok /);
    expect(corrected.code).toBe(0);

    const off = await runCli(['doctor', '--config', await writeConfig()], fixtureEnv(server, { LENDBOT_CLOCK_SKEW_CORRECTION: 'off' }));
    expect(off.code).toBe(1);
    expect(lineOf(off.stdout, 'clock')).toMatch(/^FAIL .*LENDBOT_CLOCK_SKEW_CORRECTION is off: every call is refused/);
    expect(lineOf(off.stdout, 'credentials')).toMatch(/^FAIL .*Timestamp out of range/);
  });

  it('a strategy file with an error fails its line; the good one still passes', async () => {
    const bad = join(dir, 'broken.yaml');
    writeFileSync(bad, 'name: broken\nscore:\n  logistic:\n    intercept: "high"\n');
    const server = await fixtureMarketplace();
    const result = await runCli(['doctor', '--config', await writeConfig({ strategies: [OFFER_ALL, bad] })], fixtureEnv(server));
    expect(result.code).toBe(1);
    const lines = result.stdout.split('\n').filter((line) => /^\S+\s+strategy\s/.test(line));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^ok .*offer-all\.yaml loads: strategy offer-all/);
    expect(lines[1]).toMatch(/^FAIL .*broken\.yaml/);
    expect(result.stdout).toMatch(/fix: lendbot strategy check shows every problem with its line/);
  });

  it('a database path that is a directory fails, and nothing is created there', async () => {
    const folder = join(dir, 'a-folder.db');
    mkdirSync(folder);
    const server = await fixtureMarketplace();
    const result = await runCli(['doctor', '--config', await writeConfig({ db: folder })], fixtureEnv(server));
    expect(result.code).toBe(1);
    expect(lineOf(result.stdout, 'database')).toMatch(/^FAIL .*a-folder\.db is a directory, not a database file/);
    expect(result.stdout).toMatch(/fix: point LENDBOT_DB \(or --db\) at a file/);
  });

  it('a database path that is a file but not SQLite fails as lendbot run would refuse it, and is left as it is', async () => {
    const notes = join(dir, 'notes.db');
    writeFileSync(notes, 'not a database\n');
    const server = await fixtureMarketplace();
    const result = await runCli(['doctor', '--config', await writeConfig({ db: notes })], fixtureEnv(server));
    expect(result.code).toBe(1);
    expect(lineOf(result.stdout, 'database')).toMatch(/^FAIL .*notes\.db is a file that is not an SQLite database, not a database file/);
    expect(readFileSync(notes, 'utf8')).toBe('not a database\n');
  });

  it('an existing database open to other users is a warning with the chmod; the file is left as it is', async () => {
    const file = join(dir, 'shared.db');
    openStore(file).close();
    chmodSync(file, 0o644);
    const server = await fixtureMarketplace();
    const result = await runCli(['doctor', '--config', await writeConfig(), '--db', file], fixtureEnv(server));
    expect(result.code).toBe(0);
    expect(lineOf(result.stdout, 'database')).toMatch(
      /^warn .*shared\.db is open to other users \(mode 0644\); lendbot tightens it at start/,
    );
    expect(result.stdout).toContain(`fix: chmod go-rwx ${file}`);
  });

  it('a marketplace that does not answer in time fails that check within --timeout; the others still run', async () => {
    const server = await fixtureMarketplace();
    server.route('GET /api/v3/transfer_history/', () => ({ status: 200, body: {}, delayMs: 5000 }));
    const result = await runCli(['doctor', '--config', await writeConfig(), '--timeout', '0.5'], fixtureEnv(server));
    expect(result.code).toBe(1);
    expect(lineOf(result.stdout, 'credentials')).toMatch(/^ok /);
    expect(lineOf(result.stdout, 'balance')).toMatch(/^FAIL /);
    expect(lineOf(result.stdout, 'strategy')).toMatch(/^ok /);
  });

  it('marks a terminal gets: ✓ ! ✗ -, the fix under the line', () => {
    const text = formatChecks(
      [
        { name: 'credentials', status: 'ok', detail: 'accepted' },
        { name: 'clock', status: 'warn', detail: '40 s off', fix: 'NTP' },
        { name: 'database', status: 'fail', detail: 'a directory', fix: 'a file' },
        { name: 'notifications', status: 'skip', detail: 'none' },
      ],
      true,
    );
    expect(text).toBe(
      [
        '✓ credentials    accepted',
        '! clock          40 s off',
        '                 fix: NTP',
        '✗ database       a directory',
        '                 fix: a file',
        '- notifications  none',
        '',
      ].join('\n'),
    );
  });

  it('an operator port held by another program fails, naming LENDBOT_OPS_PORT', async () => {
    const other = http.createServer((_request, response) => response.end('<title>someone else</title>'));
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise((resolve) => other.close(() => resolve())));
    const port = (other.address() as { port: number }).port;
    const server = await fixtureMarketplace();
    const result = await runCli(['doctor', '--json', '--config', await writeConfig({ opsPort: port })], fixtureEnv(server));
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as {
      ok: boolean;
      checks: Array<{ name: string; status: string; detail: string; fix?: string }>;
    };
    expect(report.ok).toBe(false);
    expect(report.checks.find((check) => check.name === 'operator')).toEqual({
      name: 'operator',
      status: 'fail',
      detail: `127.0.0.1:${port} is taken by another program`,
      fix: 'stop it, or set LENDBOT_OPS_PORT to a free port',
    });
    expect(report.checks.filter((check) => check.status === 'fail').map((check) => check.name)).toEqual(['operator']);
  });

  it('a notification target: listed without --notify; --notify sends one test message, and a refusal fails', async () => {
    const received: string[] = [];
    let status = 200;
    const target = http.createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        received.push(body);
        response.statusCode = status;
        response.end('{}');
      });
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise((resolve) => target.close(() => resolve())));
    const server = await fixtureMarketplace();
    const config = await writeConfig({ extra: ['notifications:', '  format: json'] });
    const env = fixtureEnv(server, { LENDBOT_NOTIFY_URL: `http://127.0.0.1:${(target.address() as { port: number }).port}/hook` });

    const listed = await runCli(['doctor', '--config', config], env);
    expect(lineOf(listed.stdout, 'notifications')).toMatch(/^ok .*json target configured; --notify sends a test message/);
    expect(received).toHaveLength(0);

    const sent = await runCli(['doctor', '--config', config, '--notify'], env);
    expect(lineOf(sent.stdout, 'notifications')).toMatch(/^ok .*json target accepted a test message/);
    expect(received).toHaveLength(1);
    expect(received[0]).toContain('a test message from lendbot doctor');

    status = 500;
    const refused = await runCli(['doctor', '--config', config, '--notify'], env);
    expect(refused.code).toBe(1);
    expect(lineOf(refused.stdout, 'notifications')).toMatch(/^FAIL .*did not accept a test message/);
  });

  it('signs the test event in the layout the config pins: a listener that reads only the data layout verifies it', async () => {
    const pinned = await startDaemonHarness({ webhookTokenLayout: 'data' });
    try {
      const server = await fixtureMarketplace();
      const url = pinned.daemon.webhookUrl;
      const env = fixtureEnv(server, { LENDBOT_WEBHOOK_SECRET: pinned.sandbox.credentials.webhookSecret });
      const result = await runCli(['doctor', '--config', await writeConfig({ tokenLayout: 'data' }), '--webhook-url', url], env);
      expect(lineOf(result.stdout, 'webhook')).toMatch(/^ok .*answered 200 .*the signature verified with LENDBOT_WEBHOOK_SECRET/);
    } finally {
      await pinned.close();
    }
  });

  describe('with a running daemon', () => {
    let harness: DaemonHarness;
    beforeAll(async () => {
      harness = await startDaemonHarness();
    });
    afterAll(async () => {
      await harness.close();
    });

    it('--webhook-url: a signed test event verified by the listener passes; another secret fails with the fix', async () => {
      const server = await fixtureMarketplace();
      const config = await writeConfig();
      const url = harness.daemon.webhookUrl;
      const good = await runCli(
        ['doctor', '--config', config, '--webhook-url', url],
        fixtureEnv(server, { LENDBOT_WEBHOOK_SECRET: harness.sandbox.credentials.webhookSecret }),
      );
      expect(lineOf(good.stdout, 'webhook')).toMatch(/^ok .*answered 200 .*the signature verified with LENDBOT_WEBHOOK_SECRET/);
      expect(good.code).toBe(0);

      const wrong = await runCli(
        ['doctor', '--config', config, '--webhook-url', url],
        fixtureEnv(server, { LENDBOT_WEBHOOK_SECRET: 'not-the-secret' }),
      );
      expect(wrong.code).toBe(1);
      expect(lineOf(wrong.stdout, 'webhook')).toMatch(/^FAIL .*answered 401/);
      expect(wrong.stdout).toMatch(/fix: LENDBOT_WEBHOOK_SECRET here differs from the daemon's/);
    });

    it('without --webhook-url, the listener of the daemon running with this config gets the test event', async () => {
      const server = await fixtureMarketplace();
      const port = Number(new URL(harness.daemon.webhookUrl).port);
      const result = await runCli(
        ['doctor', '--config', await writeConfig({ webhookPort: port })],
        fixtureEnv(server, { LENDBOT_WEBHOOK_SECRET: harness.sandbox.credentials.webhookSecret }),
      );
      expect(lineOf(result.stdout, 'webhook')).toMatch(
        new RegExp(`^ok +webhook +http://127\\.0\\.0\\.1:${port}/webhooks answered 200 \\{"status":"ignored"\\}`),
      );
      expect(result.code).toBe(0);
    });

    it("the operator port held by a running lendbot's dashboard is a warning with its fix: lendbot run would refuse to start there", async () => {
      const server = await fixtureMarketplace();
      const port = Number(new URL(harness.daemon.operatorUrl() ?? 'http://x').port);
      const config = await writeConfig({ opsPort: port });
      const result = await runCli(['doctor', '--config', config], fixtureEnv(server));
      expect(lineOf(result.stdout, 'operator')).toBe(
        `warn operator       127.0.0.1:${port} is served by a running lendbot: lendbot run with this config cannot start beside it`,
      );
      expect(fixOf(result.stdout, 'operator')).toBe(
        'fix: if that is this bot, it is already running (lendbot status); else stop it, or set LENDBOT_OPS_PORT to a free port',
      );
      // What doctor warns of is what run does: a second daemon on that port stops at start with one line.
      const run = await runCli(['run', '--config', config, '--dry-run'], {
        ...fixtureEnv(server),
        LENDBOT_DB: join(dir, 'second.db'),
      });
      expect(run.code).not.toBe(0);
      expect(run.stderr).toContain(`port ${port} (the operator listener, 127.0.0.1) is in use by another program`);
    });

    it('--webhook-url nobody answers at fails (a daemon not running is a failure when the URL is given)', async () => {
      const server = await fixtureMarketplace();
      const url = `http://127.0.0.1:${await freePort()}/webhooks`;
      const result = await runCli(['doctor', '--config', await writeConfig(), '--webhook-url', url], fixtureEnv(server));
      expect(result.code).toBe(1);
      expect(lineOf(result.stdout, 'webhook')).toMatch(/^FAIL .*cannot reach http:\/\/127\.0\.0\.1:\d+\/webhooks: ECONNREFUSED/);
    });
  });
});
