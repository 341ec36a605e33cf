/**
 * Everything operational, attached to the daemon's built parts in one call (the fastify plugin and
 * probot `app.load` idiom): health on the webhook listener, the pipeline's metrics and the scrape
 * the operator listener serves, hot reload of the strategies and the `risk:` section, the status's clock and a terminal's summary line. Messaging (notifications, the digest,
 * Telegram) attaches beside it (src/messaging/attach-messaging.ts, attachMessaging), and the
 * idle-cash watch with the cash-flow wing (src/cash-flow/attach-cash-flow.ts, attachCashFlow).
 *
 * The notifier, the metrics, the service health and the protections are parts themselves: other
 * parts are built with them (the client is counted, the pipeline pauses), so they exist before
 * anything that uses them. The daemon calls `start` and `stop` with its own and schedules `jobs()`.
 */
import { systemClock, type Clock } from '../clock/clock.js';
import type { Job } from '../clock/scheduler.js';
import type { CompiledStrategy } from '../engine/index.js';
import type { Logger } from '../log/logger.js';
import type { RiskLimits } from '../risk/index.js';
import type { LossRates } from '../money/equity.js';
import type { Store } from '../store/index.js';
import type { z } from 'zod';
import { attachHealthAndMetrics } from './health-metrics.js';
import { DEFAULT_MAX_INBOX_STALL_MS, DEFAULT_MAX_POLL_AGE_MS } from './health.js';
import { HotReloader, type ActiveConfig } from './hot-reload.js';
import type { LendbotMetrics } from './metrics.js';
import type { DecisionFeed } from './instrument.js';
import type { MetricsScrape, OpsApp } from './ops-routes.js';
import type { ServiceDegraded } from './service-health.js';
import { CLOCK_RECORD_SCHEDULE, ClockRecorder } from './status-clock.js';
import { strategyBudgets } from './daemon-status.js';
import { terminalSummaryJobs } from './terminal-summary.js';

/** What operations read of the daemon's built parts (src/daemon/daemon-parts.ts, DaemonParts). */
export interface OpsParts {
  config: { poll: { failures_before_degraded: number } };
  log: Logger;
  store: Store;
  dryRun: boolean;
  /** `speed` (simulated seconds per real second, 1 live) scales the health limits. */
  clocks: { market: Clock; speed: number };
  active: {
    strategies: () => readonly CompiledStrategy[];
    limits: () => RiskLimits;
    /** Hot reload: the files to watch and how to swap a validated change in; undefined turns it off. */
    reload:
      | {
          strategyFiles: readonly string[];
          configFile?: string | undefined;
          configSchema?: z.ZodType<{ risk: RiskLimits }>;
          apply: (next: ActiveConfig) => Promise<void>;
        }
      | undefined;
  };
  /** The service health is the marketplace's refusal of our credentials or clock, for `/healthz`. */
  instruments: {
    metrics: LendbotMetrics;
    serviceHealth: { current(): ServiceDegraded | undefined };
  };
  pipeline: DecisionFeed;
  /** For `/healthz`: the listener it is added to (before it listens), the inbox's last progress, the polls failed in a row. */
  intake: {
    webhook: OpsApp;
    inbox: { readonly lastProgressAtMs: number | undefined };
    poller: { failedPolls(): { inRow: number; reason: string; sinceMs: number } | undefined };
  };
  /** The config's expected-loss shares, for equity in /metrics. */
  returns: { lossRates: LossRates };
}

export interface Operations {
  /** The Prometheus scrape the operator listener serves at GET /metrics. */
  metrics: MetricsScrape;
  /** Jobs to schedule with the daemon's once started (the summary line counts from the start). */
  jobs(): Job[];
  start(): Promise<void>;
  stop(): void;
}

export function attachOps(parts: OpsParts): Operations {
  const { store, log, dryRun } = parts;
  const { market: clock, speed: clockSpeed } = parts.clocks;
  const { strategies, limits, reload } = parts.active;
  const { serviceHealth } = parts.instruments;
  const { inbox, poller } = parts.intake;
  const budgets = () => strategyBudgets(strategies());
  const { metrics } = attachHealthAndMetrics({
    log,
    app: parts.intake.webhook,
    metrics: parts.instruments.metrics,
    store,
    clock,
    pipeline: parts.pipeline,
    limits,
    budgets,
    dryRun,
    maxPollAgeMs: DEFAULT_MAX_POLL_AGE_MS * clockSpeed,
    maxInboxStallMs: DEFAULT_MAX_INBOX_STALL_MS * clockSpeed,
    inboxProgressAtMs: () => inbox.lastProgressAtMs,
    serviceDegraded: () => serviceHealth.current(),
    pollFailures: { current: () => poller.failedPolls(), max: parts.config.poll.failures_before_degraded },
    equityLossRates: parts.returns.lossRates,
  });

  const reloader =
    reload === undefined
      ? undefined
      : new HotReloader({
          strategyFiles: reload.strategyFiles,
          configFile: reload.configFile,
          ...(reload.configSchema === undefined ? {} : { configSchema: reload.configSchema }),
          initial: { strategies: strategies(), limits: limits() },
          log: log.child({ component: 'reload' }),
          onChange: reload.apply,
        });

  const jobs: Job[] = [];
  // `lendbot status` reads the database in the clock it was written in (status-clock.ts).
  const clockRecorder = new ClockRecorder(store.state, clock, systemClock, clockSpeed);
  const recordClock = (stopped = false): void => {
    try {
      clockRecorder.record(stopped);
    } catch (error) {
      log.warn({ err: error }, 'could not record the clock for lendbot status');
    }
  };
  if (clockRecorder.kind === 'simulated') jobs.push({ name: 'clock', schedule: CLOCK_RECORD_SCHEDULE, run: async () => recordClock() });
  // On a terminal, a summary line a minute, counting from the start (terminal-summary.ts).
  let summaryJobs: Job[] = [];

  return {
    metrics,
    jobs: () => [...jobs, ...summaryJobs],
    async start() {
      summaryJobs = terminalSummaryJobs({
        store,
        clock,
        limits,
        dryRun,
        log: log.child({ component: 'summary' }),
      });
      recordClock();
      await reloader?.start();
    },
    stop() {
      recordClock(true);
      reloader?.stop();
    },
  };
}
