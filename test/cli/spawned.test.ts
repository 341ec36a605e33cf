/** The real binary, spawned: exit codes and what reaches the terminal, end to end. */
import { describe, expect, it } from 'vitest';
import { spawnCli } from './run-cli.js';

describe('bin/lendbot.js as a process', () => {
  it('prints the version and exits 0', { timeout: 60_000 }, async () => {
    const result = await spawnCli(['--version']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });

  it('exits 1 with one line for an unknown command', { timeout: 60_000 }, async () => {
    const result = await spawnCli(['frobnicate']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("error: unknown command 'frobnicate'");
  });

  it('exits 1 with the missing variable for a command that needs credentials', { timeout: 60_000 }, async () => {
    const result = await spawnCli(['api', 'transfers']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^lendbot: .*LENDBOT_BASE_URL/);
  });
});
