// Helpers for webhook tests: signed tokens, a listener on a free port, captured log lines.
import { CompactSign, SignJWT } from 'jose';
import { ManualClock } from '../../src/clock/clock.js';
import { createLogger } from '../../src/log/logger.js';
import type { Store } from '../../src/store/index.js';
import {
  buildWebhookServer,
  webhookKey,
  type TokenLayoutSetting,
  type WebhookEvent,
  type WebhookOutcome,
  type WebhookServer,
} from '../../src/webhook/index.js';
import { T0, tempStore } from '../store/fixtures.js';

export const SECRET = 'whsec-test-secret-0123456789abcdef';
export const TOPIC = 'new_loan_request_created';
export const UUID = '6f1d2c3b-4a59-4e68-9d7c-0b1a2c3d4e5f';
export const DATA = {
  loan_request_id: 1001,
  loan_request_amount: 500,
  loan_request_type: 'cash',
  has_banking_data: true,
  automated_loan_request: false,
};

/** An HS256 token over `claims`, signed with `secret`. */
export async function signToken(claims: Record<string, unknown>, secret = SECRET, alg = 'HS256'): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg, typ: 'JWT' }).sign(webhookKey(secret));
}

export function eventClaims(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { webhook_uuid: UUID, topic: TOPIC, data: DATA, iat: Math.floor(T0 / 1000), ...overrides };
}

export interface Harness {
  server: WebhookServer;
  store: Store;
  url: string;
  clock: ManualClock;
  stored: WebhookEvent[];
  outcomes: WebhookOutcome[];
  /** Every log line written, as text. */
  logText: () => string;
  /** Parsed log lines that carry an outcome. */
  outcomeLines: () => Array<Record<string, unknown>>;
  post: (body: string | Buffer, headers?: Record<string, string>) => Promise<{ status: number; body: unknown }>;
  close: () => Promise<void>;
}

export interface ListenerOptions {
  bodyLimitBytes?: number;
  tokenLayout?: TokenLayoutSetting;
  /** The refused-webhooks warning's threshold and window (defaults otherwise; kept in the store's state). */
  warnAfter?: { refusals?: number; windowMs?: number };
}

export async function startListener(options: ListenerOptions = {}): Promise<Harness> {
  const { store, cleanup } = tempStore();
  const clock = new ManualClock(T0);
  const lines: string[] = [];
  const log = createLogger({ level: 'debug', destination: { write: (line: string) => void lines.push(line) } });
  const stored: WebhookEvent[] = [];
  const outcomes: WebhookOutcome[] = [];
  const server = buildWebhookServer({
    secret: SECRET,
    inbox: store.inbox,
    clock,
    log,
    worker: { wake: (event) => stored.push(event) },
    onOutcome: (outcome) => outcomes.push(outcome),
    refusalWarning: { state: store.state, ...options.warnAfter },
    ...(options.bodyLimitBytes === undefined ? {} : { bodyLimitBytes: options.bodyLimitBytes }),
    ...(options.tokenLayout === undefined ? {} : { tokenLayout: options.tokenLayout }),
  });
  const address = await server.listen({ port: 0, host: '127.0.0.1' });
  const url = `${address}/webhooks`;
  return {
    server,
    store,
    url,
    clock,
    stored,
    outcomes,
    logText: () => lines.join(''),
    outcomeLines: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => 'outcome' in line),
    async post(body, headers = { 'content-type': 'application/json', 'x-svc-topic': TOPIC }) {
      const response = await fetch(url, { method: 'POST', headers, body });
      const text = await response.text();
      return { status: response.status, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
    },
    async close() {
      await server.close();
      cleanup();
    },
  };
}

/** The data layout: claims are the data; uuid and topic travel beside the token. */
export async function dataLayoutBody(
  options: { uuid?: string; topic?: string; data?: Record<string, unknown>; secret?: string; alg?: string } = {},
): Promise<string> {
  const token = await signToken(
    { ...(options.data ?? DATA), iat: Math.floor(T0 / 1000) },
    options.secret ?? SECRET,
    options.alg ?? 'HS256',
  );
  return tokenBody(token, { webhook_uuid: options.uuid ?? UUID, topic: options.topic ?? TOPIC });
}

/** A body carrying a token, as the marketplace sends it. */
export function tokenBody(token: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ token, ...extra });
}

/** JSON text of `inner` wrapped in `levels` arrays: `[[[inner]]]`, built without recursion. */
export function nestedJson(levels: number, inner = '1'): string {
  return '['.repeat(levels) + inner + ']'.repeat(levels);
}

/** An HS256 token over raw payload text (for payloads JSON.stringify cannot or should not make). */
export async function signRawPayload(payloadText: string, secret = SECRET, alg = 'HS256'): Promise<string> {
  return new CompactSign(new TextEncoder().encode(payloadText)).setProtectedHeader({ alg, typ: 'JWT' }).sign(webhookKey(secret));
}
