/**
 * No two files under src/ share a name (issue 38, "names that do not collide"): a name found in a
 * stack trace, a search or a review comment then points at one file, and each file's name has to
 * say what it holds rather than lean on its folder (`idle-cash.ts` was once the backtest's meter
 * and the daemon's samples). `index.ts` is the exception by design: it is every folder's public
 * face, named by the convention that lets `../x/index.js` be imported as the folder.
 */
import { basename, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SRC, sourceFiles } from './source-graph.js';

/** Names many folders hold on purpose. */
const SHARED_BY_DESIGN = new Set(['index.ts']);

/** Each base name held by more than one file, with the files that hold it. */
function collisions(paths: readonly string[]): string[] {
  const byName = new Map<string, string[]>();
  for (const path of paths) {
    const name = basename(path);
    if (SHARED_BY_DESIGN.has(name)) continue;
    byName.set(name, [...(byName.get(name) ?? []), relative(SRC, path)]);
  }
  return [...byName.entries()].filter(([, files]) => files.length > 1).map(([name, files]) => `${name}: ${files.join(', ')}`);
}

describe('file names under src/', () => {
  it('are unique: no two files share a base name (index.ts apart)', () => {
    expect(collisions(sourceFiles(SRC))).toEqual([]);
  });

  it('finds a collision when there is one (the check itself works)', () => {
    expect(collisions([`${SRC}/a/metrics.ts`, `${SRC}/b/metrics.ts`, `${SRC}/a/index.ts`, `${SRC}/b/index.ts`])).toEqual([
      expect.stringMatching(/^metrics\.ts: a.metrics\.ts, b.metrics\.ts$/),
    ]);
  });
});
