/**
 * Every command's --help ends with an `Examples:` block of real invocations: the test walks the
 * command table (and every subcommand), so a command added without examples fails here, and an
 * example naming an option its command does not take fails too.
 */
import { Writable } from 'node:stream';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import type { CliIo } from '../../src/cli/cli-io.js';
import { COMMAND_TABLE } from '../../src/cli/command-table.js';
import { examplesHelp } from '../../src/cli/examples-help.js';
import { programShell } from '../../src/cli/program-shell.js';

function capturingIo(): { io: CliIo; take: () => string } {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return {
    io: { stdout: stream, stderr: stream, env: {} },
    take: () => {
      const taken = text;
      text = '';
      return taken;
    },
  };
}

/** The example lines of a help text: the indented lines under `Examples...:`. */
function exampleLines(help: string): string[] | undefined {
  const block = /\nExamples[^\n]*:\n((?: {2}\S.*(?:\n|$))+)/.exec(help);
  return block?.[1]
    ?.split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => line.trim());
}

/** The command an invocation runs (`lendbot api offer 1042 --rate 0.2` runs `api offer`), and the long options it names. */
function parseInvocation(root: Command, line: string): { command: Command; path: string[]; flags: string[] } {
  const words =
    line
      .split(/\s+(?:#|\||>)\s/)[0]
      ?.trim()
      .split(/\s+/)
      .slice(1) ?? [];
  let command = root;
  const path: string[] = [];
  for (const word of words) {
    if (word.startsWith('-')) continue;
    const sub = command.commands.find((candidate) => candidate.name() === word);
    if (sub === undefined) continue;
    command = sub;
    path.push(word);
  }
  const flags = words.filter((word) => word.startsWith('--')).map((word) => word.split('=')[0] ?? word);
  return { command, path, flags };
}

/** What is wrong with the help of `command` (at `path`) and of every subcommand under it. */
function helpProblems(root: Command, command: Command, path: string[], take: () => string): string[] {
  command.outputHelp();
  const name = ['lendbot', ...path].join(' ');
  const lines = exampleLines(take());
  const problems: string[] = [];
  if (lines === undefined || lines.length === 0) problems.push(`${name}: no Examples block`);
  else {
    if (!lines.some((line) => line === name || line.startsWith(`${name} `))) problems.push(`${name}: no example runs ${name}`);
    for (const line of lines.filter((example) => example.startsWith('lendbot '))) {
      const invocation = parseInvocation(root, line);
      // A hidden option is a retired one (src/cli/retired-option.ts): an example must not use it.
      const shown = invocation.command.options.filter((option) => !option.hidden);
      const known = new Set(['--help', '--version', ...shown.map((option) => option.long)]);
      for (const flag of invocation.flags) {
        if (!known.has(flag))
          problems.push(`${name}: example "${line}" gives ${flag}, which lendbot ${invocation.path.join(' ')} does not take`);
      }
    }
  }
  for (const sub of command.commands) problems.push(...helpProblems(root, sub, [...path, sub.name()], take));
  return problems;
}

describe('--help examples', () => {
  it('every command in the table, and every subcommand, has an Examples block of invocations it accepts', async () => {
    const { io, take } = capturingIo();
    const program = programShell(io);
    for (const entry of COMMAND_TABLE) (await entry.load())(program, io);
    const problems = helpProblems(program, program, [], take);
    expect(problems).toEqual([]);
    // Every command of the table was walked (the table lists what the program holds).
    expect(program.commands.map((command) => command.name())).toEqual(COMMAND_TABLE.map((entry) => entry.name));
  });

  it('reports a command without examples, one whose examples run something else, and an unknown option', () => {
    const { io, take } = capturingIo();
    const program = programShell(io);
    program.command('bare').description('no examples');
    program.command('other').addHelpText('after', examplesHelp('lendbot bare'));
    program.command('typo').option('--limit <n>').addHelpText('after', examplesHelp('lendbot typo --limt 3'));
    const problems = program.commands.flatMap((command) => helpProblems(program, command, [command.name()], take));
    expect(problems).toEqual([
      'lendbot bare: no Examples block',
      'lendbot other: no example runs lendbot other',
      'lendbot typo: example "lendbot typo --limt 3" gives --limt, which lendbot typo does not take',
    ]);
  });
});
