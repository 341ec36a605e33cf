/**
 * The order of things for an accepted delivery: committed to the inbox, then the pipeline woken
 * (so its first marketplace call is not held up by writing the answer), then the 200. A 200 must
 * never come before the commit.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/clock.js';
import { silentLogger } from '../../src/log/logger.js';
import { buildWebhookServer, type WebhookServer } from '../../src/webhook/index.js';
import { T0, tempStore } from '../store/fixtures.js';
import { eventClaims, SECRET, signToken, TOPIC, tokenBody, UUID } from './webhook-fixtures.js';

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function listen(
  onStored: () => void,
  steps: string[],
  before: (server: WebhookServer) => void = () => undefined,
): Promise<{ server: WebhookServer; url: string; store: ReturnType<typeof tempStore>['store'] }> {
  const { store, cleanup } = tempStore();
  const server = buildWebhookServer({
    secret: SECRET,
    inbox: store.inbox,
    clock: new ManualClock(T0),
    log: silentLogger,
    worker: { wake: onStored },
  });
  before(server);
  server.addHook('onSend', async (_request, reply, payload) => {
    steps.push(`answer ${reply.statusCode}`);
    return payload;
  });
  const url = `${await server.listen({ port: 0, host: '127.0.0.1' })}/webhooks`;
  close = async () => {
    await server.close();
    cleanup();
  };
  return { server, url, store };
}

const post = (url: string, body: string): Promise<Response> =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-svc-topic': TOPIC }, body });

describe('webhook listener: order of commit, wake-up and answer', () => {
  it('wakes the pipeline with the event committed, and answers 200 after that', async () => {
    const steps: string[] = [];
    let inInbox: boolean | undefined;
    const { url, store } = await listen(() => {
      inInbox = store.inbox.get(UUID) !== undefined;
      steps.push('woken');
    }, steps);
    const response = await post(url, tokenBody(await signToken(eventClaims())));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'accepted' });
    expect(inInbox).toBe(true);
    expect(steps).toEqual(['woken', 'answer 200']);
  });

  it('still answers 200 when waking the pipeline throws: the event is stored', async () => {
    const steps: string[] = [];
    const { url, store } = await listen(() => {
      throw new Error('wake-up failed');
    }, steps);
    const response = await post(url, tokenBody(await signToken(eventClaims())));
    expect(response.status).toBe(200);
    expect(store.inbox.get(UUID)).toMatchObject({ webhookUuid: UUID, processedAt: null });
  });

  it('answers a duplicate at once, without waking the pipeline again', async () => {
    const steps: string[] = [];
    const { url } = await listen(() => steps.push('woken'), steps);
    const body = tokenBody(await signToken(eventClaims()));
    expect((await post(url, body)).status).toBe(200);
    expect((await post(url, body)).status).toBe(200);
    expect(steps).toEqual(['woken', 'answer 200', 'answer 200']);
  });

  it('lets a shutdown wait for a delivery let in just before it turned to 503: settled() resolves once the event is stored', async () => {
    const steps: string[] = [];
    let settled: Promise<void> | undefined;
    let storedWhenSettled: boolean | undefined;
    const { url, store } = await listen(
      () => steps.push('woken'),
      steps,
      (server) => {
        // Let in (past onRequest), then the listener turns to 503 while the body is still handled.
        server.addHook('preHandler', async () => {
          server.setAccepting(false);
          settled = server.settled().then(() => {
            storedWhenSettled = store.inbox.get(UUID) !== undefined;
          });
          await new Promise((resolve) => setTimeout(resolve, 30));
        });
      },
    );
    const response = await post(url, tokenBody(await signToken(eventClaims())));
    expect(response.status).toBe(200);
    await settled;
    expect(storedWhenSettled).toBe(true);
    expect(steps).toEqual(['woken', 'answer 200']);
    // A delivery arriving now is refused, and nothing is waited for.
    expect((await post(url, tokenBody(await signToken(eventClaims())))).status).toBe(503);
  });
});
