/** The status report as people read it (`lendbot status`) and as scripts read it (`--json`). */
import { retrainJson, retrainLines } from './retrain-status.js';
import { snakeKeys } from './snake-keys.js';
import { marketLearningJson, marketLearningLines } from './market-learning-status.js';
import { formatCents, RISK_LEVEL_NAMES } from '../domain/index.js';
import { counted } from '../log/plain-figures.js';
import { cashFlowJson, cashFlowLines } from '../money/cash-flow-status.js';
import { offerStatesText } from './offer-states-status.js';
import { paperBookJson, paperBookLines } from './paper-book-view.js';
import { calibrationJson, calibrationLines } from './calibration.js';
import { describeClock } from './status-clock.js';
import { equityJson, equityText } from '../money/equity-now.js';
import type { StatusReport } from './status-report.js';
import { unfittedMarketText } from '../engine/market-source.js';

const usd = formatCents;

function against(value: string, cap: string | null): string {
  return cap === null ? `${value} (no cap)` : `${value} of ${cap}`;
}

function age(seconds: number): string {
  if (seconds < 120) return `${seconds} s ago`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} min ago`;
  return `${Math.round(seconds / 3600)} h ago`;
}

function paymentsText(p: StatusReport['payments']): string {
  if (p.payments === 0) return 'none synced';
  const delay = p.maxDelayedDays > 0 ? ` (up to ${p.maxDelayedDays} days)` : '';
  return `${p.paid} paid (${usd(p.paidCents)}), ${p.late} late${delay}, ${p.missed} missed, late fees charged ${usd(p.feesCents)}`;
}

/** A cap as the guard reads it now; a share says what it is a share of ("4,500.00 (90 % of the capital, 5,000.00)"). */
function capText(cents: number | null, share: number | null, capitalCents: number): string | null {
  if (cents === null) return null;
  return share === null ? usd(cents) : `${usd(cents)} (${Number((share * 100).toFixed(2))} % of the capital, ${usd(capitalCents)})`;
}

/** Aligned `label  value` lines. */
export function formatStatusText(report: StatusReport): string {
  const lines: Array<[string, string]> = [];
  const add = (label: string, value: string): void => {
    lines.push([label, value]);
  };
  add('as of', `${report.at}${report.scope === 'dry_run' ? ' (dry-run offers)' : ''}`);
  if (report.clock !== null) add('clock', describeClock(report.clock));
  add('balance', usd(report.balanceCents));
  add('reserved', usd(report.reservedCents));
  add('free cash', `${usd(report.freeCents)} (after a reserve of ${usd(report.minCashReserveCents)})`);
  add('offers', `${offerStatesText(report.offers)} (made in the last 30 days)`);
  add(
    'exposure',
    against(usd(report.exposure.totalCents), capText(report.exposure.maxCents, report.exposure.maxShare, report.capitalCents)),
  );
  for (const [level, cents] of Object.entries(report.exposure.byRiskLevelCents)) {
    add(`  risk ${level} ${RISK_LEVEL_NAMES[Number(level)] ?? ''}`.trimEnd(), usd(cents));
  }
  const today = report.offersToday;
  add('offers today', against(String(today.offers), today.maxOffers === null ? null : String(today.maxOffers)));
  add('offered today', against(usd(today.amountCents), capText(today.maxAmountCents, today.maxAmountShare, report.capitalCents)));
  add('decisions today', `${counted(report.decisionsToday.offer, 'offer')}, ${counted(report.decisionsToday.skip, 'skip')}`);
  const loans = Object.entries(report.loansByStatus);
  add('loans', loans.length === 0 ? 'none synced' : loans.map(([status, count]) => `${count} ${status}`).join(', '));
  add('payments', paymentsText(report.payments));
  if (report.equity !== null) add('equity', equityText(report.equity));
  lines.push(...cashFlowLines(report.cashFlow));
  add('data spend', `${usd(report.dataSpend.spentCents)} since ${report.dataSpend.monthStart.slice(0, 10)}`);
  for (const charge of report.dataSpend.subscriptions) {
    add(
      `  subscription ${charge.provider}`,
      `${usd(charge.costCents)} on ${charge.at.slice(0, 10)}${charge.strategy === null ? '' : ` (${charge.strategy})`}`,
    );
  }
  for (const budget of report.dataSpend.budgets) {
    // A budget of nothing is a strategy that buys no data: said so, not "0.00 of 0.00 (0.00 left)".
    add(
      `  budget ${budget.strategy}`,
      budget.monthlyBudgetCents === 0 && budget.spentCents === 0
        ? 'buys no paid data'
        : `${usd(budget.spentCents)} of ${usd(budget.monthlyBudgetCents)} (${usd(budget.monthlyBudgetCents - budget.spentCents)} left)`,
    );
    const unfitted = unfittedMarketText(budget.marketSource);
    if (unfitted !== undefined) add(`  market ${budget.strategy}`, unfitted);
  }
  add(
    'last poll',
    report.lastPoll.at === null || report.lastPoll.ageSeconds === null
      ? 'never'
      : `${report.lastPoll.at} (${age(report.lastPoll.ageSeconds)})`,
  );
  add('webhook inbox', `${report.inboxDepth} waiting`);
  add('kill switch', report.killSwitch.on ? `ON: ${report.killSwitch.why ?? ''}` : 'off');
  add('protections', report.pause === null ? 'no pause' : `PAUSED: ${report.pause.reason}`);
  if (report.webhooksSilent !== null) {
    add(
      'webhooks',
      `SILENT since ${report.webhooksSilent.since}: polls found ${report.webhooksSilent.polledRequests} new requests, no webhook came (ask to reactivate the subscription)`,
    );
  }
  if (report.webhookRefusals !== null) add('webhook tokens', `REFUSED: ${report.webhookRefusals.warning}`);
  if (report.paperBook !== null) lines.push(...paperBookLines(report.paperBook));
  lines.push(...marketLearningLines(report.marketLearning));
  lines.push(...calibrationLines(report.calibration));
  lines.push(...retrainLines(report.retrain));
  const width = Math.max(...lines.map(([label]) => label.length));
  return `${lines.map(([label, value]) => `${label.padEnd(width)}  ${value}`).join('\n')}\n`;
}

/** snake_case JSON, amounts as integer cents (risk levels and offer states, keys of data, kept as they are). */
export function statusJson(report: StatusReport): Record<string, unknown> {
  const { feesCents, ...payments } = report.payments;
  const { byRiskLevelCents, ...exposure } = report.exposure;
  return {
    at: report.at,
    ...(report.clock === null ? {} : { clock: snakeKeys(report.clock) }),
    scope: report.scope,
    balance_cents: report.balanceCents,
    reserved_cents: report.reservedCents,
    free_cents: report.freeCents,
    min_cash_reserve_cents: report.minCashReserveCents,
    offers_by_state: report.offers,
    exposure: { ...(snakeKeys(exposure) as object), by_risk_level_cents: byRiskLevelCents },
    capital_cents: report.capitalCents,
    offers_today: snakeKeys(report.offersToday),
    decisions_today: report.decisionsToday,
    loans_by_status: report.loansByStatus,
    payments: { ...(snakeKeys(payments) as object), late_fees_charged_cents: feesCents },
    equity: report.equity === null ? null : equityJson(report.equity),
    data_spend: snakeKeys(report.dataSpend),
    last_poll: snakeKeys(report.lastPoll),
    inbox_depth: report.inboxDepth,
    kill_switch: report.killSwitch,
    pause: report.pause,
    webhooks_silent: snakeKeys(report.webhooksSilent),
    webhook_refusals: report.webhookRefusals,
    paper_book: report.paperBook === null ? null : paperBookJson(report.paperBook),
    // Only when some strategy learns its market (pricing.learning).
    ...(report.marketLearning.length === 0 ? {} : { market_learning: marketLearningJson(report.marketLearning) }),
    calibration: calibrationJson(report.calibration),
    cash_flow: cashFlowJson(report.cashFlow),
    retrain: retrainJson(report.retrain),
  };
}
