/**
 * A webhook delivery as the marketplace sends it (marketplace part 6): a POST with `X-Svc-Topic` and a
 * JSON body carrying `token`, a JWT HS256-signed with the webhook secret. The claim layout is
 * "not shown" in the spec, so both layouts the listener reads are built here (token-layout.ts):
 * `envelope` signs `{webhook_uuid, topic, data}` and sends `{token}`; `data` signs the event's
 * data and sends the uuid and topic beside the token. The sandbox's sender and the CLI's test
 * events (`lendbot doctor`, `lendbot webhook test`) both build their requests here.
 */
import { SignJWT } from 'jose';
import type { TokenLayout } from './token-layout.js';

export interface EventToSign {
  webhookUuid: string;
  topic: string;
  data: Record<string, unknown>;
}

/** The headers and body of one signed delivery of `event`. */
export async function signedDelivery(
  event: EventToSign,
  key: Uint8Array,
  options: { nowMs: number; layout: TokenLayout },
): Promise<{ headers: Record<string, string>; body: string }> {
  const envelope = { webhook_uuid: event.webhookUuid, topic: event.topic, data: event.data };
  const dataLayout = options.layout === 'data';
  const token = await new SignJWT(dataLayout ? event.data : envelope)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(Math.floor(options.nowMs / 1000))
    .sign(key);
  return {
    headers: { 'X-Svc-Topic': event.topic, 'Content-Type': 'application/json' },
    body: JSON.stringify(dataLayout ? { webhook_uuid: event.webhookUuid, topic: event.topic, token } : { token }),
  };
}
