/**
 * The `lendbot` binary loads only the command it runs (src/cli/lazy-program.ts); every other
 * command is a placeholder built from the command table. Whatever the arguments, the output must
 * be the same as the program with every command loaded: help texts, errors, suggestions.
 */
import { Writable } from 'node:stream';
import { CommanderError, type Command } from 'commander';
import { describe, expect, it } from 'vitest';
import type { CliIo } from '../../src/cli/cli-io.js';
import { COMMAND_TABLE } from '../../src/cli/command-table.js';
import { buildProgramFor, commandNamed } from '../../src/cli/lazy-program.js';
import { buildProgram } from '../../src/cli/program.js';

function memoryIo(): { io: CliIo; output: () => string } {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  // One stream for both, so the order of stdout and stderr is compared too.
  return { io: { stdout: stream, stderr: stream, env: {} }, output: () => text };
}

/** Parses without running any action: only help, version and usage errors are compared. */
async function outputOf(build: (io: CliIo) => Command | Promise<Command>, args: string[]): Promise<{ code: number; text: string }> {
  const { io, output } = memoryIo();
  const program = await build(io);
  // Every command's action is replaced: this test is about what the parser prints.
  const silence = (command: Command): void => {
    command.commands.forEach(silence);
    if (command.commands.length === 0 && command.parent) command.action(() => undefined);
  };
  silence(program);
  let code = 0;
  try {
    await program.parseAsync(['node', 'lendbot', ...args]);
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    code = error.exitCode;
  }
  return { code, text: output() };
}

const CASES: string[][] = [
  [],
  ['--help'],
  ['-h'],
  ['help'],
  ['--version'],
  ['runn'],
  ['nonsense', '--flag'],
  ['--bogus'],
  ['help', 'api'],
  ['api', 'loan-requests', '--help'],
  ['strategy', 'check', '--help'],
  ['record', 'export', '--help'],
  ['sandbox', 'export', '--help'],
  ['run', '--no-such-option'],
  ...COMMAND_TABLE.map((entry) => [entry.name, '--help']),
];

describe('lendbot loads only the command it runs', () => {
  it.each(CASES.map((args) => [args.join(' ') || '(no arguments)', args]))(
    'prints what the full program prints: %s',
    async (_label, args) => {
      const lazy = await outputOf((io) => buildProgramFor(io, args as string[]), args as string[]);
      const eager = await outputOf(buildProgram, args as string[]);
      expect(lazy).toEqual(eager);
      expect(eager.text.length).toBeGreaterThan(0);
    },
  );

  it('finds the command in the arguments', () => {
    expect(commandNamed(['--help'])).toBeUndefined();
    expect(commandNamed(['run', '--config', 'x.yaml'])).toBe('run');
    expect(commandNamed(['-h', 'status'])).toBe('status');
    expect(commandNamed(['help', 'tune'])).toBe('tune');
    expect(commandNamed(['help'])).toBeUndefined();
  });

  it('lists every command in the table in the order of the full program', () => {
    const { io } = memoryIo();
    expect(buildProgram(io).commands.map((command) => command.name())).toEqual(COMMAND_TABLE.map((entry) => entry.name));
  });

  it('runs the command it loaded', async () => {
    const { io, output } = memoryIo();
    const program = await buildProgramFor(io, ['strategy', 'features']);
    await program.parseAsync(['node', 'lendbot', 'strategy', 'features']);
    expect(output()).toMatch(/credit_score/);
  });
});
