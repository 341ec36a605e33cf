/**
 * The dashboard with wings left out (issue 38, item 2): a daemon run without market learning,
 * calibration, the cash-flow forecast and the agents' proposals (DaemonOverrides, what deleting
 * their attach lines does) serves none of their routes, says so in GET /api/me (wingRoutes), and
 * its dashboard shows none of their panels and no problem line; with the wings attached, a wing
 * route that fails (the proposals' table gone) still shows the problem line. In a real browser (Debian's
 * chromium through playwright-core; the browser part is skipped, saying why, without chromium).
 */
import type { Browser, Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { databaseOf } from '../../src/store/index.js';
import { launchChromium, skipReason } from '../browser/chromium.js';
import { startDaemonHarness, type DaemonHarness } from '../daemon/daemon-harness.js';

const UI_WAIT_MS = 15_000;
const WING_PANELS = ['proposals-section', 'market-learning', 'calibration-section', 'forecast-section'];
const WING_PATHS = ['/api/proposals', '/api/market-learning', '/api/calibration', '/api/cash-flow'];

/** Records every text the problem line shows, from before the page's own scripts run (a later success hides it again). */
const RECORD_PROBLEMS = `
  const shown = (window.shownProblems = []);
  new MutationObserver(() => {
    const banner = document.querySelector('[data-testid="connection-banner"]');
    if (banner !== null && !banner.hidden && shown.at(-1) !== banner.textContent) shown.push(banner.textContent);
  }).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
`;

/** The dashboard loaded and its first refreshes answered; what it asked of /api and what the problem line said. */
async function openDashboard(page: Page, base: string): Promise<{ asked: string[]; problems: () => Promise<string[]> }> {
  const asked: string[] = [];
  page.on('request', (request) => asked.push(new URL(request.url()).pathname));
  await page.addInitScript({ content: RECORD_PROBLEMS });
  await page.goto(base);
  await expect.poll(() => page.getByTestId('overview-cards').isVisible(), { timeout: UI_WAIT_MS }).toBe(true);
  await page.waitForLoadState('networkidle');
  return { asked, problems: () => page.evaluate('window.shownProblems') as Promise<string[]> };
}

describe('the panels of wings left out', { timeout: 90_000 }, () => {
  let harness: DaemonHarness | undefined;
  let browser: Browser | undefined;
  afterEach(async () => {
    await browser?.close();
    await harness?.close();
    browser = undefined;
    harness = undefined;
  });

  it('are not shown, not asked for and no problem line, when the daemon runs without their wings', async () => {
    harness = await startDaemonHarness({ marketLearningWing: false, calibrationWing: false, cashFlowWing: false, proposalsWing: false });
    const base = harness.daemon.operatorUrl()!;
    const me = (await (await fetch(new URL('/api/me', base))).json()) as { canRead: boolean; wingRoutes: string[] };
    expect(me).toMatchObject({ canRead: true, wingRoutes: [] });
    for (const path of WING_PATHS) expect((await fetch(new URL(path, base))).status, path).toBe(404);

    if (skipReason !== undefined) return;
    browser = await launchChromium();
    const page = await browser.newPage();
    const { asked, problems } = await openDashboard(page, base);
    for (const panel of WING_PANELS) expect(await page.getByTestId(panel).isVisible(), panel).toBe(false);
    expect(asked.filter((path) => WING_PATHS.some((wing) => path.startsWith(wing)))).toEqual([]);
    expect(asked).toContain('/api/returns');
    expect(await problems()).toEqual([]);
  });

  it('shows the problem line when an attached wing route fails, and the attached panels', async () => {
    harness = await startDaemonHarness();
    const base = harness.daemon.operatorUrl()!;
    // The proposals' table gone under the running daemon (only their routes and runner read it):
    // GET /api/proposals fails (500) while the overview and the other panels answer.
    const db = databaseOf(harness.store);
    db.exec('ALTER TABLE offer_proposals RENAME TO offer_proposals_away');
    try {
      expect((await fetch(new URL('/api/proposals', base))).status).toBe(500);
      if (skipReason !== undefined) return;
      browser = await launchChromium();
      const page = await browser.newPage();
      const { problems } = await openDashboard(page, base);
      expect(await problems()).toContain("The daemon refused: internal error (the daemon's log says why)");
      for (const panel of ['proposals-section', 'calibration-section', 'forecast-section'])
        expect(await page.getByTestId(panel).isVisible(), panel).toBe(true);
    } finally {
      db.exec('ALTER TABLE offer_proposals_away RENAME TO offer_proposals');
    }
  });
});
