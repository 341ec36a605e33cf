/**
 * The README, CONTRIBUTING and every page under docs/ name the repository's files in prose, in
 * commands and in examples (`npx vitest run test/...`, `node --import tsx bench/...`); each such
 * path must exist, so a moved file cannot leave a reader with a command that fails.
 * contributing.test.ts checks CONTRIBUTING's map in more detail.
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DOC_PAGES, ROOT } from './doc-pages.js';

const root = ROOT;
const pages = DOC_PAGES;

/** A path inside the repository's own folders, with a file extension: src/a/b.ts, bench/x.ts, .ci/run excluded (no extension). */
const PATH = /(?<![\w./-])((?:src|test|bench|scripts|schema|docs|\.ci)\/[\w./-]*\w\.(?:ts|js|mjs|md|json|sh))\b/g;

describe('paths named by the docs', () => {
  it('exist', () => {
    const missing: string[] = [];
    let checked = 0;
    for (const page of pages) {
      const text = readFileSync(`${root}${page}`, 'utf8');
      for (const [, path = ''] of text.matchAll(PATH)) {
        checked += 1;
        // An import in an example may name the compiled .js of a .ts source, as TypeScript's ESM does.
        const candidates = [path, path.replace(/\.js$/, '.ts')];
        if (!candidates.some((candidate) => existsSync(`${root}${candidate}`))) missing.push(`${page}: ${path}`);
      }
    }
    expect(checked).toBeGreaterThan(200);
    expect([...new Set(missing)]).toEqual([]);
  });
});
