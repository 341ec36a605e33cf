/**
 * Webhook deliveries for the benches that load a listener (webhook-ack.ts, webhook-memory.ts):
 * signed `new_loan_request_created` events for crypto-backed requests, which the default risk
 * limits skip before any marketplace call, and one POST as the marketplace sends it.
 */
import http from 'node:http';
import { SignJWT } from 'jose';
import { webhookKey } from '../src/webhook/index.js';

export const TOPIC = 'new_loan_request_created';

/** `events` signed deliveries with uuids and request ids distinct per `prefix`. */
export async function signedDeliveries(secret: string, prefix: number, events: number): Promise<Array<{ uuid: string; body: string }>> {
  const key = webhookKey(secret);
  const iat = Math.floor(Date.now() / 1000);
  const bodies: Array<{ uuid: string; body: string }> = [];
  for (let i = 0; i < events; i += 1) {
    const uuid = `${prefix.toString(16).padStart(8, '0')}-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;
    const data = {
      loan_request_id: prefix * 100_000 + i + 1,
      loan_request_amount: 500,
      loan_request_type: 'crypto',
      has_banking_data: false,
      automated_loan_request: false,
    };
    const token = await new SignJWT({ webhook_uuid: uuid, topic: TOPIC, data })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt(iat)
      .sign(key);
    bodies.push({ uuid, body: JSON.stringify({ token }) });
  }
  return bodies;
}

/** POSTs one delivery; its status code, 0 when the connection failed. */
export function postDelivery(agent: http.Agent, url: URL, body: string): Promise<number> {
  return new Promise((resolve) => {
    const request = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'x-svc-topic': TOPIC, 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    request.on('error', () => resolve(0));
    request.end(body);
  });
}
