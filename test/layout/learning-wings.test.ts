/**
 * Market learning and the learned default level are wings (issue 38, item 2): src/market-learning/
 * and src/calibration/ each hold the daemon's side of one learner, restoring it from the store,
 * noting or feeding what it learns from on its own job, its own API route and, for the default
 * level, its own tables; each attaches in one line of src/daemon/daemon.ts. Deleting a folder, its
 * attach line and its entries among the wings (wing-surfaces.ts: the route; wing-learners.ts: what
 * `strategy explain --db` restores) leaves lendbot whole; the daemon decides and places without
 * it, priced by the prior (test/daemon/market-learning-left-out.test.ts,
 * test/daemon/calibration-left-out.test.ts).
 *
 * - outside each folder only its attach line and its entries name it;
 * - the daemon, the operator and the store keep no file of theirs;
 * - the learning math stays in the engine (src/engine/market/), part of the one decide step the
 *   daemon and the backtest's replay share; the figures every view reads stay in the status report.
 */
import { describe, expect, it } from 'vitest';
import { fileGraph, importsInto } from './source-graph.js';

const graph = fileGraph();

const WINGS = [
  {
    folder: 'market-learning',
    files: ['market-fates.ts', 'market-learning-routes.ts'],
    gone: ['daemon/market-fates.ts', 'operator/api/market-learning-routes.ts'],
    attachedBy: [
      'daemon/daemon.ts -> market-learning/market-fates.ts',
      'daemon/wing-learners.ts -> market-learning/market-fates.ts',
      'daemon/wing-surfaces.ts -> market-learning/market-learning-routes.ts',
    ],
  },
  {
    folder: 'calibration',
    files: ['calibration-fates.ts', 'calibration-learning-repository.ts', 'calibration-routes.ts'],
    gone: ['daemon/calibration-fates.ts', 'operator/api/calibration-routes.ts', 'store/calibration-learning-repository.ts'],
    attachedBy: [
      'daemon/daemon.ts -> calibration/calibration-fates.ts',
      'daemon/wing-learners.ts -> calibration/calibration-fates.ts',
      'daemon/wing-surfaces.ts -> calibration/calibration-routes.ts',
    ],
  },
];

describe.each(WINGS)('the $folder wing', ({ folder, files, gone, attachedBy }) => {
  it('holds its job, its route and what it restores, and nothing else keeps them', () => {
    for (const file of files) expect(graph.has(`${folder}/${file}`)).toBe(true);
    for (const file of gone) expect(graph.has(file)).toBe(false);
  });

  it('is imported outside its folder only by its attach line and its entries among the wings', () => {
    expect(importsInto(folder, graph)).toEqual(attachedBy);
  });
});
