/**
 * The dashboard in a real browser (Debian's chromium through playwright-core) against a real
 * daemon on the sandbox: decisions arrive in the table, one opens its explanation, the operator
 * signs in, pauses offers (the store says paused and no offer is placed), resumes (offers come
 * again), and opens a backtest report from the list. The page must not log a single error.
 *
 * Without chromium the test is skipped and says why; with LENDBOT_REQUIRE_BROWSER=1 (CI) a
 * missing browser fails it instead.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DecisionsAnswer, OverviewAnswer } from '../../src/operator/api/api-types.js';
import { storedPause } from '../../src/ops/protections/index.js';
import { browserRequired, launchChromium, skipReason } from '../browser/chromium.js';
import { OPERATOR_TOKEN, REPORT_NAME, startDashboardDaemon, type DashboardDaemon } from './dashboard-daemon.js';

const UI_WAIT_MS = 15_000;

if (skipReason !== undefined && !browserRequired) console.warn(`dashboard-browser.test.ts: ${skipReason}`);

describe('chromium for the browser tests', () => {
  it.runIf(browserRequired)('is installed where LENDBOT_REQUIRE_BROWSER=1 says it must be', () => {
    expect(skipReason).toBeUndefined();
  });
});

// Each step waits on the daemon and on the page's refresh beat: room for a busy 2-core machine.
describe.skipIf(skipReason !== undefined)('the dashboard in chromium', { timeout: 60_000 }, () => {
  let bot: DashboardDaemon;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  /** Everything the page said went wrong: console errors and uncaught exceptions. */
  const problems: string[] = [];
  /** Uncaught exceptions of the pages it opened (the reports). */
  const openedProblems: string[] = [];

  beforeAll(async () => {
    bot = await startDashboardDaemon();
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
    context.on('page', (opened) => opened.on('pageerror', (error) => openedProblems.push(`${opened.url()}: ${error.message}`)));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    await page.goto(bot.url);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await bot?.close();
  });

  const rows = () => page.getByTestId('decisions-table').locator('tbody tr');
  const overview = () => bot.api<OverviewAnswer>('/api/overview');

  it('shows the overview, read-only, before anyone signs in', async () => {
    const { status, mode } = await overview();
    const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
    await expect
      .poll(() => page.getByTestId('balance').textContent(), { timeout: UI_WAIT_MS })
      .toBe(dollars.format(status.balanceCents / 100));
    expect(await page.getByTestId('free-cash').textContent()).toBe(dollars.format(status.freeCents / 100));
    expect(await page.getByTestId('read-only-banner').isVisible()).toBe(true);
    // Given its client from outside, this daemon cannot know the market is a sandbox: it says live.
    expect(await page.getByTestId('mode-badge').textContent()).toBe(mode === 'sandbox' ? 'sandbox: no real money' : 'live');
    expect(await page.getByTestId('pause-button').isDisabled()).toBe(true);
    expect(await page.getByTestId('pause-state').textContent()).toBe('Offers allowed');
    // The decisions list loads on its own request after the balance: wait for it, not for the balance.
    await expect.poll(() => page.getByTestId('decisions-empty').isVisible(), { timeout: UI_WAIT_MS }).toBe(true);
    // cashflow prices for expected profit with no fitted market: the overview says so.
    expect(await page.getByText('prices with the unfitted default market; fit one with lendbot train').textContent()).toMatch(
      /^cashflow: prices with/,
    );
  });

  it('shows decisions as they arrive, rates in percent and money in dollars', async () => {
    await bot.advance(1);
    const decided = bot.decisions();
    expect(decided).toBeGreaterThan(3);
    await expect.poll(() => rows().count(), { timeout: UI_WAIT_MS }).toBe(decided);
    const newest = (await bot.api<DecisionsAnswer>('/api/decisions?limit=1')).decisions[0];
    if (newest === undefined) throw new Error('no decision in the API');
    const first = rows().first();
    expect(await first.getAttribute('data-request-id')).toBe(String(newest.loan_request_id));
    const text = (await first.innerText()).replace(/\s+/g, ' ');
    expect(text).toContain(`#${newest.loan_request_id}`);
    expect(text).toMatch(/\$[\d,]+\.\d\d/);
    expect(text).toMatch(/\d+\.\d %/);

    // More arrive while the page is open: the table follows without a reload.
    await bot.advance(1);
    expect(bot.decisions()).toBeGreaterThan(decided);
    await expect.poll(() => rows().count(), { timeout: UI_WAIT_MS }).toBe(bot.decisions());
  });

  it('filters the decisions by action', async () => {
    await page.getByTestId('filter-action').selectOption('offer');
    await expect.poll(() => page.locator('[data-testid="decision-row"][data-action="skip"]').count(), { timeout: UI_WAIT_MS }).toBe(0);
    expect(await page.locator('[data-testid="decision-row"][data-action="offer"]').count()).toBeGreaterThan(0);
    await page.getByTestId('filter-action').selectOption('');
    await expect.poll(() => rows().count(), { timeout: UI_WAIT_MS }).toBe(bot.decisions());
  });

  it('opens a decision’s explanation in the side panel', async () => {
    const row = page.locator('[data-testid="decision-row"][data-action="offer"]').first();
    const id = await row.getAttribute('data-request-id');
    await row.click();
    const panel = page.getByTestId('explanation-panel');
    await panel.waitFor({ state: 'visible' });
    await expect
      .poll(() => page.getByTestId('explanation-title').textContent(), { timeout: UI_WAIT_MS })
      .toMatch(new RegExp(`^Request #${id}: offer at \\d+\\.\\d %$`));
    const score = page.getByTestId('explanation-contributions');
    await score.waitFor();
    expect(await score.locator('tbody tr').count()).toBeGreaterThan(0);
    expect(await page.getByTestId('explanation-guard').innerText()).toContain('Allowed the offer.');
    expect(await page.getByTestId('explanation-price').innerText()).toMatch(/Break-even rate\s+\d+\.\d %/);
    expect(await page.getByTestId('explanation-features-table').locator('tr').count()).toBeGreaterThan(0);
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'hidden' });
  });

  it('signs in with the token, keeping it out of the URL and the storage', async () => {
    await page.getByTestId('token-input').fill(OPERATOR_TOKEN);
    await page.getByTestId('sign-in-button').click();
    await page.getByTestId('signed-in').waitFor({ state: 'visible' });
    expect(await page.getByTestId('signed-in-name').textContent()).toBe('operator');
    expect(await page.getByTestId('read-only-banner').isVisible()).toBe(false);
    expect(await page.getByTestId('pause-button').isEnabled()).toBe(true);
    expect(await page.getByTestId('token-input').inputValue()).toBe('');
    expect(page.url()).not.toContain(OPERATOR_TOKEN);
    // A string: the test's own TypeScript has no DOM types, the page has the DOM.
    const stored = await page.evaluate<string>(
      'JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + document.cookie',
    );
    expect(stored).not.toContain(OPERATOR_TOKEN);
    // The session cookie is HttpOnly: the browser has it, the page's script cannot read it.
    const cookies = await context.cookies(bot.url);
    expect(cookies.find((cookie) => cookie.name === 'lendbot_session')).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
  });

  it('pauses offers: the store says paused and no offer is placed', async () => {
    await page.getByTestId('pause-reason').fill('checking the dashboard');
    await page.getByTestId('pause-button').click();
    await expect.poll(() => page.getByTestId('pause-state').getAttribute('data-paused'), { timeout: UI_WAIT_MS }).toBe('true');
    expect(await page.getByTestId('pause-state').textContent()).toMatch(/^Offers paused \(operator\): .*checking the dashboard/);
    expect(await page.getByTestId('resume-button').isEnabled()).toBe(true);
    expect((await overview()).status.pause).toMatchObject({ kind: 'operator', reason: expect.stringContaining('checking the dashboard') });
    expect(storedPause(bot.store.state, bot.sandbox.clock.now())).toMatchObject({ kind: 'operator' });

    const offersBefore = bot.sandbox.control.offers().length;
    const decidedBefore = bot.decisions();
    await bot.advance(1);
    expect(bot.decisions()).toBeGreaterThan(decidedBefore);
    expect(bot.sandbox.control.offers()).toHaveLength(offersBefore);
    const latest = (await bot.api<DecisionsAnswer>(`/api/decisions?limit=${bot.decisions() - decidedBefore}`)).decisions;
    expect(new Set(latest.map((decision) => decision.action))).toEqual(new Set(['skip']));
    expect(latest.filter((decision) => decision.guard_code === 'paused').length).toBeGreaterThan(0);
  });

  it('resumes offers, and offers are placed again', async () => {
    await page.getByTestId('resume-button').click();
    await expect.poll(() => page.getByTestId('pause-state').getAttribute('data-paused'), { timeout: UI_WAIT_MS }).toBe('false');
    expect((await overview()).status.pause).toBeNull();
    expect(storedPause(bot.store.state, bot.sandbox.clock.now())).toBeUndefined();
    const offersBefore = bot.sandbox.control.offers().length;
    await bot.advance(1);
    expect(bot.sandbox.control.offers().length).toBeGreaterThan(offersBefore);
  });

  it('lists the backtest reports and opens one', async () => {
    const link = page.getByTestId('report-link');
    await link.waitFor({ timeout: UI_WAIT_MS });
    expect(await link.textContent()).toBe(REPORT_NAME);
    const [report] = await Promise.all([context.waitForEvent('page'), link.click()]);
    await report.waitForLoadState('load');
    expect(new URL(report.url()).pathname).toBe(`/reports/${REPORT_NAME}`);
    expect((await report.title()).trim()).not.toBe('');
    expect(openedProblems).toEqual([]);
    await report.close();
  });

  it('fits a 400 pixel wide screen: only the tables scroll sideways', async () => {
    await page.setViewportSize({ width: 400, height: 800 });
    try {
      await expect
        .poll(() => page.evaluate<number>('document.documentElement.scrollWidth'), { timeout: UI_WAIT_MS })
        .toBeLessThanOrEqual(400);
      const card = await page.getByTestId('card-balance').boundingBox();
      expect(card?.width).toBeGreaterThan(300);
      expect(card?.width).toBeLessThanOrEqual(400);
      expect(await page.getByTestId('pause-control').isVisible()).toBe(true);
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });

  it('draws the returns charts and logged no error on the way', async () => {
    for (const chart of ['chart-equity', 'chart-interest', 'chart-default-risk', 'chart-default-month']) {
      const box = await page.getByTestId(chart).boundingBox();
      expect(box?.width, chart).toBeGreaterThan(300);
    }
    expect(problems).toEqual([]);
  });
});
