/**
 * Everything operational, attached to the daemon's built parts in one call (the fastify plugin and
 * probot `app.load` idiom): health on the webhook listener, the pipeline's metrics and the scrape
 * the operator listener serves, hot reload of the strategies and the `risk:` section, the idle-cash
 * watch, outbound notifications and Telegram's commands, and a terminal's summary line.
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
import type { LossRates } from './equity.js';
import type { Store } from '../store/index.js';
import type { z } from 'zod';
import { attachHealthAndMetrics } from './health-metrics.js';
import { DEFAULT_MAX_INBOX_STALL_MS, DEFAULT_MAX_POLL_AGE_MS } from './health.js';
import { HotReloader, type ActiveConfig } from './hot-reload.js';
import { idleCashSchedule, IdleCashWatch } from './idle-cash-alert.js';
import type { LendbotMetrics } from './metrics.js';
import { NotificationWatcher, type NotificationSink } from './notification-watcher.js';
import type { NotificationsConfig } from './notifications-config.js';
import type { DecisionFeed } from './instrument.js';
import type { MetricsScrape, OpsApp } from './ops-routes.js';
import type { ServiceDegraded } from './service-health.js';
import { CLOCK_RECORD_SCHEDULE, ClockRecorder, statusClock } from './status-clock.js';
import { buildStatusReport, type StrategyBudget } from './status-report.js';
import { terminalSummaryJobs } from './terminal-summary.js';
import { storeDigestFigures, type EarningsSeries } from './digest/digest-figures.js';
import { DigestSender } from './digest/digest-sender.js';
import type { SendWindows } from './chat-pace/send-windows.js';
import type { Protections } from './protections/index.js';
import type { ProposalDecider } from './telegram-commands/telegram-command-replies.js';
import { telegramCommandsFromConfig } from './telegram-commands/telegram-commands-setup.js';

/** What operations read of the daemon's built parts (src/daemon/daemon-parts.ts, DaemonParts). */
export interface OpsParts {
  config: { notifications?: NotificationsConfig | undefined; poll: { failures_before_degraded: number } };
  env: Record<string, string | undefined>;
  log: Logger;
  store: Store;
  clock: Clock;
  /** Real time, for Telegram messages' dates and back-off, and for the status's clock. */
  realClock: Clock;
  /** Simulated seconds per real second (the sandbox's speed); 1 for live. Scales the health limits. */
  clockSpeed: number;
  dryRun: boolean;
  strategies: () => readonly CompiledStrategy[];
  limits: () => RiskLimits;
  /** The marketplace-facing listener, before it listens: `/healthz` is added to it. */
  webhook: OpsApp;
  metrics: LendbotMetrics;
  pipeline: DecisionFeed;
  /** When the inbox worker last processed an event (the clock's ms), for `/healthz`'s inbox check. */
  inbox: { readonly lastProgressAtMs: number | undefined };
  /** The marketplace's refusal of our credentials or clock, for `/healthz`. */
  serviceHealth: { current(): ServiceDegraded | undefined };
  /** The polls failed in a row, for `/healthz`. */
  poller: { failedPolls(): { inRow: number; reason: string; sinceMs: number } | undefined };
  /** Outbound notifications; undefined when they are off. */
  notifier: NotificationSink | undefined;
  /** Each chat's send window (chat-pace/send-windows.ts): Telegram's answers take their turn beside the notifications. */
  chatWindows?: SendWindows | undefined;
  /** Hot reload: the files to watch and how to swap a validated change in; undefined turns it off. */
  reload:
    | {
        strategyFiles: readonly string[];
        configFile?: string | undefined;
        configSchema?: z.ZodType<{ risk: RiskLimits }>;
        apply: (next: ActiveConfig) => Promise<void>;
      }
    | undefined;
  /** The config's expected-loss shares, for equity in /metrics and the status. */
  lossRates: LossRates;
  /** The returns series (interest, losses) up to a time, for the digest and /profit. */
  earnings: (nowMs: number) => EarningsSeries;
  /** Telegram's /pause and /resume go through these. */
  protections: Pick<Protections, 'activePause' | 'pauseByOperator' | 'resume'>;
  /** Telegram's /approve and /reject, as `lendbot approve` decides. */
  proposals: ProposalDecider;
}

export interface Operations {
  /** The Prometheus scrape the operator listener serves at GET /metrics. */
  metrics: MetricsScrape;
  /** Jobs to schedule with the daemon's once started (the summary line counts from the start). */
  jobs(): Job[];
  start(): Promise<void>;
  stop(): void;
}

/** Cron schedule of the notification check and the digest. */
const NOTIFY_SCHEDULE = '* * * * *';

export function attachOps(parts: OpsParts): Operations {
  const { store, clock, log, notifier } = parts;
  const budgets = (): StrategyBudget[] =>
    parts.strategies().map((strategy) => ({ strategy: strategy.name, monthlyBudgetCents: strategy.dataPolicy.monthlyBudgetCents }));
  const { metrics } = attachHealthAndMetrics({
    log,
    app: parts.webhook,
    metrics: parts.metrics,
    store,
    clock,
    pipeline: parts.pipeline,
    limits: parts.limits,
    budgets,
    dryRun: parts.dryRun,
    maxPollAgeMs: DEFAULT_MAX_POLL_AGE_MS * parts.clockSpeed,
    maxInboxStallMs: DEFAULT_MAX_INBOX_STALL_MS * parts.clockSpeed,
    inboxProgressAtMs: () => parts.inbox.lastProgressAtMs,
    serviceDegraded: () => parts.serviceHealth.current(),
    pollFailures: { current: () => parts.poller.failedPolls(), max: parts.config.poll.failures_before_degraded },
    equityLossRates: parts.lossRates,
  });

  const reload = parts.reload;
  const reloader =
    reload === undefined
      ? undefined
      : new HotReloader({
          strategyFiles: reload.strategyFiles,
          configFile: reload.configFile,
          ...(reload.configSchema === undefined ? {} : { configSchema: reload.configSchema }),
          initial: { strategies: parts.strategies(), limits: parts.limits() },
          log: log.child({ component: 'reload' }),
          onChange: reload.apply,
        });

  // Says which clock its times are in (Telegram's /status prints it, as `lendbot status` does).
  const { realClock } = parts;
  // The one status report of every surface here: Telegram's /status, /profit and the digest's
  // idle cash, the daily summary (issue 36, item 5: /status and /profit once disagreed).
  const statusAt = (nowMs: number) =>
    buildStatusReport({
      store,
      nowMs,
      limits: parts.limits(),
      budgets: budgets(),
      dryRun: parts.dryRun,
      clock: statusClock(store.state, realClock.now()).clock,
      // Telegram's /status has the equity line `lendbot status` prints.
      equityLossRates: parts.lossRates,
    });
  const status = () => statusAt(clock.now());
  const jobs: Job[] = [];
  // `lendbot status` reads the database in the clock it was written in (status-clock.ts).
  const clockRecorder = new ClockRecorder(store.state, clock, systemClock, parts.clockSpeed);
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
    ...(parts.clockSpeed > 1 ? { wallClock: realClock } : {}),
    log: log.child({ component: 'idle-cash' }),
    limits: parts.limits,
    dryRun: parts.dryRun,
    notify: (event, data) => void notifier?.notify(event, data),
  });
  jobs.push({ name: 'idle-cash', schedule: idleCashSchedule(parts.clockSpeed), run: async () => idleCash.check() });
  const notifications = parts.config.notifications;
  let onCrash: ((error: unknown) => void) | undefined;
  if (notifier !== undefined) {
    const watcher = new NotificationWatcher({
      store,
      clock,
      notifier,
      status,
      ...(notifications === undefined ? {} : { budgetWarningShare: notifications.budget_warning_share }),
    });
    jobs.push({ name: 'notify', schedule: NOTIFY_SCHEDULE, run: () => watcher.check() });
    onCrash = (error) => {
      void notifier.notify('daemon_error', { message: error instanceof Error ? error.message : String(error) });
    };
  }
  const figures = storeDigestFigures({ store, status: statusAt, earnings: parts.earnings });
  const every = notifications?.digest ?? 'off';
  if (notifier !== undefined && every !== 'off') {
    const digest = new DigestSender({
      every,
      state: store.state,
      clock,
      figures,
      // Told only once delivered: a chat's outbox answers `notify` when it queues.
      notify: (event, data) => (notifier.notifyDelivered ?? notifier.notify).call(notifier, event, data),
      // A sped-up clock passes days in seconds: one digest a check, not a burst of them.
      ...(parts.clockSpeed > 1 ? { maxCatchUp: 1 } : {}),
    });
    jobs.push({ name: 'digest', schedule: NOTIFY_SCHEDULE, run: () => digest.check() });
  }
  const commands = telegramCommandsFromConfig(notifications, parts.env, {
    actions: { status, figures, nowMs: () => clock.now(), protections: parts.protections, proposals: parts.proposals },
    state: store.state,
    updates: store.telegramUpdates,
    realClock,
    log: log.child({ component: 'telegram-commands' }),
    windows: parts.chatWindows,
  });
  // On a terminal, a summary line a minute, counting from the start (terminal-summary.ts).
  let summaryJobs: Job[] = [];

  return {
    metrics,
    jobs: () => [...jobs, ...summaryJobs],
    async start() {
      summaryJobs = terminalSummaryJobs({
        store,
        clock,
        limits: parts.limits,
        dryRun: parts.dryRun,
        log: log.child({ component: 'summary' }),
      });
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
