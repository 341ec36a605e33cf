/**
 * The generic format (the default): one JSON document per event for programs (a chat bridge, an
 * automation service, a small script), the data in the units lendbot keeps (cents, rate fractions).
 *
 * Body: { "event": "offer_placed", "at": "2026-03-10T12:00:00.000Z", "app": "lendbot", "data": {...} }
 */
import { errorText, type NotificationFormat } from './notification-format.js';

export const jsonFormat: NotificationFormat = {
  name: 'json',
  body: ({ event, at, data }) => ({ event, at, app: 'lendbot', data }),
  refusal: (bodyText) => errorText(bodyText, ['message', 'error', 'detail']),
};
