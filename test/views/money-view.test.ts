/**
 * Every surface a lender looks at, on one store after a run against the sandbox, says the same:
 * the same offers in the same states, the same offers holding money back, the same balance,
 * reserved and free cash, the same equity (and its parts), the same money expected back next
 * month and over 12 months, the same idle share, and the same predicted against realised default
 * by strategy and month made with the instalments by month of loan age, all equal to what the
 * store says (equityNow, buildCashFlowForecast, the idle-cash report, calibrationStatus). The daemon funds accepted offers
 * itself (automate_fund false, reserving): the run leaves two offers funded 40 days ago (one loan
 * repaying on time, one in collection after a missed payment: interest earned and a loss
 * expected), one accepted and not funded yet, two lost long ago, one expired, one just lost
 * (still reserving: the service never said we lost it), and one still out. The surfaces
 * (readers in surfaces.ts): the operator API over HTTP with a token (overview, offers, decisions,
 * returns, cash flow), the dashboard in chromium (balance card, offers, decisions, returns, money
 * coming back), the agent connector through the MCP SDK client (list_offers, get_balance,
 * get_status, get_cash_flow_forecast), /metrics, the digest's figures, then, once the daemon has
 * stopped, `lendbot status --json` and `lendbot decisions --json` (and `--id N --json` for each offer).
 *
 * Before this test covered equity, the overview (so the dashboard's balance card) and get_status
 * showed none (equity: null).
 *
 * Before the offer view (store/offer-view.ts), the API, the dashboard and list_offers showed the
 * offers table's bookkeeping column: the lost and expired offers were all 'placed'.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balanceFromStore, riskLimitsSchema } from '../../src/risk/index.js';
import { runCli } from '../cli/run-cli.js';
import { browserRequired, launchChromium, skipReason } from '../browser/chromium.js';
import { OFFER_ALL_MANUAL, startDaemonHarness, waitFor, type DaemonHarness } from '../daemon/daemon-harness.js';
import { connectAgent, OPERATOR_TOKEN } from '../operator/operator-harness.js';
import { BOT_TOKEN, startBotFixture, type BotFixture } from '../messaging/telegram-bot-fixture.js';
import { returnsFromStore } from '../../src/operator/api/returns-routes.js';
import { nextMonthExpectedInflow } from '../../src/money/cash-flow-forecast.js';
import { storeDigestFigures } from '../../src/messaging/digest/digest-figures.js';
import { buildStatusReport } from '../../src/ops/status-report.js';
import { equityNow } from '../../src/money/equity-now.js';
import { OFFER_COUNT_WINDOW_MS } from '../../src/ops/offer-states-status.js';
import { buildCashFlowForecast } from '../../src/money/forecast-loans.js';
import { buildIdleCashReport } from '../../src/money/idle-cash-report.js';
import { calibrationStatus } from '../../src/ops/calibration.js';
import {
  countStates,
  fromApi,
  fromApiCalibration,
  fromApiCashFlow,
  fromApiDecisions,
  fromApiReturns,
  fromConnector,
  fromConnectorCashFlow,
  fromConnectorStatus,
  fromCalibrationReport,
  fromDashboard,
  fromDashboardCalibration,
  fromDashboardDecisions,
  fromDashboardMoney,
  fromDecisions,
  fromDigest,
  fromMetrics,
  fromStatusJson,
  fromStatusText,
  type Figures,
  type Shown,
} from './surfaces.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const UI_WAIT_MS = 15_000;
// The harness's risk settings, for the CLI's configuration file too.
const RISK = { max_open_exposure: null, max_per_borrower: null, max_amount_per_day: null, reserve_manual_offers: true };

if (skipReason !== undefined && !browserRequired) console.warn(`money-view.test.ts: ${skipReason}`);

let h: DaemonHarness;
let browser: Browser | undefined;
let bot: BotFixture | undefined;
const LENDER = 424242;
/** What the run was built to leave, by loan request id. */
const built: Record<string, number> = {};

/** Creates a request in the sandbox and waits until the daemon's offer on it is placed. */
async function offeredRequest(fields: Parameters<DaemonHarness['sandbox']['control']['createLoanRequest']>[0]): Promise<number> {
  const request = h.sandbox.control.createLoanRequest({ svcColor: 1, maxInterestRate: 0.6, ...fields });
  await h.sandbox.control.flushWebhooks();
  await waitFor(() => h.store.offers.getByRequest(request.id)?.state === 'placed', `the offer on ${request.id}`);
  await h.daemon.pipeline.idle();
  return request.id;
}

/** The store's own word: the offers table, the listings (offerFate), our loans and the guard's reserved figure. */
function storeTruth(): Figures {
  const nowMs = h.sandbox.clock.now();
  const limits = riskLimitsSchema.parse(RISK);
  const guard = { nowMs, expiryMs: limits.offerExpiryMs, dryRun: false, includeManual: limits.reserveManualOffers };
  const reservedCents = h.store.offers.reserved(guard);
  const states: Record<number, string> = {};
  const reserving: number[] = [];
  const recent: Record<number, string> = {};
  for (const offer of h.store.offers.listByState(['intent', 'placed', 'refused', 'unknown', 'accepted', 'funded', 'rejected', 'expired'])) {
    const loan = h.store.account.loanForRequest(offer.loanRequestId);
    const fate = h.store.offers.fate(offer, guard)?.fate;
    if (loan !== undefined)
      states[offer.loanRequestId] = loan.status.toLowerCase() === 'pending' && offer.state !== 'funded' ? 'accepted' : 'funded';
    else states[offer.loanRequestId] = fate === 'pending' ? 'placed' : (fate ?? offer.state);
    if (Date.parse(offer.createdAt) >= nowMs - OFFER_COUNT_WINDOW_MS) recent[offer.loanRequestId] = states[offer.loanRequestId] ?? '';
    // An offer reserves when the guard's figure without it is smaller by its amount.
    if (reservedCents - h.store.offers.reserved({ ...guard, exceptOfferId: offer.id }) === offer.totalAmountCents)
      reserving.push(offer.loanRequestId);
  }
  const balanceCents = balanceFromStore(h.store);
  const equity = equityNow(h.store, { now: () => nowMs });
  const forecast = buildCashFlowForecast(h.store, nowMs);
  const idleShare = buildIdleCashReport(h.store, nowMs, limits, false, forecast.outstandingPrincipalCents).share;
  return {
    states,
    reserving: reserving.sort((a, b) => a - b),
    counts: countStates(states),
    recentCounts: countStates(recent),
    balanceCents,
    reservedCents,
    freeCents: balanceCents - reservedCents - limits.minCashReserveCents,
    equityCents: equity.equityCents,
    cashCents: equity.cashCents,
    outstandingCents: equity.outstandingCents,
    expectedLossCents: equity.expectedLossCents,
    interestCents: equity.interestCents,
    nextMonthCents: nextMonthExpectedInflow(forecast).cents,
    twelveMonthsCents: forecast.totals.expectedCents,
    idleShare,
    idlePercent: Math.round(idleShare * 100),
    // Predicted against realised default by strategy and month made, and the instalments by month of age.
    ...(fromCalibrationReport(calibrationStatus(h.store, nowMs, limits.protections.calibration, undefined)) as Pick<
      Figures,
      'vintageLoans' | 'vintagePredicted' | 'vintageRealised' | 'vintageReading' | 'instalments'
    >),
  };
}

/** Every figure the surface showed equals the store's. */
function expectSameAs(truth: Figures, surface: string, shown: Shown): void {
  const keys = Object.keys(shown) as Array<keyof Figures>;
  expect(keys.length, `${surface} shows nothing`).toBeGreaterThan(0);
  // Soft: one run names every surface and figure that disagrees, not just the first.
  for (const key of keys) expect.soft(shown[key], `${surface}: ${key}`).toEqual(truth[key]);
}

describe('one truth about offers and money on every surface', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    bot = await startBotFixture();
    h = await startDaemonHarness({
      sandbox: { arrivalsPerHour: 0 },
      strategyFiles: [OFFER_ALL_MANUAL],
      risk: { reserve_manual_offers: true },
      env: { LENDBOT_OPERATOR_TOKEN: OPERATOR_TOKEN, LENDBOT_TELEGRAM_BOT_TOKEN: BOT_TOKEN, LENDBOT_TELEGRAM_CHAT_ID: String(LENDER) },
      // Telegram's /status answered by the daemon, against a fixture of the Bot API.
      notifications: { format: 'telegram', telegram_api_url: bot.origin, telegram_commands: { enabled: true, poll_timeout_seconds: 1 } },
    });
    const control = h.sandbox.control;
    const decide = { decisionDelayMs: 2 * HOUR };
    // The funded loan repays on time: interest earned, principal back, money expected next month.
    built.funded = await offeredRequest({ ...decide, competitorOffers: 0, repayProbability: 1, missedMonth: null, lateDays: [] });
    // Another misses its first payment and goes to collection: a loss expected, equity below cash + loans out.
    built.missed = await offeredRequest({ ...decide, competitorOffers: 0, repayProbability: 0.2, missedMonth: 1, lateDays: [] });
    built.outbid = await offeredRequest({ ...decide, competitorRates: [0.031] });
    built.expired = await offeredRequest({ ...decide, competitorOffers: 0, takeUp: 0 });
    built.canceled = await offeredRequest({ ...decide, competitorOffers: 0, cancel: true });
    await h.daemon.runJob('poll');
    control.advance(3 * HOUR);
    await h.daemon.runJob('poll');
    await h.daemon.runJob('sync');
    // The borrower took our offer: the daemon funds it (the loan stays pending until funding completes).
    await h.daemon.runJob('fund');
    // 40 days on, read every 10: the first offers' life (72 h) is over, and the funded loan has
    // made its first repayment (interest earned, principal back, the forecast's next month).
    for (let day = 0; day < 40; day += 10) {
      control.advance(10 * DAY);
      await h.daemon.runJob('poll');
      await h.daemon.runJob('sync');
    }
    built.justLost = await offeredRequest({ decisionDelayMs: HOUR, competitorRates: [0.031] });
    built.accepted = await offeredRequest({ decisionDelayMs: HOUR, competitorOffers: 0 });
    built.open = await offeredRequest({ ...decide, competitorOffers: 0, takeUp: 0 });
    await h.daemon.runJob('poll');
    control.advance(HOUR + HOUR / 2);
    await h.daemon.runJob('poll');
    await h.daemon.runJob('sync');
    await h.daemon.runJob('balance');
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await h?.close();
    await bot?.close();
  });

  it('leaves the store with offers funded, accepted, lost, expired, just lost and open', () => {
    const truth = storeTruth();
    expect(truth.states).toEqual({
      [built.funded ?? 0]: 'funded',
      [built.missed ?? 0]: 'funded',
      [built.outbid ?? 0]: 'lost',
      [built.expired ?? 0]: 'expired',
      [built.canceled ?? 0]: 'lost',
      [built.justLost ?? 0]: 'lost',
      [built.accepted ?? 0]: 'accepted',
      [built.open ?? 0]: 'placed',
    });
    // The safe reading: the just-lost offer keeps its money until its life ends; the accepted one
    // until lendbot's own fund call.
    expect(truth.reserving).toEqual([built.justLost, built.accepted, built.open].sort((a, b) => (a ?? 0) - (b ?? 0)));
    expect(truth.reservedCents).toBeGreaterThan(0);
    expect(truth.balanceCents).toBeGreaterThan(0);
    // A loan out with a repayment made: equity, interest and the forecast are not all zero.
    expect(truth.outstandingCents).toBeGreaterThan(0);
    expect(truth.interestCents).toBeGreaterThan(0);
    expect(truth.expectedLossCents).toBeGreaterThan(0);
    expect(truth.equityCents).toBe((truth.cashCents ?? 0) + (truth.outstandingCents ?? 0) - (truth.expectedLossCents ?? 0));
    expect(truth.nextMonthCents).toBeGreaterThan(0);
    expect(truth.twelveMonthsCents).toBeGreaterThan(truth.nextMonthCents ?? 0);
    expect(truth.idleShare).toBeGreaterThan(0);
    expect(truth.idleShare).toBeLessThan(1);
    // Both funded loans were made this month by the one strategy; the first instalments: one paid, one missed.
    expect(Object.entries(truth.vintageLoans ?? {}).filter(([key]) => key.endsWith('/all'))).toEqual([['offer-all-manual/all', 2]]);
    expect(truth.instalments).toEqual({ 1: '2 0 1' });
    expect(truth.vintageRealised?.['offer-all-manual/all']).toBe('50.0');
  });

  it('shows the same on the operator API, /metrics, Telegram /status, the agent connector and the dashboard', async () => {
    const truth = storeTruth();
    const base = h.daemon.operatorUrl();
    if (base === undefined) throw new Error('the operator listener did not start');
    expectSameAs(truth, 'operator API', await fromApi(base, OPERATOR_TOKEN));
    expectSameAs(truth, 'operator API decisions', await fromApiDecisions(base, OPERATOR_TOKEN));
    expectSameAs(truth, 'operator API returns', await fromApiReturns(base, OPERATOR_TOKEN));
    expectSameAs(truth, 'operator API cash flow', await fromApiCashFlow(base, OPERATOR_TOKEN));
    expectSameAs(truth, 'operator API calibration', await fromApiCalibration(base, OPERATOR_TOKEN));
    expectSameAs(truth, '/metrics', await fromMetrics(base, OPERATOR_TOKEN));

    // Telegram's /status: the daemon's answer in the chat (its notifications go there too).
    bot?.say(LENDER, '/status');
    await expect.poll(() => bot?.sent.find((message) => message.text.startsWith('as of')), { timeout: UI_WAIT_MS }).toBeDefined();
    expectSameAs(truth, 'Telegram /status', fromStatusText(bot?.sent.find((message) => message.text.startsWith('as of'))?.text ?? ''));

    const agent = await connectAgent(new URL('/mcp', base), OPERATOR_TOKEN);
    try {
      expectSameAs(truth, 'agent connector', await fromConnector(agent));
      expectSameAs(truth, 'agent connector get_status', await fromConnectorStatus(agent));
      expectSameAs(truth, 'agent connector get_cash_flow_forecast', await fromConnectorCashFlow(agent));
    } finally {
      await agent.close();
    }

    if (skipReason !== undefined) return;
    browser = await launchChromium();
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    await page.goto(base);
    const offers = Object.keys(truth.states).length;
    await expect.poll(() => page.locator('[data-testid="offers-table"] tbody tr').count(), { timeout: UI_WAIT_MS }).toBe(offers);
    await expect.poll(() => page.getByTestId('balance').textContent(), { timeout: UI_WAIT_MS }).not.toBe('');
    expectSameAs(truth, 'dashboard', await fromDashboard(page));
    if (process.env.LENDBOT_SCREENSHOT_DIR)
      await page.getByTestId('card-balance').screenshot({ path: `${process.env.LENDBOT_SCREENSHOT_DIR}/balance-card.png` });
    await expect.poll(() => page.getByTestId('forecast-summary').textContent(), { timeout: UI_WAIT_MS }).toMatch(/^Expected back/);
    await expect.poll(() => page.getByTestId('returns-totals').textContent(), { timeout: UI_WAIT_MS }).toMatch(/^equity/);
    expectSameAs(truth, 'dashboard returns and money coming back', await fromDashboardMoney(page));
    await expect
      .poll(() => page.locator('[data-testid="decision-row"][data-action="offer"]').count(), { timeout: UI_WAIT_MS })
      .toBe(offers);
    expectSameAs(truth, 'dashboard decisions', await fromDashboardDecisions(page));
    await expect
      .poll(() => page.locator('[data-testid="calibration-strategies"] tbody tr').count(), { timeout: UI_WAIT_MS })
      .toBe(Object.keys(truth.vintageLoans).length);
    expectSameAs(truth, 'dashboard calibration', await fromDashboardCalibration(page));
  });

  it("gives the digest the same interest, idle share and next month's inflow", () => {
    const truth = storeTruth();
    const nowMs = h.sandbox.clock.now();
    // Wired as the daemon wires it (daemon.ts): the returns series for interest and losses.
    const digest = storeDigestFigures({
      store: h.store,
      status: (ms) => buildStatusReport({ store: h.store, nowMs: ms, limits: riskLimitsSchema.parse(RISK), budgets: [], dryRun: false }),
      earnings: (ms) => returnsFromStore(h.store, ms),
    });
    // Over the whole run so far, the interest earned is all of it.
    expectSameAs(truth, 'digest', fromDigest(digest.figures({ fromMs: 0, toMs: nowMs + 1 }, nowMs)));
  });

  it('shows the same in lendbot status and lendbot decisions once the daemon has stopped', async () => {
    // Stopped, the daemon's last clock reading is where the CLI reads the run's times from.
    await h.daemon.stop();
    const truth = storeTruth();
    const db = join(h.dir, 'lendbot.db');
    const config = join(h.dir, 'lendbot.yaml');
    writeFileSync(config, stringify({ db, risk: RISK }));

    const status = await runCli(['status', '--config', config, '--json']);
    expect(status).toMatchObject({ code: 0 });
    expectSameAs(truth, 'lendbot status', fromStatusJson(JSON.parse(status.stdout) as Record<string, unknown>));

    const list = await runCli(['decisions', '--config', config, '--json']);
    expect(list).toMatchObject({ code: 0, stderr: '' });
    const lines = list.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const each = await Promise.all(
      Object.keys(truth.states).map(
        async (id) => JSON.parse((await runCli(['decisions', '--config', config, '--id', id, '--json'])).stdout) as Record<string, unknown>,
      ),
    );
    // The loan in collection is 'late' there (the loan's fate after funding), as the store lists it.
    expect(lines.find((line) => line.loan_request_id === built.missed)?.outcome).toBe('late');
    expect(h.store.account.loanForRequest(built.missed ?? 0)?.listStatus).toBe('collection');
    const [outcomes, offers] = fromDecisions(lines, each);
    expectSameAs(truth, 'lendbot decisions (outcome)', outcomes ?? {});
    expectSameAs(truth, 'lendbot decisions --id (offer)', offers ?? {});
  });
});
