// A run of validly signed webhooks refused for their shape raises a warning in /healthz and
// `lendbot status`, and one notification; an event stored again ends it.
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/log/logger.js';
import { checkHealth } from '../../src/ops/health.js';
import { NotificationWatcher } from '../../src/messaging/notification-watcher.js';
import { WebhookNotifier } from '../../src/messaging/notifier.js';
import { buildStatusReport } from '../../src/ops/status-report.js';
import { formatStatusText, statusJson } from '../../src/ops/status-text.js';
import { riskLimitsSchema } from '../../src/risk/index.js';
import { buildWebhookServer, REFUSAL_WARNING_KEY, storedRefusalWarning } from '../../src/webhook/index.js';
import { startNotificationReceiver, type NotificationReceiver } from '../messaging/notification-receiver.js';
import {
  DATA,
  SECRET,
  TOPIC,
  dataLayoutBody,
  eventClaims,
  signToken,
  startListener,
  tokenBody,
  type Harness,
  type ListenerOptions,
} from './webhook-fixtures.js';

const MINUTE = 60_000;
const ENVELOPE_PINNED_MESSAGE =
  'token claims are not the envelope layout (webhook_uuid, topic and data are not all claims) and webhook.token_layout is envelope; auto reads both';

let h: Harness;
let receiver: NotificationReceiver | undefined;
async function listen(options: ListenerOptions = {}): Promise<Harness> {
  h = await startListener(options);
  return h;
}
afterEach(async () => {
  await h.close();
  await receiver?.close();
  receiver = undefined;
});

/** A genuine data-layout delivery that a listener pinned to envelope refuses (400 layout_mismatch). */
async function refusedGenuine(uuidSuffix: number): Promise<void> {
  const answer = await h.post(
    await dataLayoutBody({
      uuid: `6f1d2c3b-4a59-4e68-9d7c-00000000000${uuidSuffix}`,
      data: { ...DATA, loan_request_id: 3000 + uuidSuffix },
    }),
  );
  expect(answer).toMatchObject({ status: 400, body: { code: 'layout_mismatch' } });
}

function health() {
  return checkHealth({ store: h.store, clock: h.clock, startedAtMs: h.clock.now() });
}

function status() {
  return buildStatusReport({ store: h.store, nowMs: h.clock.now(), limits: riskLimitsSchema.parse({}), budgets: [], dryRun: false });
}

describe('the refused-webhooks warning', () => {
  it('is raised by the third genuine-looking refusal within 10 minutes, in /healthz and lendbot status', async () => {
    await listen({ tokenLayout: 'envelope' });
    await refusedGenuine(1);
    h.clock.advance(4 * MINUTE);
    await refusedGenuine(2);
    expect(storedRefusalWarning(h.store.state)).toBeUndefined();
    expect(health().status).toBe('ok');
    expect(health().checks.webhook).toEqual({ ok: true });
    h.clock.advance(4 * MINUTE);
    await refusedGenuine(3);

    const since = '2026-03-10T12:08:00.000Z';
    const warning = `3 validly signed webhooks refused since ${since} (last: layout_mismatch: ${ENVELOPE_PINNED_MESSAGE}); check webhook.token_layout (now envelope) and docs/webhooks.md`;
    const report = health();
    expect(report.status).toBe('degraded');
    expect(report.checks.webhook).toEqual({ ok: false, warning, since, refused: 3 });
    expect(statusJson(status()).webhook_refusals).toEqual({ since, refused: 3, warning });
    const line = formatStatusText(status())
      .split('\n')
      .find((text) => text.startsWith('webhook tokens'));
    expect(line?.replace(/^webhook tokens +/, '')).toBe(`REFUSED: ${warning}`);
    expect(h.outcomeLines().filter((line) => line['msg'] === 'webhook refused')).toHaveLength(3);
    expect(h.logText()).toContain('validly signed webhooks keep being refused: the token layout may be misread');

    // Further refusals are counted into the same warning.
    h.clock.advance(30 * MINUTE);
    await refusedGenuine(4);
    expect(health().checks.webhook).toMatchObject({ ok: false, since, refused: 4 });
  });

  it('is not raised by refusals spread wider than the window, nor by forged, expired or unsigned deliveries', async () => {
    await listen({ tokenLayout: 'envelope' });
    await refusedGenuine(1);
    await refusedGenuine(2);
    h.clock.advance(10 * MINUTE);
    await refusedGenuine(3);
    for (let i = 0; i < 5; i++) {
      expect((await h.post(await dataLayoutBody({ secret: 'not-the-secret' }))).status).toBe(401);
      expect(await h.post(tokenBody(await signToken(eventClaims({ exp: Math.floor(h.clock.now() / 1000) - 3600 }))))).toMatchObject({
        status: 401,
      });
      expect((await h.post('{"token": 3}')).status).toBe(400);
    }
    expect(storedRefusalWarning(h.store.state)).toBeUndefined();
    expect(health().status).toBe('ok');
    // The window slides: the third, a fourth and a fifth within 10 minutes raise it.
    h.clock.advance(MINUTE);
    await refusedGenuine(4);
    expect(storedRefusalWarning(h.store.state)).toBeUndefined();
    h.clock.advance(MINUTE);
    await refusedGenuine(5);
    expect(storedRefusalWarning(h.store.state)).toMatchObject({ refused: 3, sinceMs: h.clock.now() });
  }, 30_000);

  it('counts a topic header that disagrees with a genuine token, and honours a configured threshold', async () => {
    await listen({ warnAfter: { refusals: 2, windowMs: MINUTE } });
    const token = await signToken(eventClaims());
    for (const topic of ['loan_funded', 'offer_accepted']) {
      expect((await h.post(tokenBody(token), { 'content-type': 'application/json', 'x-svc-topic': topic })).status).toBe(400);
    }
    expect(storedRefusalWarning(h.store.state)).toMatchObject({ refused: 2, lastCode: 'topic_mismatch', layout: 'auto' });
  });

  it('sends one webhooks_refused notification per warning, restarts included', async () => {
    await listen({ tokenLayout: 'envelope' });
    receiver = await startNotificationReceiver();
    const notifier = new WebhookNotifier({ url: receiver.url, retries: 0, clock: h.clock, log: silentLogger });
    const watcher = () => new NotificationWatcher({ store: h.store, clock: h.clock, notifier, status });
    const first = watcher();
    expect(await first.check()).toBe(0);
    for (const n of [1, 2, 3]) await refusedGenuine(n);
    expect(await first.check()).toBe(1);
    expect(receiver.received.filter((body) => body.event === 'webhooks_refused')).toEqual([
      {
        event: 'webhooks_refused',
        at: '2026-03-10T12:00:00.000Z',
        app: 'lendbot',
        data: {
          refused: 3,
          since: '2026-03-10T12:00:00.000Z',
          last_code: 'layout_mismatch',
          last_message: ENVELOPE_PINNED_MESSAGE,
          token_layout: 'envelope',
          message: expect.stringContaining('3 validly signed webhooks refused since 2026-03-10T12:00:00.000Z'),
        },
      },
    ]);
    await refusedGenuine(4);
    expect(await first.check()).toBe(0);
    expect(await watcher().check()).toBe(0);
    expect(receiver.received.filter((body) => body.event === 'webhooks_refused')).toHaveLength(1);
  });

  it('ends when an event is stored again, and a new run raises (and notifies) a new one', async () => {
    await listen({ tokenLayout: 'envelope' });
    for (const n of [1, 2, 3]) await refusedGenuine(n);
    expect(health().status).toBe('degraded');
    h.clock.advance(MINUTE);
    expect(await h.post(tokenBody(await signToken(eventClaims())))).toEqual({ status: 200, body: { status: 'accepted' } });
    expect(h.store.state.get(REFUSAL_WARNING_KEY)).toBe('null');
    expect(health()).toMatchObject({ status: 'ok', checks: { webhook: { ok: true } } });
    expect(status().webhookRefusals).toBeNull();
    expect(formatStatusText(status())).not.toContain('webhook tokens');
    expect(h.logText()).toContain('a webhook was stored again: the refused-webhooks warning ended');

    // The earlier refusals do not count towards the next warning.
    await refusedGenuine(4);
    await refusedGenuine(5);
    expect(storedRefusalWarning(h.store.state)).toBeUndefined();
    await refusedGenuine(6);
    expect(storedRefusalWarning(h.store.state)).toMatchObject({ sinceMs: h.clock.now(), refused: 3 });
  });

  it('is kept across a restart of the listener, until an event is stored', async () => {
    await listen({ tokenLayout: 'envelope' });
    for (const n of [1, 2, 3]) await refusedGenuine(n);
    const { store } = h;
    // A new listener on the same store, reading both layouts: as after a restart with the setting fixed.
    const again = buildWebhookServer({
      secret: SECRET,
      inbox: store.inbox,
      clock: h.clock,
      log: silentLogger,
      refusalWarning: { state: store.state },
    });
    const address = await again.listen({ port: 0, host: '127.0.0.1' });
    try {
      expect(storedRefusalWarning(store.state)).toMatchObject({ refused: 3 });
      const response = await fetch(`${address}/webhooks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-svc-topic': TOPIC },
        body: await dataLayoutBody(),
      });
      expect(response.status).toBe(200);
      expect(storedRefusalWarning(store.state)).toBeUndefined();
    } finally {
      await again.close();
    }
  });
});
