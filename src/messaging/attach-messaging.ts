/**
 * Messaging, attached to the daemon's built parts in one call as operations are
 * (src/ops/attach-ops.ts, attachOps): the outward surfaces over the status report, as freqtrade's
 * `rpc/`. The notification check (offers, loans, payments, proposals, the daily summary), the
 * digest, Telegram's commands and the crash notice. Every figure they show comes from the one
 * status report (src/ops/daemon-status.ts, daemonStatus); what they read of the store besides
 * are the events themselves, each behind its own cursor.
 *
 * The notifier is built here and handed to the daemon's notice relay (src/daemon/notice-relay.ts),
 * which the parts built first (the protections, the service health) send through. Leaving this
 * call out, or `notifications:` off, leaves the daemon deciding and placing as before
 * (test/daemon/messaging-left-out.test.ts).
 */
import { sleepNotHoldingExit, systemClock, type Clock, type Sleep } from '../clock/clock.js';
import type { Job } from '../clock/scheduler.js';
import type { Logger } from '../log/logger.js';
import { daemonStatus, type DaemonStatusParts } from '../ops/daemon-status.js';
import { paceLimits } from './chat-pace/chat-pace-config.js';
import { pacedNotifier } from './chat-pace/paced-notifier.js';
import { SendWindows } from './chat-pace/send-windows.js';
import { storeDigestFigures, type EarningsSeries } from './digest/digest-figures.js';
import { DigestSender } from './digest/digest-sender.js';
import { NotificationWatcher, type NotificationSink } from './notification-watcher.js';
import { notificationsSchema, type NotificationsConfig } from './notifications-config.js';
import { notifierFromConfig } from './notifier.js';
import type { OperatorPause, ProposalDecider } from './telegram-commands/telegram-command-replies.js';
import { telegramCommandsFromConfig } from './telegram-commands/telegram-commands-setup.js';

/** What messaging reads of the daemon's built parts (src/daemon/daemon-parts.ts, DaemonParts). */
export interface MessagingParts extends DaemonStatusParts {
  config: { notifications?: NotificationsConfig | undefined };
  env: Record<string, string | undefined>;
  log: Logger;
  /**
   * `speed`: simulated seconds per real second (the sandbox's speed), 1 for live. `chatPace`: the
   * time chat messages are paced on (default the system clock and real waits): Telegram's limits are real seconds.
   */
  clocks: DaemonStatusParts['clocks'] & { market: Clock; speed: number; chatPace?: { clock: Clock; sleep: Sleep } | undefined };
  /** `notices`: where the parts built before messaging send theirs, pointed at the notifier here; Telegram's /pause and /resume go through the protections. */
  instruments: { notices: { sendTo(sink: NotificationSink | undefined): void }; protections: OperatorPause };
  /** The returns series (interest, losses) up to a time, for the digest and /profit. */
  returns: DaemonStatusParts['returns'] & { earnings: (nowMs: number) => EarningsSeries };
  /** Telegram's /approve and /reject, as `lendbot approve` decides; absent without the proposals wing (src/proposals/). */
  proposals?: ProposalDecider | undefined;
}

export interface Messaging {
  /** Jobs to schedule with the daemon's (notify, digest). */
  jobs: Job[];
  start(): void;
  stop(): void;
}

/** Cron schedule of the notification check and the digest. */
const NOTIFY_SCHEDULE = '* * * * *';

export function attachMessaging(parts: MessagingParts): Messaging {
  const { store, log } = parts;
  const { market: clock, speed: clockSpeed, real: realClock } = parts.clocks;
  const notifications = parts.config.notifications;
  const pace = (notifications ?? notificationsSchema.parse({})).pace;
  // Each chat's send window: Telegram's answers take their turn beside the notifications.
  const chatWindows = new SendWindows({
    limits: paceLimits(pace),
    clock: systemClock,
    sleep: sleepNotHoldingExit,
    ...parts.clocks.chatPace,
  });
  const notifier = pacedNotifier(
    notifierFromConfig(notifications, parts.env, { clock, log: log.child({ component: 'notify' }) }),
    pace,
    chatWindows,
    log.child({ component: 'notify' }),
  );
  parts.instruments.notices.sendTo(notifier);
  const statusAt = daemonStatus(parts);
  const status = () => statusAt(clock.now());
  const jobs: Job[] = [];
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
  const figures = storeDigestFigures({ store, status: statusAt, earnings: parts.returns.earnings });
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
      ...(clockSpeed > 1 ? { maxCatchUp: 1 } : {}),
    });
    jobs.push({ name: 'digest', schedule: NOTIFY_SCHEDULE, run: () => digest.check() });
  }
  const commands = telegramCommandsFromConfig(notifications, parts.env, {
    actions: { status, figures, nowMs: () => clock.now(), protections: parts.instruments.protections, proposals: parts.proposals },
    state: store.state,
    updates: store.telegramUpdates,
    realClock,
    log: log.child({ component: 'telegram-commands' }),
    windows: chatWindows,
  });

  return {
    jobs,
    start() {
      commands?.start();
      if (onCrash) {
        process.on('uncaughtException', onCrash);
        process.on('unhandledRejection', onCrash);
      }
    },
    stop() {
      // Aborts the long poll in flight; the loop ends at once.
      void commands?.stop();
      if (onCrash) {
        process.off('uncaughtException', onCrash);
        process.off('unhandledRejection', onCrash);
      }
    },
  };
}
