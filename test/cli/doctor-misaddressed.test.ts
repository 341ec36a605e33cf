/**
 * `lendbot doctor` pointed at the wrong places (issue 36, item 4), against real servers on free
 * ports: a base URL that already ends in /api/v3, one that is another web server, one nobody
 * answers at, one carrying `user:password@`; a web server holding the webhook port; a webhook URL
 * that redirects to another host. Each is one line saying what is wrong and a `fix:` line, with no
 * secret and no HTML in either, and nothing is sent where a redirect points.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../../src/daemon/free-port.js';
import { doctorHarness, fixOf, fixtureEnv, lineOf } from './doctor-harness.js';
import { startForeignServer, type ForeignServer } from './foreign-server.js';
import { runCli } from './run-cli.js';

const doctor = doctorHarness();
afterEach(() => doctor.cleanup());
afterAll(() => doctor.remove());

async function foreign(): Promise<ForeignServer> {
  const server = await startForeignServer();
  doctor.closers.push(() => server.close());
  return server;
}

describe('lendbot doctor, misaddressed', () => {
  it('a base URL ending in /api/v3: the credentials line says so and the fix gives the address without it', async () => {
    const server = await doctor.fixtureMarketplace();
    const result = await runCli(
      ['doctor', '--config', await doctor.writeConfig()],
      fixtureEnv(server, { LENDBOT_BASE_URL: `${server.url}/api/v3` }),
    );
    expect(result.code).toBe(1);
    expect(lineOf(result.stdout, 'credentials')).toMatch(
      /^FAIL credentials +GET \/api\/v3\/api\/v3\/loan_requests\/\?page=1 answered 404 .*: LENDBOT_BASE_URL ends in \/api\/v3, which lendbot adds itself$/,
    );
    expect(fixOf(result.stdout, 'credentials')).toBe(`fix: set LENDBOT_BASE_URL to ${server.url}`);
  });

  it('a base URL at another web server: its 404 page is named by its title, not poured into the line, and the fix says what to set', async () => {
    const server = await doctor.fixtureMarketplace();
    const other = await foreign();
    const result = await runCli(['doctor', '--config', await doctor.writeConfig()], fixtureEnv(server, { LENDBOT_BASE_URL: other.url }));
    expect(result.code).toBe(1);
    expect(lineOf(result.stdout, 'credentials')).toBe(
      `FAIL credentials    GET /api/v3/loan_requests/?page=1 answered 404 (an HTML page ("404 Not Found")): ${other.url} is not the marketplace's API`,
    );
    expect(fixOf(result.stdout, 'credentials')).toBe(
      "fix: set LENDBOT_BASE_URL to the marketplace's own address (scheme and host, without /api/v3)",
    );
    expect(result.stdout).not.toMatch(/<|DOCTYPE|Apache/);
  });

  it('a dead base URL: one failure with its fix on the credentials line; the clock is skipped, not "fetch failed"', async () => {
    const dead = `http://127.0.0.1:${await freePort()}`;
    const server = await doctor.fixtureMarketplace();
    const result = await runCli(['doctor', '--config', await doctor.writeConfig()], fixtureEnv(server, { LENDBOT_BASE_URL: dead }));
    expect(result.code).toBe(1);
    expect(lineOf(result.stdout, 'credentials')).toMatch(/^FAIL credentials .*network failure \(ECONNREFUSED\)/);
    expect(fixOf(result.stdout, 'credentials')).toBe('fix: check LENDBOT_BASE_URL and the network: the marketplace did not answer');
    expect(lineOf(result.stdout, 'clock')).toBe('skip clock          needs an answer from the marketplace');
    expect(result.stdout).not.toContain('fetch failed');
  });

  it('a base URL with user:password@: the password is printed nowhere, and the clock is read', async () => {
    const server = await doctor.fixtureMarketplace();
    const withPassword = server.url.replace('http://', 'http://lender:hunter2-s3cret@');
    for (const args of [[], ['--json']]) {
      const result = await runCli(
        ['doctor', '--config', await doctor.writeConfig(), ...args],
        fixtureEnv(server, { LENDBOT_BASE_URL: withPassword }),
      );
      expect(`${result.stdout}${result.stderr}`).not.toContain('hunter2');
      if (args.length === 0) expect(lineOf(result.stdout, 'clock')).toMatch(/^ok +clock +the service's clock is -?\d+ s from ours$/);
    }
    // The same address with a path the marketplace does not have: the line that shows the URL hides the password.
    const shown = await runCli(
      ['doctor', '--config', await doctor.writeConfig()],
      fixtureEnv(server, { LENDBOT_BASE_URL: `${withPassword}/elsewhere` }),
    );
    expect(lineOf(shown.stdout, 'credentials')).toContain(`http://lender:***@127.0.0.1:${new URL(server.url).port}/elsewhere`);
    expect(`${shown.stdout}${shown.stderr}`).not.toContain('hunter2');
  });

  it('a web server on the webhook port: "taken by another program" with the setting to change, without its HTML', async () => {
    const server = await doctor.fixtureMarketplace();
    const other = await foreign();
    const result = await runCli(['doctor', '--config', await doctor.writeConfig({ webhookPort: other.port })], fixtureEnv(server));
    expect(result.code).toBe(1);
    expect(lineOf(result.stdout, 'webhook')).toBe(
      `FAIL webhook        127.0.0.1:${other.port} is taken by another program (its /healthz answered 404 with an HTML page ("404 Not Found")): lendbot run could not listen there`,
    );
    expect(fixOf(result.stdout, 'webhook')).toBe('fix: stop it, or set webhook.port (LENDBOT_WEBHOOK_PORT) to a free port');
    expect(result.stdout).not.toMatch(/<|DOCTYPE|Apache/);
  });

  it('--webhook-url at a web page: not lendbot, said in words, with the fix', async () => {
    const server = await doctor.fixtureMarketplace();
    const other = await foreign();
    const result = await runCli(
      ['doctor', '--config', await doctor.writeConfig(), '--webhook-url', `${other.url}/webhooks`],
      fixtureEnv(server),
    );
    expect(lineOf(result.stdout, 'webhook')).toBe(
      `FAIL webhook        ${other.url}/webhooks answered 404 with an HTML page ("404 Not Found"): a web page, not lendbot's listener`,
    );
    expect(fixOf(result.stdout, 'webhook')).toMatch(/^fix: the URL reaches another server: point it .* at lendbot run's webhook listener/);
  });

  it('--webhook-url redirecting to another host: the redirect is reported with its fix, and nothing is sent there', async () => {
    const server = await doctor.fixtureMarketplace();
    const front = await foreign();
    const elsewhere = await foreign();
    // Another host name for this machine: the redirect leaves 127.0.0.1.
    front.redirectTo = `http://localhost:${elsewhere.port}/webhooks`;
    const result = await runCli(
      ['doctor', '--config', await doctor.writeConfig(), '--webhook-url', `${front.url}/moved`],
      fixtureEnv(server),
    );
    expect(result.code).toBe(1);
    expect(lineOf(result.stdout, 'webhook')).toBe(
      `FAIL webhook        ${front.url}/moved answered 302, a redirect to http://localhost:${elsewhere.port}/webhooks: not followed (the marketplace posts to the address as registered)`,
    );
    expect(fixOf(result.stdout, 'webhook')).toMatch(/^fix: register the address the listener answers on itself/);
    expect(front.requests.map((request) => `${request.method} ${request.path}`)).toEqual(['POST /moved']);
    expect(elsewhere.requests).toEqual([]);
  });

  it('--notify at a notification URL that redirects to another host: fails, and the test message is not carried there', async () => {
    const server = await doctor.fixtureMarketplace();
    const front = await foreign();
    const elsewhere = await foreign();
    front.redirectTo = `http://localhost:${elsewhere.port}/hook`;
    const config = await doctor.writeConfig({ extra: ['notifications:', '  format: json', '  retries: 0'] });
    const result = await runCli(
      ['doctor', '--config', config, '--notify'],
      fixtureEnv(server, { LENDBOT_NOTIFY_URL: `${front.url}/moved` }),
    );
    expect(lineOf(result.stdout, 'notifications')).toMatch(/^FAIL .*json target did not accept a test message/);
    expect(fixOf(result.stdout, 'notifications')).toMatch(/^fix: check LENDBOT_NOTIFY_URL/);
    expect(front.requests.map((request) => `${request.method} ${request.path}`)).toEqual(['POST /moved']);
    expect(elsewhere.requests).toEqual([]);
  });
});

describe('lendbot webhook test, misaddressed', () => {
  it('a redirect to another host is not followed: the command fails naming it, and the signed event never leaves', async () => {
    const front = await foreign();
    const elsewhere = await foreign();
    front.redirectTo = `http://localhost:${elsewhere.port}/webhooks`;
    const result = await runCli(['webhook', 'test', '--url', `${front.url}/moved`], { LENDBOT_WEBHOOK_SECRET: 'whsec' });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`answered 302, a redirect to http://localhost:${elsewhere.port}/webhooks: not followed`);
    expect(result.stderr).toMatch(/^lendbot: the listener did not take the event: register the address the listener answers on itself/);
    expect(elsewhere.requests).toEqual([]);
  });

  it('a URL with user:password@: sent with them as Basic authorization, and the password printed nowhere', async () => {
    const other = await foreign();
    const result = await runCli(['webhook', 'test', '--url', other.url.replace('http://', 'http://hook:pa55-word@') + '/webhooks'], {
      LENDBOT_WEBHOOK_SECRET: 'whsec',
    });
    expect(result.code).toBe(1);
    expect(`${result.stdout}${result.stderr}`).not.toContain('pa55-word');
    expect(result.stdout).toContain(`to http://hook:***@127.0.0.1:${other.port}/webhooks`);
    expect(other.requests[0]?.authorization).toBe(`Basic ${Buffer.from('hook:pa55-word').toString('base64')}`);
  });
});
