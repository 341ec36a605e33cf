/**
 * The folders of src/ form layers: no folder imports one that imports it back, directly or
 * through others. A cycle means two parts can no longer be understood, tested or replaced alone.
 * The lowest layer is domain (the shared vocabulary), which imports no other folder; the engine,
 * the store, the guard and the logger take their words from it, never from the HTTP client.
 */
import { readFileSync } from 'node:fs';
import { relative, resolve, dirname, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findCycle, sourceFiles, SRC } from './source-graph.js';

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

describe('the folder layers of src/', () => {
  it('have no import cycle between folders', () => {
    expect(findCycle(folderGraph())).toBeUndefined();
  });

  it('keep domain on the ground floor: it imports nothing of src/ but itself', () => {
    expect([...(folderGraph().get('domain') ?? [])]).toEqual([]);
  });

  it('keep the engine, the store, the guard and the logger off the marketplace client (they speak domain)', () => {
    const graph = folderGraph();
    const offenders = ['engine', 'store', 'risk', 'log'].filter((folder) => graph.get(folder)?.has('service'));
    expect(offenders).toEqual([]);
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
