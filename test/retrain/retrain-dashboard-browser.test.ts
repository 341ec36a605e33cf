/**
 * The last retraining round where a lender looks: `lendbot status --json`, `GET /api/overview`,
 * the agents' read-only `get_retrain_history` (the official MCP SDK client) and the dashboard's
 * Activity card in a real browser (Debian's chromium through playwright-core; the browser part is
 * skipped, saying why, without chromium).
 */
import type { Browser } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { buildStatusReport } from '../../src/ops/status-report.js';
import { statusJson } from '../../src/ops/status-text.js';
import { riskLimitsSchema } from '../../src/risk/index.js';
import { launchChromium, skipReason } from '../browser/chromium.js';
import type { DaemonHarness } from '../daemon/daemon-harness.js';
import { callTool, connectAgent } from '../operator/operator-harness.js';
import { retrainHarness } from './retrain-fixture.js';

const UI_WAIT_MS = 15_000;
const TOKEN = 'retrain-operator-token-0123456789abcdef';

describe('the last retraining round in status, the API and the dashboard', { timeout: 60_000 }, () => {
  let harness: DaemonHarness | undefined;
  let browser: Browser | undefined;
  afterAll(async () => {
    await browser?.close();
    await harness?.close();
  });

  it('shows its decision, why, and the next look', async () => {
    const h = await retrainHarness({ enabled: true, min_resolved: 100 }, undefined, { LENDBOT_OPERATOR_TOKEN: TOKEN });
    harness = h;
    await h.daemon.runJob('retrain');
    const report = buildStatusReport({
      store: h.store,
      nowMs: h.sandbox.clock.now(),
      limits: riskLimitsSchema.parse({}),
      budgets: [],
      dryRun: false,
    });
    expect(statusJson(report).retrain).toEqual({
      last_round: {
        id: 1,
        strategy: 'optimist',
        decision: 'refused',
        reason: '0 resolved loans, fewer than retrain.min_resolved 100: too few to tell a better calibration from noise',
        started_at: '2026-01-01T00:00:00.000Z',
        decided_at: '2026-01-01T00:00:00.000Z',
      },
      next_at: '2026-01-08T00:00:00.000Z',
      versions_in_force: [],
    });

    const base = h.daemon.operatorUrl()!;
    const overview = (await (await fetch(new URL('/api/overview', base))).json()) as {
      status: { retrain: { last: { decision: string } } };
    };
    expect(overview.status.retrain.last.decision).toBe('refused');
    const agent = await connectAgent(new URL('/mcp', base), TOKEN);
    try {
      const tool = await callTool(agent, 'get_retrain_history', { strategy: 'optimist' });
      expect(tool.isError).toBe(false);
      expect(tool.text).toBe(
        'Last round #1 of optimist (2026-01-01T00:00:00.000Z): refused, 0 resolved loans, fewer than retrain.min_resolved 100: too few to tell a better calibration from noise. 0 strategy versions.',
      );
      expect(tool.data).toMatchObject({ rounds: [{ id: 1, decision: 'refused', resolvedLoans: 0 }], versions: [] });
      expect(JSON.stringify(tool.data)).not.toContain('candidateText');
      const { tools } = await agent.listTools();
      expect(tools.find((t) => t.name === 'get_retrain_history')?.annotations?.readOnlyHint).toBe(true);
    } finally {
      await agent.close();
    }

    if (skipReason !== undefined) return;
    browser = await launchChromium();
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(base);
    const line = page.getByTestId('retrain-last');
    await expect.poll(() => line.isVisible(), { timeout: UI_WAIT_MS }).toBe(true);
    expect(await line.textContent()).toMatch(
      /^round #1 of optimist: refused, 0 resolved loans, fewer than retrain\.min_resolved 100: too few to tell a better calibration from noise; next look .*2026/,
    );
    expect(problems).toEqual([]);
  });
});
