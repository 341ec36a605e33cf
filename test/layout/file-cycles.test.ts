/**
 * No file of src/ imports one that imports it back, directly or through others (the folder test
 * sees only cycles between folders). In an ES module cycle one of the files runs while the other
 * is half loaded: a constant read at load time is undefined or throws, depending on which file a
 * caller happened to import first.
 *
 * What counts as an import: `import ... from './x.js'`, `export ... from './x.js'` and
 * `import './x.js'`, including `import { type A } from`, which verbatimModuleSyntax compiles to
 * `import {} from` and so still loads the file. What does not: `import type` and `export type`,
 * which the compiler erases (they cannot leave a half-loaded module behind, and a type that names
 * its neighbour back is often the plainest way to write two halves of one thing), and
 * `await import('./x.js')`, which runs after both files have loaded (the lazy command table).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findCycle, sourceFiles, SRC } from './source-graph.js';

/** A static import or re-export of a relative path (`erased` when it is `import type`/`export type`). */
const IMPORT =
  /^(?:import|export)\s+(?<erased>type\s+)?(?:[\w$]+\s*,?\s*)?(?:\{[^}]*\}|\*(?:\s+as\s+[\w$]+)?)?\s*from\s+'(?<path>\.[^']+)'|^import\s+'(?<bare>\.[^']+)'/gm;

/** The relative paths a file's text loads at run time ('./x.js'), in order. */
function runtimeSpecifiers(text: string): string[] {
  return [...text.matchAll(IMPORT)].flatMap(({ groups }) =>
    groups?.['erased'] === undefined ? [groups?.['path'] ?? groups?.['bare'] ?? ''] : [],
  );
}

/** File (relative to src/) -> the files it loads at run time. */
function fileGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of sourceFiles(SRC)) {
    const targets = runtimeSpecifiers(readFileSync(file, 'utf8')).map((specifier) => {
      const target = resolve(dirname(file), specifier.replace(/\.js$/, '.ts'));
      if (!existsSync(target)) throw new Error(`${relative(SRC, file)} imports ${specifier}, which is no .ts file of src/`);
      return relative(SRC, target);
    });
    graph.set(relative(SRC, file), new Set(targets));
  }
  return graph;
}

function reachableFrom(graph: ReadonlyMap<string, ReadonlySet<string>>, start: string): Set<string> {
  const seen = new Set<string>();
  const stack = [start];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    for (const next of graph.get(node) ?? []) {
      if (!seen.has(next)) {
        seen.add(next);
        stack.push(next);
      }
    }
  }
  return seen;
}

/**
 * Each group of files that reach one another, as one loop through it and the group's size:
 * "a.ts -> b.ts -> a.ts (2 files)". Sorted, so a failure reads the same on every run.
 */
function importCycles(graph: ReadonlyMap<string, ReadonlySet<string>>): string[] {
  const reach = new Map([...graph.keys()].map((node) => [node, reachableFrom(graph, node)]));
  const grouped = new Set<string>();
  const cycles: string[] = [];
  for (const node of [...graph.keys()].sort()) {
    if (grouped.has(node) || !reach.get(node)?.has(node)) continue;
    const group = new Set([...(reach.get(node) ?? [])].filter((other) => reach.get(other)?.has(node)));
    const members = [...group].sort();
    for (const member of members) grouped.add(member);
    const inside = new Map(members.map((member) => [member, new Set([...(graph.get(member) ?? [])].filter((next) => group.has(next)))]));
    cycles.push(`${(findCycle(inside) ?? [node]).join(' -> ')} (${members.length} files: ${members.join(', ')})`);
  }
  return cycles;
}

describe('the files of src/', () => {
  it('have no import cycle between files', () => {
    expect(importCycles(fileGraph())).toEqual([]);
  });

  it('lists each cycle once with its files (the check itself works)', () => {
    const graph = new Map([
      ['a.ts', new Set(['b.ts'])],
      ['b.ts', new Set(['a.ts', 'c.ts'])],
      ['c.ts', new Set(['d.ts'])],
      ['d.ts', new Set(['c.ts'])],
      ['e.ts', new Set(['a.ts'])],
    ]);
    expect(importCycles(graph)).toEqual(['a.ts -> b.ts -> a.ts (2 files: a.ts, b.ts)', 'c.ts -> d.ts -> c.ts (2 files: c.ts, d.ts)']);
  });

  it('counts value imports, re-exports and `{ type A }` imports, not `import type` or dynamic import()', () => {
    const text = [
      "import { a } from './one.js';",
      "import type { B } from './two.js';",
      "export { c, type D } from './three.js';",
      "export type { E } from './four.js';",
      "import {\n  type F,\n} from './five.js';",
      "import './six.js';",
      "const g = await import('./seven.js');",
    ].join('\n');
    expect(runtimeSpecifiers(text)).toEqual(['./one.js', './three.js', './five.js', './six.js']);
  });
});
