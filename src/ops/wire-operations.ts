/**
 * Everything operational, attached to a daemon the composition root has built: health on the
 * webhook listener, the metrics scrape (served by the operator listener), hot reload of the strategies and the `risk:` section, and outbound
 * notifications. createDaemon calls it once, before the listener listens, and calls `start`,
 * `stop` and schedules `jobs` with its own.
 */
import { systemClock, type Clock } from '../clock/clock.js';
import type { Job } from '../clock/scheduler.js';
import type { CompiledStrategy } from '../engine/index.js';
import type { Logger } from '../log/logger.js';
import type { RiskLimits } from '../risk/index.js';
import type { LossRates } from './equity.js';
import type { Store } from '../store/index.js';
import type { z } from 'zod';
import { attachOps } from './attach-ops.js';
import { DEFAULT_MAX_INBOX_STALL_MS, DEFAULT_MAX_POLL_AGE_MS } from './health.js';
import { HotReloader, type ActiveConfig } from './hot-reload.js';
import { idleCashSchedule, IdleCashWatch } from './idle-cash-alert.js';
import type { LendbotMetrics } from './metrics.js';
import { NotificationWatcher } from './notification-watcher.js';
import { notifierFromConfig, type NotificationEvent, type NotificationsConfig } from './notifier.js';
import type { DecisionFeed } from './instrument.js';
import type { MetricsScrape, OpsApp } from './ops-routes.js';
import type { ServiceDegraded } from './service-health.js';
import { CLOCK_RECORD_SCHEDULE, ClockRecorder, statusClock } from './status-clock.js';
import { buildStatusReport, type StrategyBudget } from './status-report.js';
import { storeDigestFigures, type EarningsSeries } from './digest/digest-figures.js';
import { DigestSender } from './digest/digest-sender.js';
import type { Protections } from './protections/index.js';
import type { ProposalDecider } from './telegram-commands/telegram-command-replies.js';
import { telegramCommandsFromConfig } from './telegram-commands/telegram-commands-setup.js';

export interface OperationsDeps {
  app: OpsApp;
  metrics: LendbotMetrics;
  store: Store;
  clock: Clock;
  pipeline: DecisionFeed;
  log: Logger;
  env: Record<string, string | undefined>;
  dryRun: boolean;
  strategies: () => readonly CompiledStrategy[];
  limits: () => RiskLimits;
  /** Simulated seconds per real second (the sandbox's speed); 1 for live. Scales the poll-age limit. */
  clockSpeed: number;
  /** Hot reload: the files to watch and how to swap a validated change in. Omit to turn it off. */
  reload?: {
    strategyFiles: readonly string[];
    configFile?: string | undefined;
    configSchema?: z.ZodType<{ risk: RiskLimits }>;
    apply: (next: ActiveConfig) => Promise<void>;
  };
  notifications?: NotificationsConfig | undefined;
  /** Cron schedule of the notification check (default every minute). */
  notifySchedule?: string;
  /** The marketplace's refusal of our credentials or clock, for `/healthz`. */
  serviceDegraded?: () => ServiceDegraded | undefined;
  /** When the inbox worker last processed an event (the clock's ms), for `/healthz`'s inbox check. */
  inboxProgressAtMs?: () => number | undefined;
  /** The returns series (interest, losses) up to a time, for the digest and /profit. */
  earnings?: (nowMs: number) => EarningsSeries;
  /** Telegram's /pause and /resume go through these. */
  protections?: Pick<Protections, 'activePause' | 'pauseByOperator' | 'resume'>;
  /** Telegram's /approve and /reject, as `lendbot approve` decides. */
  proposals?: ProposalDecider;
  /** Real time, for Telegram messages' dates and back-off. */
  realClock?: Clock;
  /** The config's expected-loss shares, for equity in /metrics. */
  equityLossRates?: LossRates;
}

export interface Operations {
  /** The Prometheus scrape the operator listener serves at GET /metrics. */
  metrics: MetricsScrape;
  /** Extra scheduled jobs (the notification check; a simulated clock's reading), to run with the daemon's. */
  jobs: Job[];
  /** Sends a notification now (nothing when notifications are off); never throws. */
  notify(event: NotificationEvent, data: Record<string, unknown>): void;
  start(): Promise<void>;
  stop(): void;
}

export function wireOperations(deps: OperationsDeps): Operations {
  const { store, clock, log } = deps;
  const budgets = (): StrategyBudget[] =>
    deps.strategies().map((strategy) => ({ strategy: strategy.name, monthlyBudgetCents: strategy.dataPolicy.monthlyBudgetCents }));
  const { metrics } = attachOps({
    log,
    app: deps.app,
    metrics: deps.metrics,
    store,
    clock,
    pipeline: deps.pipeline,
    limits: deps.limits,
    budgets,
    dryRun: deps.dryRun,
    maxPollAgeMs: DEFAULT_MAX_POLL_AGE_MS * deps.clockSpeed,
    maxInboxStallMs: DEFAULT_MAX_INBOX_STALL_MS * deps.clockSpeed,
    ...(deps.inboxProgressAtMs === undefined ? {} : { inboxProgressAtMs: deps.inboxProgressAtMs }),
    ...(deps.serviceDegraded === undefined ? {} : { serviceDegraded: deps.serviceDegraded }),
    ...(deps.equityLossRates === undefined ? {} : { equityLossRates: deps.equityLossRates }),
  });

  const reloader =
    deps.reload === undefined
      ? undefined
      : new HotReloader({
          strategyFiles: deps.reload.strategyFiles,
          configFile: deps.reload.configFile,
          ...(deps.reload.configSchema === undefined ? {} : { configSchema: deps.reload.configSchema }),
          initial: { strategies: deps.strategies(), limits: deps.limits() },
          log: log.child({ component: 'reload' }),
          onChange: deps.reload.apply,
        });

  // Says which clock its times are in (Telegram's /status prints it, as `lendbot status` does).
  const realClock = deps.realClock ?? systemClock;
  const status = () =>
    buildStatusReport({
      store,
      nowMs: clock.now(),
      limits: deps.limits(),
      budgets: budgets(),
      dryRun: deps.dryRun,
      clock: statusClock(store.state, realClock.now()).clock,
      // Telegram's /status has the equity line `lendbot status` prints.
      ...(deps.equityLossRates === undefined ? {} : { equityLossRates: deps.equityLossRates }),
    });
  const notifier = notifierFromConfig(deps.notifications, deps.env, { clock, log: log.child({ component: 'notify' }) });
  const jobs: Job[] = [];
  // `lendbot status` reads the database in the clock it was written in (status-clock.ts).
  const clockRecorder = new ClockRecorder(store.state, clock, systemClock, deps.clockSpeed);
  const recordClock = (stopped = false): void => {
    try {
      clockRecorder.record(stopped);
    } catch (error) {
      log.warn({ err: error }, 'could not record the clock for lendbot status');
    }
  };
  if (clockRecorder.kind === 'simulated') jobs.push({ name: 'clock', schedule: CLOCK_RECORD_SCHEDULE, run: async () => recordClock() });
  // The idle-cash series and alert: recorded with or without notifications (status and the dashboard show them).
  // On a sped-up clock (the sandbox) the alert also waits its hours on the machine's clock (idle-cash-alert.ts).
  const idleCash = new IdleCashWatch({
    store,
    clock,
    ...(deps.clockSpeed > 1 ? { wallClock: realClock } : {}),
    log: log.child({ component: 'idle-cash' }),
    limits: deps.limits,
    dryRun: deps.dryRun,
    notify: (event, data) => void notifier?.notify(event, data),
  });
  jobs.push({ name: 'idle-cash', schedule: idleCashSchedule(deps.clockSpeed), run: async () => idleCash.check() });
  let onCrash: ((error: unknown) => void) | undefined;
  if (notifier !== undefined) {
    const watcher = new NotificationWatcher({
      store,
      clock,
      notifier,
      status,
      ...(deps.notifications === undefined ? {} : { budgetWarningShare: deps.notifications.budget_warning_share }),
    });
    jobs.push({ name: 'notify', schedule: deps.notifySchedule ?? '* * * * *', run: () => watcher.check() });
    onCrash = (error) => {
      void notifier.notify('daemon_error', { message: error instanceof Error ? error.message : String(error) });
    };
  }
  const noEarnings = (): EarningsSeries => ({ interest: [], losses: [] });
  const figures = storeDigestFigures({ store, limits: deps.limits, dryRun: deps.dryRun, earnings: deps.earnings ?? noEarnings });
  const every = deps.notifications?.digest ?? 'off';
  if (notifier !== undefined && every !== 'off') {
    const digest = new DigestSender({ every, state: store.state, clock, figures, notify: (event, data) => notifier.notify(event, data) });
    jobs.push({ name: 'digest', schedule: deps.notifySchedule ?? '* * * * *', run: () => digest.check() });
  }
  const commands =
    deps.protections === undefined
      ? undefined
      : telegramCommandsFromConfig(deps.notifications, deps.env, {
          actions: {
            status,
            figures,
            nowMs: () => clock.now(),
            protections: deps.protections,
            proposals: deps.proposals,
          },
          state: store.state,
          realClock,
          log: log.child({ component: 'telegram-commands' }),
        });

  return {
    metrics,
    jobs,
    notify(event, data) {
      void notifier?.notify(event, data);
    },
    async start() {
      recordClock();
      await reloader?.start();
      commands?.start();
      if (onCrash) {
        process.on('uncaughtException', onCrash);
        process.on('unhandledRejection', onCrash);
      }
    },
    stop() {
      recordClock(true);
      reloader?.stop();
      // Aborts the long poll in flight; the loop ends at once.
      void commands?.stop();
      if (onCrash) {
        process.off('uncaughtException', onCrash);
        process.off('unhandledRejection', onCrash);
      }
    },
  };
}
