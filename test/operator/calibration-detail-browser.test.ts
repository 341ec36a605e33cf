/**
 * The dashboard's calibration detail, against a daemon on the sandbox whose store holds two
 * strategies' loans and their instalments: the strategy table (each month with the loans' age,
 * what the prediction expects by then and the reading, "too early" for a young month) and the
 * early-evidence table (instalments by month of loan age), as Debian's chromium shows them through
 * playwright-core, equal to the one computation every view reads (calibrationStatus). Skipped,
 * saying why, without chromium (dashboard-browser.test.ts has the LENDBOT_REQUIRE_BROWSER check).
 */
import type { Browser } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { launchChromium, skipReason } from '../browser/chromium.js';
import { startDaemonHarness, type DaemonHarness } from '../daemon/daemon-harness.js';
import { storedReasons } from '../../src/store/reason-texts-to-values.js';
import { loanPaymentSchema } from '../../src/domain/index.js';
import { calibrationStatus } from '../../src/ops/calibration.js';

const DAY = 86_400_000;
const UI_WAIT_MS = 15_000;
let paymentId = 1;

/** `count` loans of `strategy` made `daysAgo`, predicted `predictedDefault`; the first `missed` missed their second instalment. */
function seed(
  h: DaemonHarness,
  firstId: number,
  count: number,
  strategy: string,
  daysAgo: number,
  predictedDefault: number,
  missed: number,
) {
  const nowMs = h.sandbox.clock.now();
  const createdMs = nowMs - daysAgo * DAY;
  for (let i = 0; i < count; i += 1) {
    const id = firstId + i;
    const bad = i < missed;
    const loan = {
      id,
      loan_request_id: 80_000 + id,
      borrower_card_color: 1,
      loan_amount: 500,
      payment_terms: 12,
      interest_rate: 0.3,
      status: 'funded',
      loan_balance: 500,
      loan_paid_off: false,
      created_date: new Date(createdMs).toISOString(),
    };
    h.store.account.upsertLoans([loan], bad ? 'collection' : 'current', nowMs);
    h.store.decisions.record({
      loanRequestId: 80_000 + id,
      strategy,
      probability: 1 - predictedDefault,
      rate: 0.3,
      action: 'offer',
      reasons: storedReasons(['score']),
      dryRun: false,
      decidedAtMs: createdMs,
    });
    const due = Math.floor(daysAgo / 30);
    const payments = Array.from({ length: bad ? Math.min(2, due) : due }, (_, k) =>
      loanPaymentSchema.parse({
        id: paymentId++,
        loan: id,
        payment_amount: '45.00',
        payment_due_date: new Date(createdMs + (k + 1) * 30 * DAY).toISOString().slice(0, 10),
        payment_status: bad && k === 1 ? 'Missed Payment' : 'paid',
        is_late_payment: bad && k === 1,
      }),
    );
    h.store.payments.upsert(payments, nowMs);
  }
}

describe('calibration by strategy and the early evidence on the dashboard', { timeout: 60_000 }, () => {
  let harness: DaemonHarness | undefined;
  let browser: Browser | undefined;
  afterAll(async () => {
    await browser?.close();
    await harness?.close();
  });

  it('draws each strategy month with its age and reading, and the instalments by month of age, as the store computes them', async () => {
    harness = await startDaemonHarness({ sandbox: { arrivalsPerHour: 0 } });
    const h = harness;
    seed(h, 1, 40, 'balanced', 200, 0.05, 12);
    seed(h, 100, 8, 'cautious', 10, 0.02, 0);
    const truth = calibrationStatus(h.store, h.sandbox.clock.now(), { window_months: 12, min_loans: 30 }, undefined);
    const [balanced, cautious] = truth.strategies;
    expect(balanced?.vintages[0]?.reading).toBe('above expected');
    expect(cautious?.vintages[0]?.reading).toBe('too early');
    expect(truth.hazard.map((row) => [row.ageMonth, row.due, row.missed])).toEqual([
      [1, 40, 0],
      [2, 40, 12],
      [3, 28, 0],
      [4, 28, 0],
      [5, 28, 0],
      [6, 28, 0],
    ]);

    if (skipReason !== undefined) return;
    browser = await launchChromium();
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(h.daemon.operatorUrl()!);
    const pct = (share: number | null): string => (share === null ? '–' : `${(share * 100).toFixed(1)} %`);
    for (const strategy of truth.strategies) {
      for (const row of [...strategy.vintages, strategy.pooled]) {
        const shown = page.getByTestId(`calibration-strategy-${strategy.strategy}-${row.vintage}`);
        await expect.poll(() => shown.isVisible(), { timeout: UI_WAIT_MS }).toBe(true);
        const cells = await shown.locator('td').allTextContents();
        expect(cells).toEqual([
          strategy.strategy,
          row.vintage === 'all' ? 'All months shown' : row.vintage,
          String(row.loans),
          `${row.ageMonths?.toFixed(1)} mo`,
          pct(row.predicted),
          pct(row.expectedByNow),
          pct(row.realised),
          `${pct(row.low)} to ${pct(row.high)}`,
          row.reading,
        ]);
      }
    }
    for (const row of truth.hazard) {
      const cells = await page.getByTestId(`hazard-${row.ageMonth}`).locator('td').allTextContents();
      expect(cells).toEqual([
        `month ${row.ageMonth}`,
        String(row.due),
        String(row.late),
        String(row.missed),
        pct(row.hazard),
        `${pct(row.low)} to ${pct(row.high)}`,
        pct(row.expected),
        pct(row.cumulativeMissed),
        row.above ? 'above expected' : '',
      ]);
    }
    expect(await page.getByTestId('calibration-hazard-empty').isHidden()).toBe(true);
    expect(problems).toEqual([]);
  });
});
