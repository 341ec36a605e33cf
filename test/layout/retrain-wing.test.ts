/**
 * Retraining is a wing (issue 38, item 2): src/retrain/ holds the loop, its rounds, the managed
 * versions, its config section and the agents' tool, and attaches itself in one call
 * (attach-retrain.ts, attachRetrain). Deleting the folder, its attach line, its entry among the
 * wings and the `lendbot retrain` command leaves lendbot whole; the daemon decides and places
 * without it (test/daemon/retrain-left-out.test.ts).
 *
 * - outside the folder only ATTACHED_BY name it, and the command only through the wing's index;
 * - it sits above the operator listener whose tool registration it uses, so nothing below it
 *   (ops, messaging, operator and their floors) can import it (folder-cycles.test.ts, FLOORS).
 */
import { describe, expect, it } from 'vitest';
import { fileGraph, importsInto } from './source-graph.js';

/** The attach line (daemon.ts), the wing's entries (wing-parts.ts: `retrain:`; wing-surfaces.ts: the agents' tool) and `lendbot retrain`. */
const ATTACHED_BY = [
  'cli/commands/retrain/index.ts -> retrain/index.ts',
  'cli/commands/retrain/retrain-text.ts -> retrain/index.ts',
  'daemon/daemon.ts -> retrain/attach-retrain.ts',
  'daemon/wing-parts.ts -> retrain/retrain-wing.ts',
  'daemon/wing-surfaces.ts -> retrain/retrain-tools.ts',
];

const graph = fileGraph();

describe('the retraining wing', () => {
  it('holds its own agent tool and config section', () => {
    expect(graph.has('retrain/retrain-tools.ts')).toBe(true);
    expect(graph.has('retrain/retrain-wing.ts')).toBe(true);
    expect(graph.has('operator/tools/retrain-tools.ts')).toBe(false);
  });

  it('is imported outside its folder only by its attach line, its entry among the wings and its command', () => {
    expect(importsInto('retrain', graph)).toEqual(ATTACHED_BY);
  });
});
