/**
 * What a webhook event is (marketplace part 6): `{ webhook_uuid, topic, data }`, all signed in the token's
 * claims (envelope layout) or the data signed and the rest beside the token (data layout,
 * token-layout.ts), and the data of each topic we know.
 */
import { z } from 'zod';
import { NEW_LOAN_REQUEST_TOPIC } from '../domain/index.js';

/**
 * The claims of an envelope-layout token. `z.guid()` accepts any 8-4-4-4-12 hex UUID, not only RFC 4122
 * variants: refusing an odd but genuine uuid would make the marketplace retry it for 24 hours and
 * then deactivate us.
 */
export const webhookClaimsSchema = z.looseObject({
  webhook_uuid: z.guid(),
  topic: z.string().min(1),
  data: z.record(z.string(), z.unknown()),
  iat: z.number().optional(),
});

/** Marketplace 6.2: the data of `new_loan_request_created`. Extra fields are kept. */
const newLoanRequestCreatedSchema = z.looseObject({
  loan_request_id: z.number().int().positive(),
  loan_request_amount: z.number().nonnegative(),
  /** `cash` or `crypto` today; kept open so a new kind is stored, not refused. */
  loan_request_type: z.string(),
  has_banking_data: z.boolean(),
  automated_loan_request: z.boolean(),
});

const NEW_LOAN_REQUEST_CREATED = NEW_LOAN_REQUEST_TOPIC;

/** The topics lendbot acts on, with the schema of their data. Others are stored and ignored. */
export const KNOWN_TOPICS: Readonly<Record<string, z.ZodType<Record<string, unknown>>>> = {
  [NEW_LOAN_REQUEST_CREATED]: newLoanRequestCreatedSchema,
};

/** A verified event. */
export interface WebhookEvent {
  webhookUuid: string;
  topic: string;
  data: Record<string, unknown>;
  /** The token's `iat` in epoch milliseconds, when it had one. */
  issuedAtMs?: number | undefined;
  /** Whether lendbot acts on this topic; unknown topics are stored as 'ignored'. */
  known: boolean;
}

/** What the listener did with one delivery; the daemon counts these in metrics. */
export type WebhookOutcome =
  'accepted' | 'duplicate' | 'forged' | 'malformed' | 'oversized' | 'topic_mismatch' | 'unknown_topic' | 'unavailable';
