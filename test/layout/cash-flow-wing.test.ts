/**
 * The cash and money view's own work is a wing (issue 38, item 2): src/cash-flow/ holds the
 * idle-cash watch and its job, the forecast's API route, the agents' get_cash_flow_forecast and
 * the one JSON both answer with, and attaches itself in one call (attach-cash-flow.ts,
 * attachCashFlow). Deleting the folder, its attach line and its entry among the wings leaves
 * lendbot whole; the daemon decides and places without it (test/daemon/cash-flow-left-out.test.ts).
 *
 * - outside the folder only ATTACHED_BY name it;
 * - ops keeps no idle-cash job and the operator no cash-flow route or tool of its own;
 * - it sits above the operator listener whose route and tool registration it uses, so nothing
 *   below it can import it (folder-cycles.test.ts, FLOORS).
 *
 * The figures stay in the status report every view reads (src/money/cash-flow-status.ts and the
 * forecast and idle-cash report it calls): `lendbot status`, the dashboard's cards, the metrics,
 * the digest and Telegram read one truth (test/views/money-view.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { fileGraph, importsInto } from './source-graph.js';

/** The attach line (daemon.ts) and the wing's entry (wing-surfaces.ts: the route and the agents' tool). */
const ATTACHED_BY = ['daemon/daemon.ts -> cash-flow/attach-cash-flow.ts', 'daemon/wing-surfaces.ts -> cash-flow/cash-flow-wing.ts'];

const graph = fileGraph();

describe('the cash-flow wing', () => {
  it('holds the idle-cash watch, its route, its agent tool and their answer', () => {
    for (const file of ['attach-cash-flow.ts', 'idle-cash-alert.ts', 'cash-flow-routes.ts', 'cash-flow-tools.ts', 'cash-flow-view.ts']) {
      expect(graph.has(`cash-flow/${file}`)).toBe(true);
    }
    for (const file of [
      'ops/idle-cash-alert.ts',
      'ops/cash-flow-view.ts',
      'operator/api/cash-flow-routes.ts',
      'operator/tools/cash-flow-tools.ts',
    ]) {
      expect(graph.has(file)).toBe(false);
    }
  });

  it('is imported outside its folder only by its attach line and its entry among the wings', () => {
    expect(importsInto('cash-flow', graph)).toEqual(ATTACHED_BY);
  });
});
