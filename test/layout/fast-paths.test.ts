/**
 * Fast paths are fenced (docs/performance.md, "Fast paths and their references"): every file
 * whose first comment says `FAST PATH of <reference file>:<function>; equivalence: <test file>;
 * change both or neither` is in the docs' table with the same reference and test, every row of
 * the table is such a file, and the reference and the test exist. Module-level memos are named:
 * a `const MEMO_...` goes with a first comment saying "This module keeps a bounded memo of", and
 * each is listed in the docs' memo table. The pure floors (engine, clock, risk, domain, math) keep no
 * other module-level `let`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SRC, sourceFiles } from './source-graph.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const performance = readFileSync(`${root}docs/performance.md`, 'utf8');
const files = sourceFiles(SRC).map((path) => ({ path: relative(root, path), text: readFileSync(path, 'utf8') }));

const HEADER = /FAST PATH(?: \((\w+)\))? of (\S+?):(\w+); equivalence: (\S+?); change both or neither\./;
const MEMO_LINE = /this module keeps a bounded memo of/i;
const MEMO_CONST = /^(?:export )?const (MEMO_\w+)/gm;

/** The file's opening doc comment as one line of text ('' when it opens with none). */
function firstComment(text: string): string {
  if (!text.startsWith('/**')) return '';
  const end = text.indexOf('*/');
  return text
    .slice(3, end)
    .split('\n')
    .map((line) => line.replace(/^\s*\*\s?/, '').trim())
    .join(' ');
}

/** The rows of the markdown table that follows `heading`, each as its backticked first cells. */
function tableRows(heading: string, cells: number): string[][] {
  const start = performance.indexOf(heading);
  if (start < 0) return [];
  const lines = performance.slice(start).split('\n');
  const first = lines.findIndex((line) => line.startsWith('|'));
  const rows: string[][] = [];
  for (const line of lines.slice(first)) {
    if (!line.startsWith('|')) break;
    const found = [...line.matchAll(/`([^`]+)`/g)].slice(0, cells).map((match) => match[1] ?? '');
    if (found.length === cells) rows.push(found);
  }
  return rows;
}

/** `name` is declared in `text`: a function, class, constant or type, or a member (`name(` or `name:`). */
function declares(text: string, name: string): boolean {
  return new RegExp(`(?:function\\*?|class|const|let|interface|type)\\s+${name}\\b|^\\s*(?:readonly\\s+)?${name}\\s*[(:<]`, 'm').test(text);
}

interface FastPath {
  fastPath: string;
  reference: string;
  test: string;
}

const headed: FastPath[] = files.flatMap(({ path, text }) => {
  const match = HEADER.exec(firstComment(text));
  if (!match) return [];
  const [, only, referenceFile = '', referenceName = '', test = ''] = match;
  return [{ fastPath: only === undefined ? path : `${path}:${only}`, reference: `${referenceFile}:${referenceName}`, test }];
});
const listed: FastPath[] = tableRows('## Fast paths and their references', 3).map(([fastPath = '', reference = '', test = '']) => ({
  fastPath,
  reference,
  test,
}));

describe('fast paths', () => {
  it('say so in their first comment exactly as docs/performance.md lists them, and the other way round', () => {
    expect(headed.length).toBeGreaterThanOrEqual(8);
    const byPath = (a: FastPath, b: FastPath): number => a.fastPath.localeCompare(b.fastPath);
    expect(headed.toSorted(byPath)).toEqual(listed.toSorted(byPath));
  });

  it('write the header in its one form: a first comment that mentions FAST PATH otherwise is a typo', () => {
    const malformed = files
      .filter(({ text }) => firstComment(text).includes('FAST PATH') && !HEADER.test(firstComment(text)))
      .map(({ path }) => path);
    expect(malformed).toEqual([]);
  });

  it('name a reference and an equivalence test that exist', () => {
    const missing: string[] = [];
    for (const { fastPath, reference, test } of headed) {
      const [referenceFile = '', referenceName = ''] = reference.split(':');
      if (!existsSync(`${root}${referenceFile}`)) missing.push(`${fastPath}: no file ${referenceFile}`);
      else if (!declares(readFileSync(`${root}${referenceFile}`, 'utf8'), referenceName)) {
        missing.push(`${fastPath}: ${referenceFile} declares no ${referenceName}`);
      }
      if (!existsSync(`${root}${test}`)) missing.push(`${fastPath}: no test ${test}`);
      const [file = '', only] = fastPath.split(':');
      if (only !== undefined && !declares(readFileSync(`${root}${file}`, 'utf8'), only))
        missing.push(`${fastPath}: ${file} declares no ${only}`);
    }
    expect(missing).toEqual([]);
  });
});

describe('module-level memos', () => {
  const memos = files.map(({ path, text }) => ({
    path,
    names: [...text.matchAll(MEMO_CONST)].map((match) => match[1] ?? ''),
    said: MEMO_LINE.test(firstComment(text)),
  }));

  it('are named MEMO_ where the first comment says the module keeps one, and only there', () => {
    const unsaid = memos.filter((memo) => memo.names.length > 0 && !memo.said).map((memo) => memo.path);
    const unnamed = memos.filter((memo) => memo.names.length === 0 && memo.said).map((memo) => memo.path);
    expect({ unsaid, unnamed }).toEqual({ unsaid: [], unnamed: [] });
  });

  it('are listed in docs/performance.md, and every memo listed exists', () => {
    const inCode = memos.flatMap((memo) => memo.names.map((name) => `${memo.path} ${name}`)).sort();
    const inDocs = tableRows('### Memos', 2)
      .map(([path = '', name = '']) => `${path} ${name}`)
      .sort();
    expect(inCode.length).toBeGreaterThanOrEqual(5);
    expect(inDocs).toEqual(inCode);
  });

  it('are the only module-level state of the pure floors, besides two named here', () => {
    // Not memos: the tsx loader is registered once per process; the market learning in effect is
    // set for the span of one decide step (withLearning) and read by pricing under it.
    const allowed = new Set(['src/engine/load/typescript-loader.ts', 'src/engine/market/active-learning.ts']);
    const floors = /^src\/(engine|clock|risk|domain|math)\//;
    const stateful = files
      .filter(({ path, text }) => floors.test(path) && !allowed.has(path) && /^let /m.test(text))
      .map(({ path }) => path);
    expect(stateful).toEqual([]);
  });
});
