/**
 * No run-time code reads reason text (issue 38): reasons are values everywhere, and the patterns
 * that read old texts live only in the migration that turned every stored text into its value
 * once (src/store/reason-texts-to-values.ts), which only the list of migrations imports.
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SRC, sourceFiles } from './source-graph.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const MIGRATION = 'src/store/reason-texts-to-values.ts';
const files = sourceFiles(SRC).map((path) => ({ path: relative(root, path), text: readFileSync(path, 'utf8') }));

describe('reason text is read back nowhere at run time', () => {
  it('only the migrations import the migration that reads old reason texts', () => {
    const importers = files.filter(({ text }) => /from '[^']*reason-texts-to-values\.js'/.test(text)).map(({ path }) => path);
    expect(importers).toEqual(['src/store/migrations.ts']);
  });

  it('no other file reads a reason from its text', () => {
    const readers = files
      .filter(({ path, text }) => path !== MIGRATION && /\bstoredReasons?\b|decision-reason-parse/.test(text))
      .map(({ path }) => path);
    expect(readers).toEqual([]);
  });
});
