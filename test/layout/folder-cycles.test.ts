/**
 * The folders of src/ form layers: no folder imports one that imports it back, directly or
 * through others. A cycle means two parts can no longer be understood, tested or replaced alone.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, dirname, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** The top folder of src/ a file belongs to (`daemon` for src/daemon/pipeline.ts). */
function folderOf(file: string): string {
  return relative(SRC, file).split(sep)[0] ?? '';
}

/** Folder -> the folders it imports from (type imports included: they couple just the same). */
function folderGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of sourceFiles(SRC)) {
    const from = folderOf(file);
    if (!graph.has(from)) graph.set(from, new Set());
    for (const match of readFileSync(file, 'utf8').matchAll(/from '(\.[^']+)'/g)) {
      const target = resolve(dirname(file), match[1] ?? '');
      const to = folderOf(target);
      if (to !== from && !to.startsWith('..')) graph.get(from)?.add(to);
    }
  }
  return graph;
}

function findCycle(graph: Map<string, Set<string>>): string[] | undefined {
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

describe('the folder layers of src/', () => {
  it('have no import cycle between folders', () => {
    expect(findCycle(folderGraph())).toBeUndefined();
  });

  it('finds a cycle when there is one (the check itself works)', () => {
    const graph = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['a'])],
    ]);
    expect(findCycle(graph)).toEqual(['a', 'b', 'c', 'a']);
  });
});
