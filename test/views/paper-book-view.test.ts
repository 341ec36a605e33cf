/**
 * A dry run's paper book on every surface, against the real sandbox, where the strategy's assumed
 * curve and what the market did differ: of six paper offers, one request was taken by another
 * lender while our offer was out and five stayed listed past our offers' life (their borrowers
 * took nothing), so at most one in six of our offers could have been accepted where the curve
 * assumed far more. The book prices acceptance with the observed share, says where it comes from,
 * gives its interval and count, and a return on the balance it assumes; `lendbot status` (JSON
 * and words), the operator API (overview and /api/paper), the agent connector's get_status and
 * the dashboard's card all show the one computation (ops/paper-book-figures.ts).
 *
 * Before, every surface priced the book with the curve alone and said nothing of the fates or
 * of the capital.
 */
import type { Browser } from 'playwright-core';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPaperBook, type PaperBookFigures } from '../../src/ops/paper-book-figures.js';
import { paperBookJson } from '../../src/ops/paper-book-view.js';
import { riskLimitsSchema } from '../../src/risk/index.js';
import { browserRequired, launchChromium, skipReason } from '../browser/chromium.js';
import { runCli } from '../cli/run-cli.js';
import { startDaemonHarness, type DaemonHarness } from '../daemon/daemon-harness.js';
import { callTool, connectAgent, OPERATOR_TOKEN } from '../operator/operator-harness.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const UI_WAIT_MS = 15_000;
// The harness's limits: no caps, the default offer life (72 hours).
const LIMITS = riskLimitsSchema.parse({ max_open_exposure: null, max_per_borrower: null, max_amount_per_day: null });

if (skipReason !== undefined && !browserRequired) console.warn(`paper-book-view.test.ts: ${skipReason}`);

let h: DaemonHarness;
let browser: Browser | undefined;
let truth: PaperBookFigures;

const auth = { headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } };
async function getJson(path: string): Promise<Record<string, unknown>> {
  return (await (await fetch(new URL(path, h.daemon.operatorUrl()), auth)).json()) as Record<string, unknown>;
}

describe('the paper book on every surface, priced by what the market did', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    h = await startDaemonHarness({
      dryRun: true,
      sandbox: { arrivalsPerHour: 0 },
      // Enough for the six offers (about 4,300 USD each) to be out at once.
      balanceCents: 5_000_000,
      env: { LENDBOT_OPERATOR_TOKEN: OPERATOR_TOKEN },
    });
    const control = h.sandbox.control;
    const decide = { decisionDelayMs: 2 * HOUR, svcColor: 1, maxInterestRate: 0.6 };
    control.createLoanRequest({ ...decide, competitorRates: [0.031] });
    for (let i = 0; i < 5; i += 1) control.createLoanRequest({ ...decide, competitorOffers: 0, takeUp: 0 });
    await h.daemon.runJob('poll');
    control.advance(3 * HOUR);
    await h.daemon.runJob('poll');
    // Past the offers' life (72 h) and a week of paper offers, scanning the list each day.
    for (let day = 0; day < 8; day += 1) {
      control.advance(DAY);
      await h.daemon.runJob('poll');
    }
    await h.daemon.runJob('balance');
    truth = readPaperBook(h.store, h.sandbox.clock.now(), LIMITS);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  it('prices acceptance with the observed fates, not the curve, and says so', () => {
    const { summary, acceptance } = truth;
    expect(summary).toMatchObject({
      offers: 6,
      notModelled: 0,
      requests: { listed: 5, gone: 1, not_scanned: 0 },
      fates: { taken: 1, untaken: 5 },
    });
    // The curve (offer-all prices cost_plus under the default market response) assumes more.
    expect(acceptance.curveRate).toBeGreaterThan(0.3);
    expect(acceptance).toMatchObject({ source: 'paper_fates', n: 6 });
    expect(acceptance.rate).toBeCloseTo(1 / 6, 12);
    expect(acceptance.label).toBe(
      `acceptance: observed fates of 6 paper offers: at most 16.7 % (the assumed curve said ${(acceptance.curveRate * 100).toFixed(1)} %)`,
    );
    // The curve's book scaled down to the observed share.
    const share = 1 / 6 / acceptance.curveRate;
    expect(Math.abs(truth.lifetimeProfitCents - summary.expectedProfitCents * share)).toBeLessThanOrEqual(1);
    expect(truth.lifetimeProfitCents).toBeLessThan(summary.expectedProfitCents);
    // The capital it assumes: the account balance, over the 8 days since the first paper offer.
    expect(truth.capital.balanceCents).toBe(5_000_000);
    expect(truth.capital.days).toBeGreaterThanOrEqual(8);
    expect(truth.capital.annualReturn).toBeCloseTo(
      (truth.lifetimeProfitCents * (365 / ((h.sandbox.clock.now() - Date.parse(summary.firstAt ?? '')) / DAY))) / 5_000_000,
      2,
    );
    expect(truth.words).toMatch(
      /^acceptance at most 16\.7 % \(95 % [\d.]+ % to [\d.]+ %, 6 offers\); lifetime profit is earned over the loans' terms; return on the balance at this pace, a year: -?[\d.]+ %$/,
    );
  });

  it('shows the same on the operator API, the agent connector and the dashboard', async () => {
    const json = paperBookJson(truth);
    const overview = (await getJson('/api/overview')) as { status: { paperBook: unknown } };
    expect(overview.status.paperBook).toEqual(JSON.parse(JSON.stringify(truth)));
    expect((await getJson('/api/paper')).book).toEqual(json);

    const agent = await connectAgent(new URL('/mcp', h.daemon.operatorUrl()), OPERATOR_TOKEN);
    try {
      const { data } = await callTool(agent, 'get_status');
      expect(data.paperBook).toEqual(JSON.parse(JSON.stringify(truth)));
    } finally {
      await agent.close();
    }

    if (skipReason !== undefined) return;
    browser = await launchChromium();
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(`${h.daemon.operatorUrl()}#token=${OPERATOR_TOKEN}`);
    const card = page.getByTestId('card-paper-book');
    await expect.poll(() => card.isVisible(), { timeout: UI_WAIT_MS }).toBe(true);
    const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
    const percent = (share: number) => `${(share * 100).toFixed(1)} %`;
    const { acceptance, capital } = truth;
    expect(await page.getByTestId('paper-acceptance').textContent()).toBe(
      `observed fates of 6 paper offers: at most 16.7 % (the assumed curve said ${percent(acceptance.curveRate)}) ` +
        `(16.7 %; 95 % ${percent(acceptance.interval95?.low ?? 0)} to ${percent(acceptance.interval95?.high ?? 0)}, 6 offers)`,
    );
    expect(await page.getByTestId('paper-profit').textContent()).toBe(dollars.format(truth.lifetimeProfitCents / 100));
    expect(await page.getByTestId('paper-interval').textContent()).toBe(
      `${dollars.format(truth.lifetimeProfit95.lowCents / 100)} to ${dollars.format(truth.lifetimeProfit95.highCents / 100)}`,
    );
    expect(await page.getByTestId('paper-return').textContent()).toBe(
      `${percent(capital.annualReturn ?? 0)} a year on the balance of ${dollars.format(capital.balanceCents / 100)} ` +
        `(95 % ${percent(capital.annualReturn95?.low ?? 0)} to ${percent(capital.annualReturn95?.high ?? 0)}), at the pace of ${capital.days} days of paper offers`,
    );
    expect(await page.getByTestId('paper-words').textContent()).toBe(`${truth.words}.`);
    expect(problems).toEqual([]);
  });

  it('shows the same in lendbot status once the daemon has stopped', async () => {
    await h.daemon.stop();
    const db = join(h.dir, 'lendbot.db');
    const json = await runCli(['status', '--db', db, '--json']);
    expect(json.code).toBe(0);
    expect((JSON.parse(json.stdout) as { paper_book: unknown }).paper_book).toEqual(paperBookJson(truth));
    const text = (await runCli(['status', '--db', db])).stdout;
    expect(text).toMatch(
      /^ {2}acceptance +observed fates of 6 paper offers: at most 16\.7 % \(the assumed curve said [\d.]+ %\) \(16\.7 %; 95 % [\d.]+ % to [\d.]+ %, 6 offers\)$/m,
    );
    expect(text).toMatch(
      /^ {2}lifetime profit +-?[\d,.]+ expected \(95 % .+ to .+\), 1\.0 accepted and [\d,.]+ lent expected, earned over the loans' terms$/m,
    );
    expect(text).toMatch(
      /^ {2}return +-?[\d.]+ % a year on the balance of 50000\.00 \(95 % .+\), at the pace of [\d.]+ days of paper offers$/m,
    );
  });
});
