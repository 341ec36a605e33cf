/**
 * One decision, read through every surface it leaves lendbot by, has one shape
 * (src/domain/decision-json.ts, docs/decision-shape.md): `lendbot decisions --json`, the
 * operator API's GET /api/decisions over HTTP with a token, the agent connector's list_decisions
 * through the official MCP SDK client, and `lendbot backtest --json --decisions` on the daemon's
 * own history. Each gives the same names for the same facts; the three live surfaces the same
 * values, and the backtest (which replays the request through the same decide step) the same
 * decision. Before the shape, the guard's code alone was `guard` (CLI), `guardCode` (API),
 * `guard_code` (MCP) and `guard` again (backtest).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DecisionJson } from '../../src/domain/decision-json.js';
import { databaseOf } from '../../src/store/index.js';
import { runCli } from '../cli/run-cli.js';
import { OFFER_ALL } from '../daemon/daemon-harness.js';
import {
  callTool,
  CLAUDE_TOKEN,
  connectAgent,
  OPERATOR_TOKEN,
  startOperatorHarness,
  type OperatorHarness,
} from '../operator/operator-harness.js';

/** The shape's names: every surface gives each decision all of them. */
const SHAPE: ReadonlyArray<keyof DecisionJson> = [
  'loan_request_id',
  'decided_at',
  'action',
  'rate',
  'probability',
  'strategy',
  'source',
  'reasons',
  'guard_code',
  'placement',
  'dry_run',
];

/** The shape's part of a surface's decision (the surface's own fields beside it left out). */
function shapeOf(decision: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(SHAPE.map((key) => [key, decision[key]]));
}

/** The fields the old surfaces named differently; none of them may come back. */
const OLD_NAMES = ['guard', 'guardCode', 'loanRequestId', 'decidedAt', 'dryRun', 'seen_at', 'score', 'price'];

let h: OperatorHarness;
let agent: Client;
let dir: string;
let offered: number;
let skipped: number;

beforeAll(async () => {
  h = await startOperatorHarness({ strategyFiles: [OFFER_ALL] });
  agent = await connectAgent(h.mcpUrl, CLAUDE_TOKEN);
  dir = mkdtempSync(join(tmpdir(), 'lendbot-decision-shape-'));
  // One the strategy offers on, one the guard refuses (risk level 3 is not allowed by default).
  offered = h.sandbox.control.createLoanRequest({ svcColor: 1, maxInterestRate: 0.6 }).id;
  skipped = h.sandbox.control.createLoanRequest({ svcColor: 3, maxInterestRate: 0.6 }).id;
  await h.daemon.poller.poll();
  await h.daemon.pipeline.idle();
}, 60_000);

afterAll(async () => {
  await agent?.close();
  await h?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

/** `lendbot decisions --json`: one JSON line a decision, by request id. */
async function fromCli(db: string): Promise<Map<number, Record<string, unknown>>> {
  const result = await runCli(['decisions', '--db', db, '--json']);
  expect(result.code, result.stderr).toBe(0);
  const lines = result.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  return new Map(lines.map((line) => [line.loan_request_id as number, line]));
}

/** GET /api/decisions with the operator's token. */
async function fromApi(): Promise<Map<number, Record<string, unknown>>> {
  const response = await fetch(new URL('/api/decisions', h.mcpUrl), { headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } });
  expect(response.status).toBe(200);
  const { decisions } = (await response.json()) as { decisions: Array<Record<string, unknown>> };
  return new Map(decisions.map((decision) => [decision.loan_request_id as number, decision]));
}

/** The agent connector's list_decisions, through the MCP SDK client. */
async function fromMcp(): Promise<Map<number, Record<string, unknown>>> {
  const { data } = await callTool(agent, 'list_decisions', {});
  const decisions = data.decisions as Array<Record<string, unknown>>;
  return new Map(decisions.map((decision) => [decision.loan_request_id as number, decision]));
}

/** `lendbot backtest --db ... --json FILE --decisions`: the replay's decisions, by request id. */
async function fromBacktest(db: string): Promise<Map<number, Record<string, unknown>>> {
  const out = join(dir, 'backtest.json');
  const result = await runCli([
    'backtest',
    '--db',
    db,
    '--strategy',
    OFFER_ALL,
    '--draws',
    '1',
    '--no-sensitivity',
    '--no-worlds',
    '--json',
    out,
    '--decisions',
  ]);
  expect(result.code, result.stderr).toBe(0);
  const found: Array<Record<string, unknown>> = [];
  // Wherever the result keeps them: every array named `decisions`.
  const collect = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(collect);
    else if (value !== null && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) {
        if (key === 'decisions' && Array.isArray(inner)) found.push(...(inner as Array<Record<string, unknown>>));
        else collect(inner);
      }
    }
  };
  collect(JSON.parse(readFileSync(out, 'utf8')));
  return new Map(found.map((decision) => [decision.loan_request_id as number, decision]));
}

describe('one decision shape', () => {
  it('the CLI, the API, the agent connector and the backtest name a decision alike', { timeout: 120_000 }, async () => {
    const db = databaseOf(h.store).name;
    const surfaces = { cli: await fromCli(db), api: await fromApi(), mcp: await fromMcp(), backtest: await fromBacktest(db) };
    for (const [surface, decisions] of Object.entries(surfaces)) {
      for (const id of [offered, skipped]) {
        const decision = decisions.get(id);
        expect(decision, `${surface} has no decision about ${id}`).toBeDefined();
        expect(Object.keys(decision ?? {}), surface).toEqual(expect.arrayContaining([...SHAPE]));
        for (const old of OLD_NAMES) expect(decision, `${surface} still says ${old}`).not.toHaveProperty(old);
      }
    }
    // The live surfaces: the very same values.
    for (const id of [offered, skipped]) {
      const cli = shapeOf(surfaces.cli.get(id) ?? {});
      expect(shapeOf(surfaces.api.get(id) ?? {})).toEqual(cli);
      expect(shapeOf(surfaces.mcp.get(id) ?? {})).toEqual(cli);
    }
    expect(shapeOf(surfaces.cli.get(offered) ?? {})).toMatchObject({
      action: 'offer',
      strategy: 'offer-all',
      source: 'strategies',
      guard_code: null,
      placement: 'placed',
      dry_run: false,
    });
    expect(surfaces.cli.get(skipped)).toMatchObject({ action: 'skip', guard_code: 'risk_level_not_allowed', placement: null });
    // The backtest: the same decisions by the same step (sent nowhere: dry_run, no placement).
    for (const id of [offered, skipped]) {
      const live = shapeOf(surfaces.cli.get(id) ?? {});
      const replayed = shapeOf(surfaces.backtest.get(id) ?? {});
      const same = (decision: Record<string, unknown>) => ({
        action: decision.action,
        rate: decision.rate,
        strategy: decision.strategy,
        source: decision.source,
        reasons: decision.reasons,
        guard_code: decision.guard_code,
      });
      expect(same(replayed)).toEqual(same(live));
      expect(replayed).toMatchObject({ placement: null, dry_run: true });
    }
  });
});
