import { describe, expect, it } from 'vitest';
import { LENDBOT_VERSION } from '../../src/version.js';
import { runCli } from './run-cli.js';

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
    expect(none.stderr).toBe(
      'lendbot: LENDBOT_BASE_URL, LENDBOT_API_KEY, LENDBOT_SECRET_KEY and LENDBOT_WEBHOOK_SECRET are not set: set them to trade on the marketplace, or run `lendbot run --sandbox` for the simulated one (no real money)\n',
    );
    const some = await runCli(['run'], { LENDBOT_BASE_URL: 'https://api.example.com', LENDBOT_API_KEY: 'key' });
    expect(some.stderr).toBe(
      'lendbot: LENDBOT_SECRET_KEY and LENDBOT_WEBHOOK_SECRET are not set: set them to trade on the marketplace, or run `lendbot run --sandbox` for the simulated one (no real money)\n',
    );
  });
});
