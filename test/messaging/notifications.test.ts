import { databaseOf } from '../../src/store/index.js';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/clock.js';
import { NotificationWatcher } from '../../src/messaging/notification-watcher.js';
import { notifierFromConfig, WebhookNotifier } from '../../src/messaging/notifier.js';
import { notificationsSchema } from '../../src/messaging/notifications-config.js';
import { buildStatusReport } from '../../src/ops/status-report.js';
import { DEFAULT_RISK_LIMITS } from '../../src/risk/index.js';
import { tempStore } from '../store/fixtures.js';
import { captureLog } from '../log/log-capture.js';
import { seedStatusData } from '../ops/status-fixtures.js';

/** A receiver that answers with the next status of `answers` (then 200) and keeps every body. */
let server: Server;
let url: string;
let bodies: Array<Record<string, unknown>>;
let answers: number[];
let logs: Array<Record<string, unknown>>;
const clock = new ManualClock('2026-03-10T12:00:00.000Z');
const captured = captureLog('debug');
const log = captured.log;

beforeEach(async () => {
  bodies = [];
  answers = [];
  captured.lines.length = 0;
  logs = captured.lines;
  server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    request.on('end', () => {
      bodies.push(JSON.parse(text) as Record<string, unknown>);
      response.writeHead(answers.shift() ?? 200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
});
afterEach(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe('webhook notifier', () => {
  it('POSTs the event as JSON, retrying a 503', async () => {
    answers = [503];
    const notifier = new WebhookNotifier({ url, clock, log, retryDelayMs: 1 });
    expect(await notifier.notify('offer_placed', { loan_request_id: 7 })).toBe('sent');
    const body = { event: 'offer_placed', at: '2026-03-10T12:00:00.000Z', app: 'lendbot', data: { loan_request_id: 7 } };
    expect(bodies).toEqual([body, body]);
  });

  it('gives up after its retries, logs it and never throws', async () => {
    answers = [500, 500, 500];
    const notifier = new WebhookNotifier({ url, clock, log, retries: 2, retryDelayMs: 1 });
    expect(await notifier.notify('daemon_error', { message: 'boom' })).toBe('failed');
    expect(bodies).toHaveLength(3);
    expect(logs.at(-1)).toMatchObject({ level: 40, msg: 'notification not delivered', event: 'daemon_error', status: 500 });
  });

  it('sends nothing for an event turned off, and needs a URL to exist', async () => {
    const config = notificationsSchema.parse({ events: { daily_summary: false } });
    expect(notifierFromConfig(config, {}, { clock, log })).toBeUndefined();
    const notifier = notifierFromConfig(config, { LENDBOT_NOTIFY_URL: url }, { clock, log })!;
    expect(await notifier.notify('daily_summary', {})).toBe('disabled');
    expect(bodies).toEqual([]);
  });
});

describe('notification watcher', () => {
  it('notifies new offers, defaulted loans, a budget nearly spent and one summary a day', async () => {
    const h = tempStore();
    try {
      const now = new ManualClock('2026-03-10T12:00:00.000Z');
      seedStatusData(h.store, { decisions: 30, nowMs: now.now() });
      const watcher = new NotificationWatcher({
        store: h.store,
        clock: now,
        notifier: new WebhookNotifier({ url, clock: now, log }),
        status: () =>
          buildStatusReport({
            store: h.store,
            nowMs: now.now(),
            limits: DEFAULT_RISK_LIMITS,
            budgets: [{ strategy: 'balanced', monthlyBudgetCents: 450 }],
            dryRun: false,
          }),
      });
      // The first check takes a baseline: history is not news. The seeded spend (4.00 of 4.50) is.
      expect(await watcher.check()).toBe(1);
      expect(bodies.map((body) => body.event)).toEqual(['budget_nearly_spent']);
      expect(bodies[0]!.data).toEqual({ strategy: 'balanced', spent_cents: 400, monthly_budget_cents: 450 });

      now.advance(60_000);
      databaseOf(h.store)
        .prepare("UPDATE offers SET state = 'funded', updated_at = ? WHERE loan_request_id = 2000000001")
        .run(new Date(now.now()).toISOString());
      databaseOf(h.store).prepare("UPDATE loans SET list_status = 'default' WHERE id = 4").run();
      expect(await watcher.check()).toBe(2);
      expect(bodies.slice(1).map((body) => [body.event, body.data])).toEqual([
        ['offer_funded', { loan_request_id: 2_000_000_001, rate: 0.2, total_amount_cents: 52_000, risk_level: 1 }],
        ['loan_defaulted', { loan_id: 4 }],
      ]);
      expect(await watcher.check()).toBe(0);

      now.advance(24 * 3_600_000);
      expect(await watcher.check()).toBe(1);
      expect(bodies.at(-1)).toMatchObject({
        event: 'daily_summary',
        data: { balance_cents: 330_000, loans_by_status: { completed: 1, current: 2, default: 1 } },
      });
    } finally {
      h.cleanup();
    }
  });
});
