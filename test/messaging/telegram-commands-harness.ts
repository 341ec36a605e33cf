/**
 * The Telegram command poller as the daemon wires it (telegramCommandsFromConfig), on a real
 * store, against the fixture Bot API (telegram-bot-fixture.ts), with the actions the daemon
 * gives it: status, the digest's figures, the protections and proposals' decisions.
 */
import type { Clock } from '../../src/clock/clock.js';
import { systemClock } from '../../src/clock/clock.js';
import type { Logger } from '../../src/log/logger.js';
import type { SendWindows } from '../../src/messaging/chat-pace/send-windows.js';
import { approveProposal, rejectProposal } from '../../src/proposals/index.js';
import { storeDigestFigures } from '../../src/messaging/digest/digest-figures.js';
import { notificationsSchema } from '../../src/messaging/notifications-config.js';
import { Protections, protectionSettingsSchema } from '../../src/ops/protections/index.js';
import { buildStatusReport } from '../../src/ops/status-report.js';
import type { TelegramCommandPoller } from '../../src/messaging/telegram-commands/telegram-command-poller.js';
import { telegramCommandsFromConfig } from '../../src/messaging/telegram-commands/telegram-commands-setup.js';
import { DEFAULT_RISK_LIMITS } from '../../src/risk/index.js';
import type { Store } from '../../src/store/index.js';
import { BOT_TOKEN, type BotFixture } from './telegram-bot-fixture.js';

/** The lender's chat, allowed by LENDBOT_TELEGRAM_CHAT_ID. */
export const LENDER = 424242;
export const COMMANDS_ENV = { LENDBOT_TELEGRAM_BOT_TOKEN: BOT_TOKEN, LENDBOT_TELEGRAM_CHAT_ID: String(LENDER) };

/** Starts a poller (telegram_commands `commands` over the defaults, a 1 s long poll). */
export function startCommandPoller(options: {
  store: Store;
  bot: BotFixture;
  log: Logger;
  /** The run's clock (the status report's, the pause's). */
  clock: Clock;
  commands?: Record<string, unknown>;
  /** The chats' send windows the answers take their turn in (shared with the notifications). */
  windows?: SendWindows;
}): TelegramCommandPoller {
  const { store, bot, log, clock } = options;
  const section = notificationsSchema.parse({
    format: 'telegram',
    telegram_api_url: bot.origin,
    telegram_commands: { enabled: true, poll_timeout_seconds: 1, ...options.commands },
  });
  const limits = () => DEFAULT_RISK_LIMITS;
  const protections = new Protections({ store, clock, log, settings: () => protectionSettingsSchema.parse({}) });
  // One status report for /status and /profit, as attach-ops.ts wires them.
  const statusAt = (nowMs: number) => buildStatusReport({ store, nowMs, limits: limits(), budgets: [], dryRun: false });
  const started = telegramCommandsFromConfig(section, COMMANDS_ENV, {
    windows: options.windows,
    actions: {
      status: () => statusAt(clock.now()),
      figures: storeDigestFigures({
        store,
        status: statusAt,
        earnings: () => ({ interest: [{ at: '2026-03-01T00:00:00.000Z', cents: 1234 }], losses: [] }),
      }),
      nowMs: () => clock.now(),
      protections,
      proposals: {
        approve: (id, by) => approveProposal({ store, clock: systemClock }, id, by),
        reject: (id, by) => rejectProposal({ store, clock: systemClock }, id, by),
      },
    },
    state: store.state,
    updates: store.telegramUpdates,
    realClock: systemClock,
    log,
  });
  if (started === undefined) throw new Error('expected the commands to be on');
  started.start();
  return started;
}
