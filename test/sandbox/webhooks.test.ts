import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { jwtVerify } from 'jose';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HOUR, startFixture, type Fixture } from './sandbox-fixture.js';

interface Received {
  topic: string | undefined;
  contentType: string | undefined;
  body: { token: string };
}

let fx: Fixture;
let receiver: Server;
let received: Received[];
let answer: number;
let receiverUrl: string;

beforeEach(async () => {
  fx = await startFixture({ webhookTimeoutMs: 2000 });
  received = [];
  answer = 200;
  receiver = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    request.on('end', () => {
      received.push({
        topic: request.headers['x-svc-topic'] as string | undefined,
        contentType: request.headers['content-type'],
        body: JSON.parse(text) as { token: string },
      });
      response.statusCode = answer;
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
});
afterEach(async () => {
  await fx.close();
  await new Promise((resolve) => receiver.close(resolve));
});

describe('webhooks (spec part 6)', () => {
  it('POSTs a signed JWT carrying {webhook_uuid, topic, data} for every new request', async () => {
    const { control, credentials } = fx.sandbox;
    const subscription = control.subscribe(receiverUrl, 'investor@example.com');
    expect(subscription).toEqual({ id: 1, secret: credentials.webhookSecret });
    const request = control.createLoanRequest({ hasBankingData: true, automated: false, svcColor: 1 });
    await control.flushWebhooks();
    expect(received).toHaveLength(1);
    const [event] = received;
    expect(event?.topic).toBe('new_loan_request_created');
    expect(event?.contentType).toBe('application/json');
    const { payload, protectedHeader } = await jwtVerify(event?.body.token ?? '', new TextEncoder().encode(subscription.secret), {
      algorithms: ['HS256'],
      currentDate: new Date(fx.sandbox.clock.now()),
    });
    expect(protectedHeader.alg).toBe('HS256');
    expect(payload).toMatchObject({
      topic: 'new_loan_request_created',
      data: {
        loan_request_id: request.id,
        loan_request_amount: Number(request.loan_amount),
        loan_request_type: 'cash',
        has_banking_data: true,
        automated_loan_request: false,
      },
    });
    expect(payload.webhook_uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(payload.iat).toBe(Math.floor(fx.sandbox.clock.now() / 1000));
    expect(control.webhooks().deliveries[0]).toMatchObject({ status: 'delivered', attempts: 1 });
  });

  it('retries hourly for 24 simulated hours, then deactivates until reactivated', async () => {
    const { control } = fx.sandbox;
    const { id } = control.subscribe(receiverUrl, 'investor@example.com');
    answer = 500;
    control.createLoanRequest();
    await control.flushWebhooks();
    for (let hour = 1; hour <= 24; hour++) {
      control.advance(HOUR);
      await control.flushWebhooks();
    }
    expect(received).toHaveLength(25);
    const uuids = new Set(
      received
        .map((r) => r.body.token.split('.')[1])
        .map((p) => (JSON.parse(Buffer.from(p ?? '', 'base64url').toString()) as { webhook_uuid: string }).webhook_uuid),
    );
    expect(uuids.size).toBe(1);
    expect(control.webhooks().subscriptions[0]).toMatchObject({ id, active: false });
    expect(control.webhooks().deliveries[0]).toMatchObject({ status: 'failed', attempts: 25 });

    control.createLoanRequest();
    await control.flushWebhooks();
    expect(received).toHaveLength(25);

    answer = 200;
    control.reactivate(id);
    control.createLoanRequest();
    await control.flushWebhooks();
    expect(received).toHaveLength(26);
  });

  it('stops retrying once a 200 arrives', async () => {
    const { control } = fx.sandbox;
    control.subscribe(receiverUrl, 'investor@example.com');
    answer = 503;
    control.createLoanRequest();
    await control.flushWebhooks();
    answer = 200;
    control.advance(HOUR);
    await control.flushWebhooks();
    control.advance(5 * HOUR);
    await control.flushWebhooks();
    expect(received).toHaveLength(2);
    expect(control.webhooks().deliveries[0]).toMatchObject({ status: 'delivered', attempts: 2 });
  });

  it('refuses a bad URL or e-mail, over HTTP too', async () => {
    expect(() => fx.sandbox.control.subscribe('not a url', 'a@b.co')).toThrow('Enter a valid URL (got "not a url").');
    const response = await fetch(`${fx.sandbox.url}/_sandbox/webhooks`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ url: receiverUrl, email: 'nobody' }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ detail: 'Enter a valid e-mail address (got "nobody").' });
  });

  it('drops deliveries when told to (fault injection)', async () => {
    const { control } = fx.sandbox;
    control.subscribe(receiverUrl, 'investor@example.com');
    control.setFaults({ dropWebhookRate: 1 });
    control.createLoanRequest();
    await control.flushWebhooks();
    expect(received).toHaveLength(0);
    expect(control.webhooks().deliveries[0]?.status).toBe('dropped');
  });
});
