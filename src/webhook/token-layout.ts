/**
 * Where the event sits in a webhook token (marketplace 6.4 says the token "holds the event data"; the
 * claim layout is not shown). Two readings:
 *
 * - envelope: the claims are the event, `{ webhook_uuid, topic, data, iat? }`; everything is signed.
 * - data: the claims are the event's data; `webhook_uuid` and `topic` travel in clear beside the
 *   token in the body (the listener takes the topic from `X-Svc-Topic` when the body has none).
 *   Registered JWT claims (`iat`, `nbf`, `exp`) are not part of the data.
 *
 * `auto` (the default) decides per event: envelope when the claims object has all three keys
 * `webhook_uuid`, `topic` and `data` (whatever their values), data otherwise. Guessing wrong would
 * answer every genuine event 400 until the marketplace deactivates the subscription, so by default
 * both are read; `webhook.token_layout` pins one.
 */
import { z } from 'zod';
import { webhookClaimsSchema } from './event-schema.js';

export const TOKEN_LAYOUTS = ['auto', 'envelope', 'data'] as const;
/** The `webhook.token_layout` setting. */
export type TokenLayoutSetting = (typeof TOKEN_LAYOUTS)[number];
/** The layout one token was read with. */
export type TokenLayout = Exclude<TokenLayoutSetting, 'auto'>;
export const DEFAULT_TOKEN_LAYOUT: TokenLayoutSetting = 'auto';

/** The clear-text fields beside the token in the body; only the data layout reads them. */
export interface BesideToken {
  webhook_uuid?: unknown;
  topic?: unknown;
}

/** The event as a layout reads it, before its data is checked against its topic. */
export interface LayoutReading {
  ok: true;
  layout: TokenLayout;
  webhookUuid: string;
  topic: string;
  data: Record<string, unknown>;
  iat: number | undefined;
}

export interface LayoutFailure {
  ok: false;
  /**
   * layout_mismatch: a pinned layout got the other one; claims_invalid: envelope claims with wrong
   * values; event_fields_invalid: the data layout without a valid webhook_uuid and topic beside the token.
   */
  code: 'layout_mismatch' | 'claims_invalid' | 'event_fields_invalid';
  message: string;
}

/** Claims JWT libraries add on their own; in the data layout they are not part of the data. */
const REGISTERED_CLAIMS = new Set(['iat', 'nbf', 'exp']);

const besideSchema = z.object({ webhook_uuid: z.guid(), topic: z.string().min(1) });

/** How `auto` reads these claims: envelope when `webhook_uuid`, `topic` and `data` are all keys. */
function layoutOf(claims: Record<string, unknown>): TokenLayout {
  return 'webhook_uuid' in claims && 'topic' in claims && 'data' in claims ? 'envelope' : 'data';
}

function fieldsOf(issues: ReadonlyArray<{ path: PropertyKey[] }>): string {
  return [...new Set(issues.map((issue) => issue.path.map(String).join('.') || '(root)'))].join(', ');
}

/** Reads verified claims (a JSON object) with the layout setting; never throws. */
export function readTokenLayout(
  claims: Record<string, unknown>,
  setting: TokenLayoutSetting,
  beside: BesideToken,
): LayoutReading | LayoutFailure {
  const layout = layoutOf(claims);
  if (setting !== 'auto' && setting !== layout) {
    const message =
      setting === 'envelope'
        ? 'token claims are not the envelope layout (webhook_uuid, topic and data are not all claims) and webhook.token_layout is envelope; auto reads both'
        : 'token claims are the envelope layout (webhook_uuid, topic and data are claims) and webhook.token_layout is data; auto reads both';
    return { ok: false, code: 'layout_mismatch', message };
  }
  if (layout === 'envelope') {
    const parsed = webhookClaimsSchema.safeParse(claims);
    if (!parsed.success) return { ok: false, code: 'claims_invalid', message: `token claims invalid at ${fieldsOf(parsed.error.issues)}` };
    const { webhook_uuid: webhookUuid, topic, data, iat } = parsed.data;
    return { ok: true, layout, webhookUuid, topic, data, iat };
  }

  const fields = besideSchema.safeParse(beside);
  if (!fields.success) {
    const why =
      setting === 'auto'
        ? 'token claims are not an envelope (webhook_uuid, topic, data), so they are read as the data layout, which'
        : 'the data layout (webhook.token_layout: data)';
    return {
      ok: false,
      code: 'event_fields_invalid',
      message: `${why} needs webhook_uuid (a UUID) beside the token in the body, and a topic there or in X-Svc-Topic: invalid at ${fieldsOf(fields.error.issues)}`,
    };
  }
  const data = Object.fromEntries(Object.entries(claims).filter(([key]) => !REGISTERED_CLAIMS.has(key)));
  const iat = typeof claims['iat'] === 'number' ? claims['iat'] : undefined;
  return { ok: true, layout, webhookUuid: fields.data.webhook_uuid, topic: fields.data.topic, data, iat };
}
