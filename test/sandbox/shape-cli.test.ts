import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { embeddedSandboxShape } from '../../src/cli/commands/run/embedded-sandbox.js';
import { buildProgram } from '../../src/cli/program.js';
import { tempDirForTest } from '../temp-dir.js';

function memoryIo(): { io: Parameters<typeof buildProgram>[0]; out: () => string } {
  const stdout = new PassThrough();
  let out = '';
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return { io: { stdout, stderr: new PassThrough(), env: {} }, out: () => out };
}

describe('choosing a market shape', () => {
  it('sandbox export --shape writes that market and says which', async () => {
    const dir = tempDirForTest('lendbot-sandbox-shape-cli-');
    const { io, out } = memoryIo();
    await buildProgram(io).parseAsync([
      'node',
      'lendbot',
      'sandbox',
      'export',
      '--shape',
      'volatility',
      '--seed',
      '3',
      '--requests',
      '60',
      '--out',
      join(dir, 'v.jsonl'),
    ]);
    await buildProgram(memoryIo().io).parseAsync([
      'node',
      'lendbot',
      'sandbox',
      'export',
      '--seed',
      '3',
      '--requests',
      '60',
      '--out',
      join(dir, 'c.jsonl'),
    ]);
    expect(out()).toMatch(/\nmarket shape volatility, seed 3: \d+ borrowers walked away from an offer as too expensive\n$/);
    expect(readFileSync(join(dir, 'v.jsonl'), 'utf8')).not.toBe(readFileSync(join(dir, 'c.jsonl'), 'utf8'));
  });

  it('refuses an unknown shape naming the known ones, on the command line and in LENDBOT_SANDBOX_SHAPE', async () => {
    const run = buildProgram(memoryIo().io).parseAsync(['node', 'lendbot', 'sandbox', 'export', '--shape', 'prime', '--out', '/tmp/x']);
    await expect(run).rejects.toMatchObject({
      message: '--shape must be one of classic, credit, burden, volatility, shoppers, urgent (got "prime")',
      exitCode: 2,
    });
    expect(embeddedSandboxShape({})).toBe('classic');
    expect(embeddedSandboxShape({ LENDBOT_SANDBOX_SHAPE: ' burden ' })).toBe('burden');
    expect(() => embeddedSandboxShape({ LENDBOT_SANDBOX_SHAPE: 'prime' })).toThrow(
      'LENDBOT_SANDBOX_SHAPE must be one of classic, credit, burden, volatility, shoppers, urgent (got "prime")',
    );
  });
});
