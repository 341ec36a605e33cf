import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/index.js';
import { LENDBOT_VERSION } from '../../src/version.js';
import { runCli } from './run-cli.js';
import { storedReasons } from '../../src/store/reason-texts-to-values.js';

const MISSING_ALL =
  'lendbot: LENDBOT_BASE_URL, LENDBOT_API_KEY, LENDBOT_SECRET_KEY and LENDBOT_WEBHOOK_SECRET are not set: set them to trade on the marketplace, or run `lendbot run --sandbox` for the simulated one (no real money)\n';

describe('lendbot entry point', () => {
  it('prints help listing the commands', async () => {
    const result = await runCli(['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Usage: lendbot [options] [command]');
    expect(result.stdout).toContain('api');
  });

  it('prints the version', async () => {
    const result = await runCli(['--version']);
    expect(result).toEqual({ code: 0, stdout: `${LENDBOT_VERSION}\n`, stderr: '' });
  });

  it('prints help for a command with `help CMD`', async () => {
    const result = await runCli(['help', 'api']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Usage: lendbot api [options] [command]');
    expect(result.stdout).toContain('loan-requests');
  });

  it('fails an unknown command with a usage error', async () => {
    const result = await runCli(['frobnicate']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("error: unknown command 'frobnicate'");
  });

  it('names the missing variable in one line, without a stack trace', async () => {
    const result = await runCli(['api', 'transfers']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('lendbot: LENDBOT_BASE_URL is not set; export it (see README, "Credentials")\n');
  });

  it('refuses a bad config file with its line-numbered problems before starting anything', async () => {
    const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'lendbot-main-'));
    const file = join(dir, 'lendbot.yaml');
    writeFileSync(file, 'poll:\n  schedule: "often"\nstrategies: [nope.yaml]\n');
    const result = await runCli(['run', '--config', file], { LENDBOT_DB: join(dir, 'x.db') });
    rmSync(dir, { recursive: true, force: true });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `lendbot: ${file}: 1 problem\n${file}:2:13 poll.schedule: not a cron expression (e.g. "* * * * *" every minute, "*/5 * * * * *" every 5 seconds) or off\n`,
    );
  });

  it('will not run without credentials unless asked for the sandbox, naming every variable missing', async () => {
    const none = await runCli(['run', '--strategy', 'strategies/balanced.yaml']);
    expect(none).toMatchObject({ code: 1, stdout: '' });
    expect(none.stderr).toBe(MISSING_ALL);
    const some = await runCli(['run'], { LENDBOT_BASE_URL: 'https://api.example.com', LENDBOT_API_KEY: 'key' });
    expect(some.stderr).toBe(
      'lendbot: LENDBOT_SECRET_KEY and LENDBOT_WEBHOOK_SECRET are not set: set them to trade on the marketplace, or run `lendbot run --sandbox` for the simulated one (no real money)\n',
    );
  });

  it('takes LENDBOT_SANDBOX=true as --sandbox, and false or unset as the marketplace', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lendbot-main-'));
    try {
      // A database holding an earlier run stops a sandbox run before anything starts: proof the
      // variable chose the sandbox, without running it.
      const used = join(dir, 'used.db');
      const store = openStore(used);
      store.decisions.record({
        loanRequestId: 1001,
        action: 'skip',
        reasons: storedReasons(['earlier run']),
        dryRun: false,
        decidedAtMs: 0,
      });
      store.close();
      const sandbox = await runCli(['run'], { LENDBOT_SANDBOX: 'true', LENDBOT_DB: used });
      expect(sandbox).toEqual({
        code: 1,
        stdout: '',
        stderr: `lendbot: ${used} holds decisions from another run, but the sandbox market starts afresh each time and its request ids would collide; point LENDBOT_DB (or --db) at a new file, or drop --sandbox (and LENDBOT_SANDBOX) and set LENDBOT_BASE_URL to trade for real\n`,
      });
      expect(await runCli(['run'], { LENDBOT_SANDBOX: 'false', LENDBOT_DB: used })).toEqual({ code: 1, stdout: '', stderr: MISSING_ALL });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a LENDBOT_SANDBOX that is not true or false, or that sits beside LENDBOT_BASE_URL', async () => {
    expect(await runCli(['run'], { LENDBOT_SANDBOX: 'maybe' })).toEqual({
      code: 1,
      stdout: '',
      stderr: 'lendbot: LENDBOT_SANDBOX must be true or false (got "maybe")\n',
    });
    expect(await runCli(['run'], { LENDBOT_SANDBOX: 'true', LENDBOT_BASE_URL: 'https://api.example.com' })).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'lendbot: LENDBOT_SANDBOX=true and LENDBOT_BASE_URL are both set: unset LENDBOT_SANDBOX to trade on the marketplace, or LENDBOT_BASE_URL to run the simulated one\n',
    });
  });

  it('says in `run --help` what it needs, and the environment form of --sandbox', async () => {
    const help = await runCli(['run', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('\n  LENDBOT_SANDBOX                 true: the same as --sandbox (refused beside LENDBOT_BASE_URL)\n');
    expect(help.stdout).toContain(
      '\nWithout --sandbox (or LENDBOT_SANDBOX=true) it trades on the marketplace; it never falls back to the simulation.\n',
    );
  });
});
