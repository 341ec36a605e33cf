/**
 * Every `lendbot ...` command the README, CONTRIBUTING and docs/ show (in code blocks and inline
 * code) names commands that exist and options those commands take, so a reader who copies one
 * never meets "unknown option". Checked against the program itself (buildProgram), not a list;
 * and every `npm run` script they name is in package.json.
 */
import { readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { DOC_PAGES, ROOT } from './doc-pages.js';
import { buildProgram } from '../../src/cli/program.js';

const root = ROOT;
const pages = DOC_PAGES;

/** The code of a Markdown page: each line of its fenced blocks and each inline code span. */
function codeOf(text: string): string[] {
  const code: string[] = [];
  let fenced = false;
  for (const line of text.split('\n')) {
    if (line.trimStart().startsWith('```')) {
      fenced = !fenced;
      continue;
    }
    if (fenced) code.push(line);
    else for (const [, span = ''] of line.matchAll(/`([^`]+)`/g)) code.push(span);
  }
  return code;
}

/** The words after each `lendbot` that starts a command in `code`, up to the end of the command. */
function invocations(code: string): string[][] {
  const found: string[][] = [];
  for (const match of code.matchAll(/(?:^|[\s(;&|$])lendbot((?:[ \t]+[^\s|;&>#\\`)]+)*)/g)) {
    const words = (match[1] ?? '').trim().split(/\s+/).filter(Boolean);
    found.push(words);
  }
  return found;
}

/** The long options a command takes: its own, and --help; not a retired one (hidden: it only fails naming the new way). */
function longOptions(command: Command): Set<string> {
  const shown = command.options.filter((option) => !option.hidden);
  return new Set(['--help', ...shown.map((option) => option.long).filter((long): long is string => long !== undefined)]);
}

describe('lendbot commands shown in the docs', () => {
  const sink = new PassThrough();
  const program = buildProgram({ stdout: sink, stderr: sink, env: {} });

  it('name commands and options that exist', () => {
    const wrong: string[] = [];
    let checked = 0;
    for (const page of pages) {
      for (const line of codeOf(readFileSync(`${root}${page}`, 'utf8'))) {
        // `lendbot doctor`'s own output, shown in a block, says what to run in prose ("fix: ...").
        if (/^\s*fix: /.test(line)) continue;
        for (const words of invocations(line)) {
          let command: Command = program;
          let index = 0;
          // The command path: as many words as name subcommands.
          for (; index < words.length; index += 1) {
            const next = command.commands.find((sub) => sub.name() === words[index] || sub.aliases().includes(words[index] ?? ''));
            if (next === undefined) break;
            command = next;
          }
          if (command === program) continue; // `lendbot --version`, prose like "lendbot's", a placeholder
          checked += 1;
          const known = longOptions(command);
          for (const word of words.slice(index)) {
            if (!word.startsWith('--')) continue;
            const option = word.split('=')[0] ?? word;
            if (!known.has(option)) wrong.push(`${page}: lendbot ${words.join(' ')}: ${option} is not an option of "${command.name()}"`);
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
    expect([...new Set(wrong)]).toEqual([]);
  });

  it('run npm scripts that package.json has', () => {
    const scripts = Object.keys((JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { scripts: Record<string, string> }).scripts);
    const named = pages.flatMap((page) =>
      [...readFileSync(`${root}${page}`, 'utf8').matchAll(/\bnpm run ([\w:-]+)/g)].map((match) => ({ page, script: match[1] ?? '' })),
    );
    expect(named.length).toBeGreaterThan(5);
    expect(named.filter(({ script }) => !scripts.includes(script))).toEqual([]);
  });
});
