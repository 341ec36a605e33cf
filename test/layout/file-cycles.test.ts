/**
 * No file of src/ imports one that imports it back, directly or through others (the folder test
 * sees only cycles between folders), and `import type` counts (issue 38: "0 import circles
 * counting type imports").
 *
 * At run time a cycle is a bug: one of the files runs while the other is half loaded, so a
 * constant read at load time is undefined or throws, depending on which file a caller happened to
 * import first. `import { type A }` counts there too (verbatimModuleSyntax compiles it to
 * `import {} from`, which still loads the file). A cycle of types loads nothing, but it still ties
 * files that should come apart: two halves neither of which can be read, tested or moved alone.
 * A type goes where it belongs instead, in the lower of the two files or a small file of its own
 * at the right floor (decision-row.ts holds the stored decision the repository and the page
 * query both read). `await import('./x.js')` never counts: it runs after both files have loaded.
 */
import { describe, expect, it } from 'vitest';
import { cycleText, fileGraph, importCycles, importSpecifiers } from './source-graph.js';

describe('the files of src/', () => {
  it('have no import cycle between files at run time', () => {
    expect(importCycles(fileGraph(true)).map(cycleText)).toEqual([]);
  });

  it('have no import cycle between files, type imports counted', () => {
    expect(importCycles(fileGraph()).map(cycleText)).toEqual([]);
  });

  it('lists each cycle once with its files (the check itself works)', () => {
    const graph = new Map([
      ['a.ts', new Set(['b.ts'])],
      ['b.ts', new Set(['a.ts', 'c.ts'])],
      ['c.ts', new Set(['d.ts'])],
      ['d.ts', new Set(['c.ts'])],
      ['e.ts', new Set(['a.ts'])],
    ]);
    expect(importCycles(graph).map(cycleText)).toEqual([
      'a.ts -> b.ts -> a.ts (2 files: a.ts, b.ts)',
      'c.ts -> d.ts -> c.ts (2 files: c.ts, d.ts)',
    ]);
  });

  it('counts value imports, re-exports and `{ type A }` imports at run time, `import type` only with types, never dynamic import()', () => {
    const text = [
      "import { a } from './one.js';",
      "import type { B } from './two.js';",
      "export { c, type D } from './three.js';",
      "export type { E } from './four.js';",
      "import {\n  type F,\n} from './five.js';",
      "import './six.js';",
      "const g = await import('./seven.js');",
    ].join('\n');
    expect(importSpecifiers(text, true)).toEqual(['./one.js', './three.js', './five.js', './six.js']);
    expect(importSpecifiers(text)).toEqual(['./one.js', './two.js', './three.js', './four.js', './five.js', './six.js']);
  });
});
