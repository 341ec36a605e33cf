/**
 * The folders of src/ form layers: no folder imports one that imports it back, directly or
 * through others, and no floor imports a higher one (CONTRIBUTING.md, "Files of 50 to 300
 * lines": the layers, lowest first). A cycle means two parts can no longer be understood, tested
 * or replaced alone. The lowest layer is domain (the shared vocabulary), which imports no other
 * folder; the engine, the store, the guard and the logger take their words from it, never from
 * the HTTP client. Type imports count here: they couple just the same.
 */
import { describe, expect, it } from 'vitest';
import { fileGraph, findCycle } from './source-graph.js';

/**
 * The floors, lowest first, as CONTRIBUTING.md lists them: a folder imports its own floor and
 * those below. `version.ts`, the one file at the top of src/, reads package.json and nothing else.
 */
const FLOORS: readonly (readonly string[])[] = [
  ['domain', 'version.ts'],
  ['math'],
  ['log', 'clock', 'config'],
  ['store', 'risk', 'engine'],
  ['service', 'webhook', 'recording', 'backtest', 'sandbox', 'money'],
  ['ops'],
  ['messaging', 'operator'],
  ['retrain', 'proposals', 'challengers', 'cash-flow', 'market-learning', 'calibration'],
  ['daemon'],
  ['cli'],
];

/** The top folder of src/ a file belongs to (`daemon` for daemon/pipeline.ts). */
const folderOf = (file: string): string => file.split('/')[0] ?? '';

/** Folder -> the folders it imports from, and the file-level edges behind each (for the failure). */
function folderEdges(): Map<string, Map<string, string[]>> {
  const edges = new Map<string, Map<string, string[]>>();
  for (const [file, targets] of fileGraph()) {
    const from = folderOf(file);
    const out = edges.get(from) ?? new Map<string, string[]>();
    edges.set(from, out);
    for (const target of targets) {
      const to = folderOf(target);
      if (to !== from) out.set(to, [...(out.get(to) ?? []), `${file} -> ${target}`]);
    }
  }
  return edges;
}

const edges = folderEdges();
const folderGraph = new Map([...edges].map(([folder, out]) => [folder, new Set(out.keys())]));

describe('the folder layers of src/', () => {
  it('have no import cycle between folders', () => {
    expect(findCycle(folderGraph)).toBeUndefined();
  });

  it('keep domain on the ground floor: it imports nothing of src/ but itself', () => {
    expect([...(folderGraph.get('domain') ?? [])]).toEqual([]);
  });

  it('keep the engine, the store, the guard and the logger off the marketplace client (they speak domain)', () => {
    const offenders = ['engine', 'store', 'risk', 'log'].filter((folder) => folderGraph.get(folder)?.has('service'));
    expect(offenders).toEqual([]);
  });

  it('put every folder on a floor, and no floor imports a higher one (math included)', () => {
    const floorOf = new Map(FLOORS.flatMap((floor, level) => floor.map((folder) => [folder, level] as const)));
    expect([...folderGraph.keys()].filter((folder) => !floorOf.has(folder))).toEqual([]);
    const upward = [...edges].flatMap(([from, out]) =>
      [...out].filter(([to]) => (floorOf.get(to) ?? 0) > (floorOf.get(from) ?? 0)).flatMap(([, files]) => files),
    );
    expect(upward).toEqual([]);
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
