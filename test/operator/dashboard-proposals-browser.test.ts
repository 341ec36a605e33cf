/**
 * An agent's proposal on the dashboard, in a real browser (Debian's chromium through
 * playwright-core) against a real daemon on the sandbox: the notification's link opens the page
 * on the proposal with its explanation; approving is out of reach until the operator signs in
 * (not with the agent's own token); the operator's click places the offer, once. The page must
 * not log a single error.
 *
 * Without chromium the test is skipped and says why; with LENDBOT_REQUIRE_BROWSER=1 (CI) a
 * missing browser fails it instead (dashboard-browser.test.ts checks that).
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/clock.js';
import { browserRequired, launchChromium, skipReason } from '../browser/chromium.js';
import { callTool, connectAgent } from './operator-harness.js';
import { CLAUDE_TOKEN, OPERATOR_TOKEN, startProposalHarness, type ProposalHarness } from './proposal-harness.js';

const UI_WAIT_MS = 15_000;

if (skipReason !== undefined && !browserRequired) console.warn(`dashboard-proposals-browser.test.ts: ${skipReason}`);

describe.skipIf(skipReason !== undefined)("an agent's proposal on the dashboard, in chromium", { timeout: 60_000 }, () => {
  let h: ProposalHarness;
  let agent: Client;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];
  let proposalId = 0;
  let loanRequestId = 0;

  beforeAll(async () => {
    // People's time stands still (a ManualClock): the proposal runner looks for closed requests
    // once, at start, so the test decides when a withdrawn request's proposal is approved.
    h = await startProposalHarness({ realClock: new ManualClock(new Date().toISOString()) });
    agent = await connectAgent(h.mcpUrl, CLAUDE_TOKEN);
    const request = h.makeRequest({ hasFundingResource: true });
    loanRequestId = request.id;
    const proposed = await callTool(agent, 'place_offer', { loan_request_id: request.id, rate: 0.27, automate_fund: true });
    proposalId = proposed.data.proposal_id as number;
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await agent?.close();
    await h?.close();
  });

  const card = () => page.locator(`[data-testid="proposal"][data-proposal-id="${proposalId}"]`);
  const signIn = async (token: string) => {
    await page.getByTestId('token-input').fill(token);
    await page.getByTestId('sign-in-button').click();
    await page.getByTestId('signed-in').waitFor({ state: 'visible' });
  };

  it('opens on the proposal the link names, with its explanation, before anyone signs in', async () => {
    await page.goto(`${h.base}/#proposal-${proposalId}`);
    await card().waitFor({ timeout: UI_WAIT_MS });
    expect(await card().getAttribute('class')).toContain('focused');
    expect(await card().getAttribute('data-status')).toBe('pending');
    const text = (await card().innerText()).replace(/\s+/g, ' ');
    expect(text).toContain(`#${proposalId} agent:claude: offer 27.0 % on request #${loanRequestId}`);
    expect(text).toContain('Why a person: token "claude" has no allowance, so every offer it asks for waits for a person');
    expect(text).toContain('Guard when asked: allowed (asked again on approval)');
    expect(text).toMatch(/The bot's own view: offer-all would offer/);
    expect(text).toMatch(/Amount \$[\d,]+\.\d\d/);
    // The sandbox's clock is not real time: a person's times say which clock they are in, and
    // no bare ISO time stands on the page.
    expect(text).toMatch(/Expires \d{4}-\d\d-\d\d \d\d:\d\d UTC real time/);
    expect(await card().getByTestId('proposal-state').textContent()).toMatch(
      /^waiting for a person's approval until \d{4}-\d\d-\d\d \d\d:\d\d UTC real time$/,
    );
    expect(text).not.toMatch(/\d\dT\d\d:\d\d/);
    expect(await card().getByTestId('proposal-approve').isDisabled()).toBe(true);
    expect(await page.getByTestId('proposals-hint').textContent()).toContain('approving needs the operator');
    // Opening the link decided nothing.
    expect(h.store.proposals.get(proposalId)?.status).toBe('pending');
  });

  it("keeps approving out of reach when signed in with the agent's own token", async () => {
    await signIn(CLAUDE_TOKEN);
    expect(await page.getByTestId('signed-in-name').textContent()).toBe('claude');
    expect(await card().getByTestId('proposal-approve').isDisabled()).toBe(true);
    // Even a request the page did not offer to make, with that session, is refused.
    const status = await page.evaluate<number>(
      `fetch('/api/proposals/${proposalId}/approve', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }).then((response) => response.status)`,
    );
    expect(status).toBe(403);
    expect(h.offersAt(loanRequestId)).toHaveLength(0);
    // Chromium logs the refused request it was made to send; the page itself logged nothing.
    const refusedLines = problems.splice(0);
    expect(refusedLines).toEqual([expect.stringContaining('403')]);
    await page.getByTestId('sign-out-button').click();
    await page.getByTestId('sign-in-form').waitFor({ state: 'visible' });
  });

  it("places the offer once on the operator's click", async () => {
    await signIn(OPERATOR_TOKEN);
    const approve = card().getByTestId('proposal-approve');
    await expect.poll(() => approve.isEnabled(), { timeout: UI_WAIT_MS }).toBe(true);
    expect(h.offersAt(loanRequestId)).toHaveLength(0);
    await approve.click();
    await expect.poll(() => card().getAttribute('data-status'), { timeout: UI_WAIT_MS }).toBe('done');
    const offers = h.offersAt(loanRequestId);
    expect(offers).toHaveLength(1);
    expect(offers[0]).toMatchObject({ offered_interest: 0.27, automate_fund: true });
    await expect
      .poll(() => card().getByTestId('proposal-result').textContent(), { timeout: UI_WAIT_MS })
      .toMatch(
        new RegExp(
          `^proposal ${proposalId} approved by dashboard:operator at \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC real time: placed \\(offer ${offers[0]!.id}\\)$`,
        ),
      );
    expect(await card().getByTestId('proposal-approve').count()).toBe(0);
    expect(h.store.proposals.get(proposalId)).toMatchObject({ status: 'done', outcome: 'placed', decidedBy: 'dashboard:operator' });
    // The badge says what happened to the money, not the row's "done".
    expect(await card().getByTestId('proposal-status').textContent()).toBe('approved and placed');
    expect(await card().getByTestId('proposal-status').getAttribute('class')).toContain('pill-proposal-placed');
    expect(problems).toEqual([]);
  });

  it('marks an approval that placed nothing "approved, not placed", in red, with why', async () => {
    // The borrower withdraws the request while the proposal waits.
    const request = h.makeRequest({ cancel: true, decisionDelayMs: 3_600_000 });
    const proposed = await callTool(agent, 'place_offer', { loan_request_id: request.id, rate: 0.25 });
    const id = proposed.data.proposal_id as number;
    h.sandbox.control.advance(2 * 3_600_000);
    const gone = page.locator(`[data-testid="proposal"][data-proposal-id="${id}"]`);
    await page.goto(`${h.base}/#proposal-${id}`);
    const approve = gone.getByTestId('proposal-approve');
    await expect.poll(() => approve.isEnabled(), { timeout: UI_WAIT_MS }).toBe(true);
    await approve.click();
    await expect.poll(() => gone.getByTestId('proposal-status').textContent(), { timeout: UI_WAIT_MS }).toBe('approved, not placed');
    expect(await gone.getByTestId('proposal-status').getAttribute('class')).toContain('pill-proposal-not_placed');
    expect(await gone.getByTestId('proposal-state').textContent()).toContain(`not placed: loan request ${request.id} is no longer open`);
    expect(await gone.getByTestId('proposal-result').getAttribute('class')).toContain('state-bad');
    expect(h.offersAt(request.id)).toHaveLength(0);
    expect(problems).toEqual([]);
  });
});
