/**
 * An expected failure that escapes as an uncaught error or rejection after start (an AppError:
 * a refusal, an outage, a bad setting) reaches the terminal as its one line, not a stack; a bug
 * keeps its stack (src/daemon/shutdown.ts).
 */
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const SHUTDOWN = new URL('../../src/daemon/shutdown.ts', import.meta.url).href;
const ERRORS = new URL('../../src/domain/index.ts', import.meta.url).href;

function run(throwing: string): Promise<{ code: number; stderr: string }> {
  const script = [
    `import { installShutdown } from ${JSON.stringify(SHUTDOWN)};`,
    `import { ConfigurationError } from ${JSON.stringify(ERRORS)};`,
    'void installShutdown({ stop: async () => {} }, { graceMs: 5000, log: (line) => process.stderr.write(line + "\\n") });',
    `setTimeout(() => { ${throwing} }, 10);`,
  ].join('\n');
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', TSX, '--input-type=module', '-e', script], { timeout: 30_000 }, (error, _stdout, stderr) => {
      resolve({ code: error && typeof error.code === 'number' ? error.code : 0, stderr });
    });
  });
}

describe('an uncaught error after start', () => {
  it('is one line when it is an expected failure', { timeout: 30_000 }, async () => {
    const uncaught = await run("throw new ConfigurationError('LENDBOT_EXAMPLE is wrong: set it right');");
    expect(uncaught.code).toBe(1);
    expect(uncaught.stderr).toContain('lendbot: uncaught error: LENDBOT_EXAMPLE is wrong: set it right\n');
    expect(uncaught.stderr).not.toMatch(/\n\s+at /);
    const rejected = await run("void Promise.reject(new ConfigurationError('LENDBOT_EXAMPLE is wrong'));");
    expect(rejected.stderr).toContain('lendbot: unhandled rejection: LENDBOT_EXAMPLE is wrong\n');
    expect(rejected.stderr).not.toMatch(/\n\s+at /);
  });

  it('keeps its stack when it is a bug', { timeout: 30_000 }, async () => {
    const bug = await run("throw new TypeError('x is not a function');");
    expect(bug.code).toBe(1);
    expect(bug.stderr).toMatch(/lendbot: uncaught error: TypeError: x is not a function\n\s+at /);
  });
});
