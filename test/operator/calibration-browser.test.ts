/**
 * The dashboard's calibration panel and its route, against a daemon on the sandbox whose store
 * holds the lender's loans and the decisions that offered on them: GET /api/calibration answers
 * predicted against realised default by vintage, and the panel (in Debian's chromium through
 * playwright-core) shows each month, the months together and the alert. The browser part is
 * skipped, saying why, without chromium (dashboard-browser.test.ts has the LENDBOT_REQUIRE_BROWSER check).
 */
import type { Browser } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { launchChromium, skipReason } from '../browser/chromium.js';
import { startDaemonHarness, type DaemonHarness } from '../daemon/daemon-harness.js';
import { storedReasons } from '../../src/store/reason-texts-to-values.js';

const DAY = 86_400_000;
const UI_WAIT_MS = 15_000;

/** `count` loans made `daysAgo`, each predicted `predictedDefault`, the first `bad` in default. */
function seedLoans(h: DaemonHarness, firstId: number, count: number, daysAgo: number, predictedDefault: number, bad: number): string {
  const created = new Date(h.sandbox.clock.now() - daysAgo * DAY).toISOString();
  for (let i = 0; i < count; i += 1) {
    const id = firstId + i;
    const loan = {
      id,
      loan_request_id: 90_000 + id,
      borrower_card_color: 1,
      loan_amount: 500,
      interest_rate: 0.3,
      status: 'funded',
      loan_balance: 500,
      loan_paid_off: false,
      created_date: created,
    };
    h.store.account.upsertLoans([loan], i < bad ? 'default' : 'current', h.sandbox.clock.now());
    h.store.decisions.record({
      loanRequestId: 90_000 + id,
      strategy: 'offer-all',
      probability: 1 - predictedDefault,
      rate: 0.3,
      action: 'offer',
      reasons: storedReasons(['score']),
      dryRun: false,
      decidedAtMs: h.sandbox.clock.now(),
    });
  }
  return created.slice(0, 7);
}

interface CalibrationAnswer {
  since: string;
  min_loans: number;
  pooled: { loans: number; predicted_default: number; realised_default: number; above_predicted: boolean };
  vintages: Array<{ vintage: string; loans: number; defaulted: number; above_predicted: boolean }>;
  alert: { since: string; figures: string } | null;
}

describe('predicted and realised default on the dashboard', { timeout: 60_000 }, () => {
  let harness: DaemonHarness | undefined;
  let browser: Browser | undefined;
  afterAll(async () => {
    await browser?.close();
    await harness?.close();
  });

  it('answers by vintage on GET /api/calibration, alerts through the protection, and draws the panel', async () => {
    harness = await startDaemonHarness({ sandbox: { arrivalsPerHour: 0 } });
    const h = harness;
    const older = seedLoans(h, 1, 40, 75, 0.05, 16);
    const newer = seedLoans(h, 100, 10, 0, 0.1, 0);
    await h.daemon.runJob('protections');
    const base = h.daemon.operatorUrl()!;
    const answer = (await (await fetch(new URL('/api/calibration', base))).json()) as CalibrationAnswer;
    expect(answer.vintages.map((v) => [v.vintage, v.loans, v.defaulted, v.above_predicted])).toEqual([
      [older, 40, 16, true],
      [newer, 10, 0, false],
    ]);
    expect(answer.pooled).toMatchObject({ loans: 50, above_predicted: true });
    expect(answer.pooled.predicted_default).toBeCloseTo(0.06, 12);
    expect(answer.pooled.realised_default).toBeCloseTo(0.32, 12);
    expect(answer.alert?.figures).toContain('realised so far 32.0%');

    if (skipReason !== undefined) return;
    browser = await launchChromium();
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(base);
    const olderRow = page.getByTestId(`calibration-${older}`);
    await expect.poll(() => olderRow.isVisible(), { timeout: UI_WAIT_MS }).toBe(true);
    const cells = await olderRow.locator('td').allTextContents();
    expect(cells.slice(0, 4)).toEqual([older, '40', '5.0 %', '40.0 %']);
    expect(cells.at(-1)).toBe('above predicted');
    expect((await page.getByTestId(`calibration-${newer}`).locator('td').allTextContents()).at(-1)).toBe('within');
    expect(await page.getByTestId('calibration-pooled').locator('td').first().textContent()).toBe('All months shown');
    expect(await page.getByTestId('calibration-alert').textContent()).toContain('Loans default more often than predicted');
    expect(await page.getByTestId('calibration-empty').isHidden()).toBe(true);
    expect(problems).toEqual([]);
  });
});
