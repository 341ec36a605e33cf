/**
 * The agents' proposals are a wing (issue 38, item 2): src/proposals/ holds asking a person,
 * deciding, the runner that places what was approved, the agents' get_proposal and
 * list_proposals, and /api/proposals. It attaches itself in one call (attach-proposals.ts,
 * attachProposals) and reaches the operator listener through registrations (src/daemon/
 * wing-surfaces.ts: WING_AGENT_TOOLS, WING_API_ROUTES), never the reverse. Deleting the folder, its attach
 * line, its entry among the wings and `lendbot approve` / `reject` leaves lendbot whole; the
 * daemon decides and places without it (test/daemon/proposals-left-out.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { fileGraph, importsInto } from './source-graph.js';

/** Every file `file` loads at run time, itself included. */
function loadedBy(file: string): Set<string> {
  const runtime = fileGraph(true);
  const seen = new Set<string>();
  const stack = [file];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    if (seen.has(next)) continue;
    seen.add(next);
    stack.push(...(runtime.get(next) ?? []));
  }
  return seen;
}

/** The attach line (daemon.ts), the wing's entry (wing-surfaces.ts) and `lendbot approve` / `reject`, through the wing's index. */
const ATTACHED_BY = [
  'cli/commands/approve/index.ts -> proposals/index.ts',
  'daemon/daemon.ts -> proposals/attach-proposals.ts',
  'daemon/wing-surfaces.ts -> proposals/proposals-wing.ts',
];

const graph = fileGraph();

describe('the proposals wing', () => {
  it('holds its tools, routes and runner; the operator keeps no proposals folder', () => {
    for (const file of ['proposal-tools.ts', 'proposal-routes.ts', 'attach-proposals.ts', 'propose-offer.ts'])
      expect(graph.has(`proposals/${file}`)).toBe(true);
    expect([...graph.keys()].filter((file) => file.startsWith('operator/proposals/') || file.endsWith('/proposal-tools.ts'))).toEqual([
      'proposals/proposal-tools.ts',
    ]);
  });

  it('is imported outside its folder only by its attach line, its entry among the wings and its command', () => {
    expect(importsInto('proposals', graph)).toEqual(ATTACHED_BY);
  });

  it('is not loaded by reading the configuration, nor the operator beyond its `ops:` section (wing-surfaces.ts names it)', () => {
    const OPS_SECTION = ['operator/operator-config.ts', 'operator/allowance.ts'];
    const loaded = [...loadedBy('daemon/daemon-config.ts')].filter((file) => !OPS_SECTION.includes(file));
    expect(loaded.filter((file) => /^(proposals|operator)\/|^retrain\/retrain-tools\.ts$/.test(file))).toEqual([]);
  });
});
