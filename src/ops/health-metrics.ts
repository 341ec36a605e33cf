/**
 * Health and metrics for the daemon, part of attachOps (attach-ops.ts, the one call that also adds
 * hot reload and the idle-cash watch): instruments the pipeline, registers `GET /healthz` on the webhook
 * listener (before it listens) and returns the metrics scrape the operator listener serves at
 * `GET /metrics`. The metrics are one of the daemon's built parts, so the client and the webhook
 * listener's `onOutcome` feed them too.
 */
import type { Clock } from '../clock/clock.js';
import type { Logger } from '../log/logger.js';
import type { RiskLimits } from '../risk/index.js';
import type { Store } from '../store/index.js';
import { checkHealth, type HealthOptions } from './health.js';
import type { ServiceDegraded } from './service-health.js';
import { instrumentPipeline, type DecisionFeed } from './instrument.js';
import type { LossRates } from '../money/equity.js';
import type { LendbotMetrics } from './metrics.js';
import { metricsScrape, registerHealthRoute, type MetricsScrape, type OpsApp } from './ops-routes.js';
import { buildStatusReport, type StrategyBudget } from './status-report.js';

export interface HealthMetricsDeps {
  app: OpsApp;
  metrics: LendbotMetrics;
  store: Store;
  clock: Clock;
  pipeline: DecisionFeed;
  limits: () => RiskLimits;
  budgets: () => readonly StrategyBudget[];
  dryRun: boolean;
  /** Oldest acceptable last poll in the clock's milliseconds (scale it by the sandbox speed). */
  maxPollAgeMs?: number;
  /** Longest time events may wait with none processed, in the clock's milliseconds (scaled likewise). */
  maxInboxStallMs?: number;
  /** When the inbox worker last processed an event (the same clock). */
  inboxProgressAtMs?: () => number | undefined;
  serviceDegraded?: () => ServiceDegraded | undefined;
  /** The polls failed in a row, and how many make the poll check fail. */
  pollFailures?: HealthOptions['pollFailures'];
  /** The config's expected-loss shares: the scrape then has equity (lendbot_equity_cents). */
  equityLossRates?: LossRates;
  log?: Logger;
}

export function attachHealthAndMetrics(deps: HealthMetricsDeps): { metrics: MetricsScrape } {
  const { app, metrics, store, clock } = deps;
  const startedAtMs = clock.now();
  instrumentPipeline(deps.pipeline, { metrics, store, clock });
  registerHealthRoute(app, () =>
    checkHealth({
      store,
      clock,
      startedAtMs,
      ...(deps.maxPollAgeMs === undefined ? {} : { maxPollAgeMs: deps.maxPollAgeMs }),
      ...(deps.maxInboxStallMs === undefined ? {} : { maxInboxStallMs: deps.maxInboxStallMs }),
      ...(deps.inboxProgressAtMs === undefined ? {} : { inboxProgressAtMs: deps.inboxProgressAtMs }),
      ...(deps.serviceDegraded === undefined ? {} : { serviceDegraded: deps.serviceDegraded }),
      ...(deps.pollFailures === undefined ? {} : { pollFailures: deps.pollFailures }),
    }),
  );
  const scrape = metricsScrape(
    metrics.registry,
    () =>
      metrics.observeStatus(
        buildStatusReport({
          store,
          nowMs: clock.now(),
          limits: deps.limits(),
          budgets: deps.budgets(),
          dryRun: deps.dryRun,
          ...(deps.equityLossRates === undefined ? {} : { equityLossRates: deps.equityLossRates }),
        }),
      ),
    (error) => deps.log?.warn({ err: error }, 'metrics gauges not refreshed'),
  );
  return { metrics: scrape };
}
