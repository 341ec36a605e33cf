/**
 * A skipped request's explanation in chromium. The guard refuses after the strategy priced the
 * request could be priced (here: not enough free cash, before the bank data was bought), so the
 * decision stores no rate; the decide step run again prices it without that data. The panel must not show "Rate —" above "Rate 78.6 %" and a "Chosen rate" for a
 * request nothing was offered on (issue 36's walk from a fresh clone found exactly that).
 */
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DecisionsAnswer } from '../../src/operator/api/api-types.js';
import { launchChromium, skipReason } from '../browser/chromium.js';
import { startDashboardDaemon, type DashboardDaemon } from './dashboard-daemon.js';

// balanced asks for bank data once the free filters pass; a guard refusal before buying it leaves
// the stored decision unpriced, while the decide step run again prices it without the data.
const BALANCED = fileURLToPath(new URL('../../strategies/balanced.yaml', import.meta.url));

const UI_WAIT_MS = 15_000;

describe.skipIf(skipReason !== undefined)('a skipped request explained in chromium', { timeout: 90_000 }, () => {
  let bot: DashboardDaemon;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    bot = await startDashboardDaemon({ strategies: [BALANCED] });
    // Ten dollars: the guard refuses every request for cash before any data is bought.
    bot.sandbox.control.setBalance(1_000);
    await bot.daemon.runJob('balance');
    await bot.advance(2);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(bot.url);
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await bot?.close();
  });

  it('heads the recomputed price "it would have asked; nothing was offered", under a summary with no rate', async () => {
    const skips = (await bot.api<DecisionsAnswer>('/api/decisions?limit=200')).decisions.filter(
      (decision) => decision.action === 'skip' && decision.guard_code === 'insufficient_balance',
    );
    let refused: (typeof skips)[number] | undefined;
    for (const skip of skips) {
      const answer = await bot.api<{ explanation: { price: { rate: number | null } } | null }>(`/api/decisions/${skip.loan_request_id}`);
      if (answer.explanation && answer.explanation.price.rate !== null) {
        refused = skip;
        break;
      }
    }
    if (refused === undefined) throw new Error(`no request refused for cash that the strategy prices again (of ${skips.length})`);
    await page.getByTestId('filter-text').fill(String(refused.loan_request_id));
    const row = page.locator(`[data-testid="decision-row"][data-request-id="${refused.loan_request_id}"]`).first();
    await row.click();
    await page.getByTestId('explanation-panel').waitFor({ state: 'visible' });
    const price = page.getByTestId('explanation-price');
    await expect.poll(() => price.innerText(), { timeout: UI_WAIT_MS }).toMatch(/Rate\s+\d+\.\d %/);
    expect(await price.locator('h3').textContent()).toBe('Price it would have asked (recomputed now; nothing was offered)');
    expect(await page.getByTestId('explanation-summary').innerText()).toMatch(/Rate\s+—/);
  });
});
