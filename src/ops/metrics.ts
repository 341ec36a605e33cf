/**
 * The daemon's Prometheus metrics (prom-client), in one registry per daemon so tests and several
 * daemons in one process never share counters. Counters are fed by the instrumentation in
 * instrument.ts; the money gauges are set from the status report at each scrape, so /metrics and
 * `lendbot status` always agree.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { CalibrationStatus } from './calibration.js';
import { calibrationDetailGauges } from './calibration-metrics.js';
import type { StatusReport } from './status-report.js';

export type OfferOutcome = 'placed' | 'refused' | 'ambiguous';

export interface LendbotMetrics {
  registry: Registry;
  requestsSeen: Counter<'source'>;
  decisions: Counter<'action' | 'reason'>;
  offers: Counter<'outcome'>;
  apiCalls: Counter<'endpoint' | 'code'>;
  apiErrors: Counter<'endpoint' | 'code'>;
  webhookEvents: Counter<'outcome'>;
  /** Real time, not the market's clock: a simulated day per second would make every call look instant. */
  apiCallSeconds: Histogram<'endpoint'>;
  webhookToOfferSeconds: Histogram;
  /** Sets the balance, reserved, exposure, data spend, inbox and poll gauges. */
  observeStatus(report: StatusReport): void;
}

export interface MetricsOptions {
  /** Also export Node's process metrics (CPU, memory, event loop lag); default true. */
  processMetrics?: boolean;
}

export function createMetrics(options: MetricsOptions = {}): LendbotMetrics {
  const registry = new Registry();
  if (options.processMetrics ?? true) collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const counter = <L extends string>(name: string, help: string, labelNames: readonly L[]): Counter<L> =>
    new Counter({ name, help, labelNames, registers });
  const gauge = <L extends string>(name: string, help: string, labelNames: readonly L[] = []): Gauge<L> =>
    new Gauge({ name, help, labelNames, registers });

  const balance = gauge('lendbot_balance_cents', 'available balance from the transfer history, in cents');
  const reserved = gauge('lendbot_reserved_cents', 'money held back by pending automate_fund offers, in cents');
  const free = gauge('lendbot_free_cash_cents', 'balance - reserved - min cash reserve, in cents');
  const exposure = gauge('lendbot_exposure_cents', 'open exposure by risk level, in cents', ['risk_level']);
  const dataSpend = gauge('lendbot_data_spend_cents', 'paid data bought this UTC month, in cents');
  const inboxDepth = gauge('lendbot_webhook_inbox_depth', 'webhook events stored and not yet processed');
  const lastPoll = gauge('lendbot_last_poll_timestamp_seconds', 'time of the last complete poll (0: none yet)');
  const offersToday = gauge('lendbot_offers_today', 'offers made today (UTC), refused ones excluded');
  const offersByState = gauge(
    'lendbot_offers',
    'offers made in the last 30 days, by state as every surface shows them (placed, lost, expired, ...)',
    ['state'],
  );
  const paused = gauge(
    'lendbot_protection_paused',
    '1 while a protection pauses new offers, by kind (account_refusal, default_spike, drawdown, calibration)',
    ['kind'],
  );
  const equity = gauge(
    'lendbot_equity_cents',
    'cash + principal still out on loans - the loss expected on late loans, in cents (as lendbot status)',
  );
  const nextMonthInflow = gauge(
    'lendbot_expected_inflow_next_month_cents',
    'what the loans should bring back next calendar month after likely defaults, in cents',
  );
  const idleShare = gauge('lendbot_idle_share', 'the share of the money idle now: free / (free + reserved + lent out)');
  const webhooksSilent = gauge('lendbot_webhooks_silent', '1 while polls find new requests and no webhook arrives');
  // Calibration by vintage (the month a loan was created; "all": the protection's window): bounded
  // by the window's months (docs/operations.md, "Calibration").
  const calibration = {
    predicted: gauge('lendbot_default_predicted', "mean predicted default of the lender's loans, by vintage", ['vintage']),
    realised: gauge('lendbot_default_realised', 'realised default so far (collection, default or a missed payment), by vintage', [
      'vintage',
    ]),
    low: gauge('lendbot_default_realised_low', 'low end of the 95 % interval of realised default, by vintage', ['vintage']),
    loans: gauge('lendbot_calibration_loans', 'loans with a predicted default, by vintage', ['vintage']),
    alert: gauge('lendbot_calibration_alert', '1 while realised default runs above predicted beyond noise'),
  };
  // By strategy and month made, with the loans' age, and the instalment hazard (calibration-metrics.ts).
  const calibrationDetail = calibrationDetailGauges(gauge);

  return {
    registry,
    requestsSeen: counter('lendbot_requests_seen_total', 'loan requests sent through the pipeline, by source', ['source']),
    decisions: counter('lendbot_decisions_total', 'decisions recorded, by action and decisive reason', ['action', 'reason']),
    offers: counter('lendbot_offers_total', 'offers sent to the service, by outcome (placed, refused, ambiguous)', ['outcome']),
    apiCalls: counter('lendbot_api_calls_total', 'marketplace API calls, by endpoint and code (ok or the error code)', [
      'endpoint',
      'code',
    ]),
    apiErrors: counter('lendbot_api_errors_total', 'marketplace API calls that failed, by endpoint and error code', ['endpoint', 'code']),
    webhookEvents: counter('lendbot_webhook_events_total', 'webhook deliveries, by outcome', ['outcome']),
    apiCallSeconds: new Histogram({
      name: 'lendbot_api_call_seconds',
      help: 'how long marketplace API calls take (real time, retries included), by endpoint',
      labelNames: ['endpoint'],
      buckets: [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    }),
    webhookToOfferSeconds: new Histogram({
      name: 'lendbot_webhook_to_offer_seconds',
      help: 'time from storing a webhook event to its offer being placed',
      buckets: [0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60],
      registers,
    }),
    observeStatus(report) {
      balance.set(report.balanceCents);
      reserved.set(report.reservedCents);
      free.set(report.freeCents);
      exposure.reset();
      for (const [level, cents] of Object.entries(report.exposure.byRiskLevelCents)) exposure.set({ risk_level: level }, cents);
      dataSpend.set(report.dataSpend.spentCents);
      inboxDepth.set(report.inboxDepth);
      lastPoll.set(report.lastPoll.at === null ? 0 : Date.parse(report.lastPoll.at) / 1000);
      offersToday.set(report.offersToday.offers);
      for (const [state, n] of Object.entries(report.offers)) offersByState.set({ state }, n);
      for (const kind of ['account_refusal', 'default_spike', 'drawdown', 'calibration', 'operator'])
        paused.set({ kind }, report.pause?.kind === kind ? 1 : 0);
      webhooksSilent.set(report.webhooksSilent === null ? 0 : 1);
      if (report.equity !== null) equity.set(report.equity.equityCents);
      nextMonthInflow.set(report.cashFlow.nextMonth.expectedCents);
      idleShare.set(report.cashFlow.idle.share);
      observeCalibration(calibration, report.calibration);
      calibrationDetail.observe(report.calibration);
    },
  };
}

/** Sets the calibration gauges: one series per vintage of the window and "all". */
function observeCalibration(
  gauges: Record<'predicted' | 'realised' | 'low' | 'loans', Gauge<'vintage'>> & { alert: Gauge },
  status: CalibrationStatus,
): void {
  for (const name of ['predicted', 'realised', 'low', 'loans'] as const) gauges[name].reset();
  for (const row of [...status.vintages, status.pooled]) {
    const vintage = { vintage: row.vintage };
    gauges.loans.set(vintage, row.loans);
    if (row.predicted !== null) gauges.predicted.set(vintage, row.predicted);
    if (row.realised !== null) gauges.realised.set(vintage, row.realised);
    if (row.low !== null) gauges.low.set(vintage, row.low);
  }
  gauges.alert.set(status.alert === null ? 0 : 1);
}
