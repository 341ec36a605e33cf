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
import { instrumentPipeline, type DecisionFeed } from './instrument.js';
import type { LossRates } from '../money/equity.js';
import type { LendbotMetrics } from './metrics.js';
import { metricsScrape, registerHealthRoute, type MetricsScrape, type OpsApp } from './ops-routes.js';
import { buildStatusReport, type StrategyBudget } from './status-report.js';

/** The health checks' own settings (health.ts), passed on as given. */
type HealthSettings = Pick<HealthOptions, 'maxPollAgeMs' | 'maxInboxStallMs' | 'inboxProgressAtMs' | 'serviceDegraded' | 'pollFailures'>;

export interface HealthMetricsDeps extends HealthSettings {
  app: OpsApp;
  metrics: LendbotMetrics;
  store: Store;
  clock: Clock;
  pipeline: DecisionFeed;
  limits: () => RiskLimits;
  budgets: () => readonly StrategyBudget[];
  dryRun: boolean;
  /** The config's expected-loss shares: the scrape then has equity (lendbot_equity_cents). */
  equityLossRates?: LossRates;
  log?: Logger;
}

export function attachHealthAndMetrics(deps: HealthMetricsDeps): { metrics: MetricsScrape } {
  const { app, metrics, store, clock, pipeline, limits, budgets, dryRun, equityLossRates, log, ...health } = deps;
  const startedAtMs = clock.now();
  instrumentPipeline(pipeline, { metrics, store, clock });
  registerHealthRoute(app, () => checkHealth({ ...health, store, clock, startedAtMs }));
  const scrape = metricsScrape(
    metrics.registry,
    () =>
      metrics.observeStatus(
        buildStatusReport({
          store,
          nowMs: clock.now(),
          limits: limits(),
          budgets: budgets(),
          dryRun,
          ...(equityLossRates === undefined ? {} : { equityLossRates }),
        }),
      ),
    (error) => log?.warn({ err: error }, 'metrics gauges not refreshed'),
  );
  return { metrics: scrape };
}
