/**
 * What the layout tests read of src/: its .ts files, the relative imports each one makes (one
 * parser for every layout test), the graph of files they draw, and the walks that find cycles in
 * a graph of names. Shared by folder-cycles, file-cycles, math-floor and messaging-wing.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const SRC = fileURLToPath(new URL('../../src', import.meta.url));

/** Every .ts file under `dir`, recursively. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** A static import or re-export of a relative path (`erased` when it is `import type`/`export type`). */
const IMPORT =
  /^(?:import|export)\s+(?<erased>type\s+)?(?:[\w$]+\s*,?\s*)?(?:\{[^}]*\}|\*(?:\s+as\s+[\w$]+)?)?\s*from\s+'(?<path>\.[^']+)'|^import\s+'(?<bare>\.[^']+)'/gm;

/**
 * The relative paths a file's text imports ('./x.js'), in order: every static import and
 * re-export, `import type` and `export type` included unless `runtimeOnly` (then only those that
 * load the file when this one runs; `import { type A }` still does under verbatimModuleSyntax).
 * `await import('./x.js')` is never counted: it runs after both files have loaded.
 */
export function importSpecifiers(text: string, runtimeOnly = false): string[] {
  return [...text.matchAll(IMPORT)].flatMap(({ groups }) =>
    runtimeOnly && groups?.['erased'] !== undefined ? [] : [groups?.['path'] ?? groups?.['bare'] ?? ''],
  );
}

/** File (relative to src/, '/'-separated) -> the files it imports, types included unless `runtimeOnly`. */
export function fileGraph(runtimeOnly = false): Map<string, Set<string>> {
  const name = (path: string) => relative(SRC, path).split(sep).join('/');
  const graph = new Map<string, Set<string>>();
  for (const file of sourceFiles(SRC)) {
    const targets = importSpecifiers(readFileSync(file, 'utf8'), runtimeOnly).map((specifier) => {
      const target = resolve(dirname(file), specifier.replace(/\.js$/, '.ts'));
      if (!existsSync(target)) throw new Error(`${name(file)} imports ${specifier}, which is no .ts file of src/`);
      return name(target);
    });
    graph.set(name(file), new Set(targets));
  }
  return graph;
}

/** One cycle in `graph` as the path that closes it (['a', 'b', 'a']), or undefined when there is none. */
export function findCycle(graph: ReadonlyMap<string, ReadonlySet<string>>): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (node: string): string[] | undefined => {
    if (state.get(node) === 'done') return undefined;
    if (state.get(node) === 'open') return [...path.slice(path.indexOf(node)), node];
    state.set(node, 'open');
    path.push(node);
    for (const next of graph.get(node) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(node, 'done');
    return undefined;
  };
  for (const node of graph.keys()) {
    const cycle = visit(node);
    if (cycle) return cycle;
  }
  return undefined;
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

/** A group of nodes that all reach one another: one loop through it, and every member. */
export interface ImportCycle {
  loop: string[];
  members: string[];
}

/** Each group of nodes that reach one another, sorted, so a failure reads the same on every run. */
export function importCycles(graph: ReadonlyMap<string, ReadonlySet<string>>): ImportCycle[] {
  const reach = new Map([...graph.keys()].map((node) => [node, reachableFrom(graph, node)]));
  const grouped = new Set<string>();
  const cycles: ImportCycle[] = [];
  for (const node of [...graph.keys()].sort()) {
    if (grouped.has(node) || !reach.get(node)?.has(node)) continue;
    const group = new Set([...(reach.get(node) ?? [])].filter((other) => reach.get(other)?.has(node)));
    const members = [...group].sort();
    for (const member of members) grouped.add(member);
    const inside = new Map(members.map((member) => [member, new Set([...(graph.get(member) ?? [])].filter((next) => group.has(next)))]));
    cycles.push({ loop: findCycle(inside) ?? [node], members });
  }
  return cycles;
}

/** A cycle as a failure shows it: "a.ts -> b.ts -> a.ts (2 files: a.ts, b.ts)". */
export function cycleText({ loop, members }: ImportCycle): string {
  return `${loop.join(' -> ')} (${members.length} files: ${members.join(', ')})`;
}

/** Every import of a file of `folder` (of src/) from a file outside it, as "from -> to", sorted: a wing's attach lines. */
export function importsInto(folder: string, graph: ReadonlyMap<string, ReadonlySet<string>> = fileGraph()): string[] {
  const inside = (file: string) => file.startsWith(`${folder}/`);
  return [...graph]
    .filter(([file]) => !inside(file))
    .flatMap(([file, targets]) => [...targets].filter(inside).map((target) => `${file} -> ${target}`))
    .sort();
}
