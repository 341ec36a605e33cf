/**
 * What a notification format decides: the JSON body POSTed for one event, and how to read the
 * service's answer (its own words for a refusal, and whether a 2xx answer really was accepted).
 * The sender (../notifier.ts) does the HTTP, the retries and the logging, the same for every format.
 */
import type { NotificationEvent } from '../../domain/index.js';
import type { NotificationMessage } from './notification-message.js';

export const NOTIFICATION_FORMATS = ['json', 'slack', 'discord', 'telegram'] as const;
export type NotificationFormatName = (typeof NOTIFICATION_FORMATS)[number];

/** One event as the formats receive it: the raw data (for json) and the same in plain words. */
interface Notice {
  event: NotificationEvent;
  /** ISO 8601, from the injected clock. */
  at: string;
  data: Record<string, unknown>;
  message: NotificationMessage;
}

export interface NotificationFormat {
  readonly name: NotificationFormatName;
  body(notice: Notice): unknown;
  /** The service's explanation in an error answer's body (logged), if it gave one. */
  refusal(bodyText: string): string | undefined;
  /** For a 2xx answer: undefined when accepted, else the service's explanation. */
  rejection?(bodyText: string): string | undefined;
}

/** The `description` or `message` of a JSON error body, or the body text itself when short. */
export function errorText(bodyText: string, keys: readonly string[]): string | undefined {
  try {
    const parsed: unknown = JSON.parse(bodyText);
    if (parsed !== null && typeof parsed === 'object') {
      for (const key of keys) {
        const value = (parsed as Record<string, unknown>)[key];
        if (typeof value === 'string' && value !== '') return value;
      }
    }
  } catch {
    // not JSON: the plain text below
  }
  const trimmed = bodyText.trim();
  return trimmed === '' || trimmed.length > 300 ? undefined : trimmed;
}
