// The dashboard's start: who the caller is, then each part refreshed on its own beat (the live
// decisions often, the slow-moving returns rarely), and the pause / resume control.
import { ApiError, change, getJson } from './api.js';
import { byTestId } from './dom.js';
import { createBook } from './book.js';
import { refreshCalibration } from './calibration.js';
import { createDecisions } from './decisions.js';
import { createExplanation } from './explanation.js';
import { refreshMarketLearning } from './market-learning.js';
import { refreshForecast } from './forecast.js';
import { PAGE_CLOCK_EVENT } from './format.js';
import { renderOverview } from './overview.js';
import { createProposals } from './proposals.js';
import { refreshReports } from './reports.js';
import { refreshReturns } from './returns.js';
import { createSession } from './session.js';

const SECONDS = 1000;
let me = { signedIn: false, canRead: false, canChange: false, wingRoutes: [] };
let paused = null;

function showProblem(error) {
  const banner = byTestId('connection-banner');
  if (error === null) {
    banner.hidden = true;
    return;
  }
  banner.textContent =
    error instanceof ApiError ? `The daemon refused: ${error.message}` : `Cannot reach the daemon (${error.message}); retrying.`;
  banner.hidden = false;
}

/**
 * A wing's panel (data-wing-route: the route it draws from) shows only while the daemon serves
 * that route (GET /api/me, wingRoutes, told to a reader): a wing left out is no error, so its
 * panel is not there.
 */
function showWingPanels() {
  if (!me.canRead) return;
  for (const panel of document.querySelectorAll('[data-wing-route]'))
    panel.toggleAttribute('data-wing-absent', !me.wingRoutes.includes(panel.dataset.wingRoute));
}

/**
 * Runs a refresh now and then every `ms`, never two at once, not while the tab is hidden; one of
 * a wing's panel (`wingRoute`) only while that wing is attached.
 */
function every(ms, task, wingRoute) {
  let running = false;
  const tick = async (force = false) => {
    if (running || !me.canRead || (document.hidden && !force)) return;
    if (wingRoute !== undefined && !me.wingRoutes.includes(wingRoute)) return;
    running = true;
    try {
      await task();
      showProblem(null);
    } catch (error) {
      // A 401 means the session ended (expired, signed out elsewhere): ask again who we are.
      if (error instanceof ApiError && error.status === 401) await session.refresh().catch(() => undefined);
      else showProblem(error);
    } finally {
      running = false;
    }
  };
  setInterval(() => void tick(), ms);
  return () => tick(true);
}

function showPause() {
  const state = byTestId('pause-state');
  state.textContent = paused ? `Offers paused (${paused.kind}): ${paused.reason}` : 'Offers allowed';
  state.className = paused ? 'pause-state state-bad' : 'pause-state state-good';
  state.dataset.paused = paused ? 'true' : 'false';
  const pause = byTestId('pause-button');
  const resume = byTestId('resume-button');
  pause.hidden = paused !== null;
  resume.hidden = paused === null;
  pause.disabled = !me.canChange;
  resume.disabled = !me.canChange;
  byTestId('pause-reason').disabled = !me.canChange || paused !== null;
  const why = me.canChange ? '' : 'Sign in to pause or resume offers';
  pause.title = why;
  resume.title = why;
}

const explanation = createExplanation();
const decisions = createDecisions({ openExplanation: (id) => void explanation.open(id) });
const book = createBook();

const refreshOverview = every(5 * SECONDS, async () => {
  const overview = await getJson('/api/overview');
  renderOverview(overview);
  decisions.setStrategies(overview.strategies);
  paused = overview.status.pause;
  showPause();
});
const refreshDecisions = every(3 * SECONDS, decisions.refresh);
const proposals = createProposals({
  onDecided: () => {
    void refreshOverview();
    void refreshBook();
    void refreshDecisions();
  },
  onUnauthorized: () => void session.refresh().catch(() => undefined),
});
const refreshProposals = every(5 * SECONDS, proposals.refresh, '/api/proposals');
const refreshBook = every(10 * SECONDS, book.refresh);
const refreshCharts = every(30 * SECONDS, refreshReturns);
const refreshReportList = every(30 * SECONDS, refreshReports);
// The report list's times are real time: drawn again once the page's clock is known.
window.addEventListener(PAGE_CLOCK_EVENT, () => void refreshReportList());
const refreshLearning = every(30 * SECONDS, refreshMarketLearning, '/api/market-learning');
const refreshCalibrationTable = every(60 * SECONDS, refreshCalibration, '/api/calibration');
const refreshCashFlow = every(30 * SECONDS, refreshForecast, '/api/cash-flow');

const session = createSession((next) => {
  const couldRead = me.canRead;
  me = next;
  showPause();
  showWingPanels();
  // Signing in or out changes who may approve: the proposals are drawn again at once.
  if (me.canRead) void refreshProposals();
  if (me.canRead && !couldRead) {
    void refreshOverview();
    void refreshDecisions();
    void refreshBook();
    void refreshCharts();
    void refreshReportList();
    void refreshLearning();
    void refreshCalibrationTable();
    void refreshCashFlow();
  }
});

async function pauseOrResume(action) {
  const button = byTestId(`${action}-button`);
  button.disabled = true;
  try {
    const reasonInput = byTestId('pause-reason');
    const reason = reasonInput.value.trim();
    const answer =
      action === 'pause' ? await change('POST', '/api/pause', reason === '' ? {} : { reason }) : await change('POST', '/api/resume', {});
    reasonInput.value = '';
    paused = answer.pause;
    showPause();
    showProblem(null);
    await refreshOverview();
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) await session.refresh().catch(() => undefined);
    showProblem(error);
    showPause();
  }
}
byTestId('pause-button').addEventListener('click', () => void pauseOrResume('pause'));
byTestId('resume-button').addEventListener('click', () => void pauseOrResume('resume'));

document.addEventListener('visibilitychange', () => {
  if (!document.hidden) void refreshOverview();
});

session.refresh().catch(showProblem);
