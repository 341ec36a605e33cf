import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';
import { createMarketplaceClient, DEFAULT_RETRY } from '../../src/service/index.js';
import { tempDirForTest } from '../temp-dir.js';

function memoryIo(): { io: Parameters<typeof buildProgram>[0]; out: () => string; err: () => string } {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  return { io: { stdout, stderr, env: {} }, out: () => out, err: () => err };
}

describe('lendbot sandbox', () => {
  it('export writes a recording and says what it wrote', async () => {
    const dir = tempDirForTest('lendbot-cli-sandbox-');
    const file = join(dir, 'r.jsonl');
    const { io, out } = memoryIo();
    await buildProgram(io).parseAsync(['node', 'lendbot', 'sandbox', 'export', '--seed', '3', '--requests', '40', '--out', file]);
    expect(readFileSync(file, 'utf8').trimEnd().split('\n')).toHaveLength(40);
    expect(out()).toMatch(/^wrote 40 loan requests to .*r\.jsonl in [\d.]+s \(simulated 2026-01-01T00:00:00Z to /);
  });

  it('refuses a bad flag with a usage error', async () => {
    const { io } = memoryIo();
    const run = buildProgram(io).parseAsync(['node', 'lendbot', 'sandbox', 'export', '--requests', 'many', '--out', '/tmp/x']);
    await expect(run).rejects.toMatchObject({ message: '--requests must be a whole number from 1 to 10000000 (got "many")', exitCode: 2 });
  });

  it('serves on a port, prints credentials, answers signed requests and stops on SIGTERM', async () => {
    const child = spawn(process.execPath, ['bin/lendbot.js', 'sandbox', '--port', '0', '--seed', '5', '--arrivals', '120'], {
      cwd: process.cwd(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const printed = new Promise<void>((resolve) => {
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('LENDBOT_WEBHOOK_SECRET')) resolve();
      });
    });
    await printed;
    const value = (name: string): string => new RegExp(`export ${name}=(\\S+)`).exec(out)?.[1] ?? '';
    // The CLI sandbox accepts wall-clock signatures, so the client's default clock works.
    const client = createMarketplaceClient({
      baseUrl: value('LENDBOT_BASE_URL'),
      apiKey: value('LENDBOT_API_KEY'),
      secretKey: value('LENDBOT_SECRET_KEY'),
      signatureMode: 'timestamp-secret',
      numericRangeFormat: 'min-max-params',
      timeoutMs: 5000,
      retry: DEFAULT_RETRY,
    });
    const page = await client.listLoanRequests();
    client.close();
    expect(page.count).toBeGreaterThan(0);
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
