/**
 * The events a notification can be about. On the ground floor because both sides speak them: the
 * operations that raise one (the protections, the idle-cash watch) and the messaging that words
 * and sends it (src/messaging/); neither imports the other for this list.
 */
export const NOTIFICATION_EVENTS = [
  'offer_placed',
  'offer_proposed',
  'offer_funded',
  'loan_late',
  'loan_defaulted',
  'payment_late',
  'payment_missed',
  'daily_summary',
  'digest',
  'daemon_error',
  'budget_nearly_spent',
  'service_degraded',
  'protection_paused',
  'protection_lifted',
  'calibration_drift',
  'webhooks_silent',
  'webhooks_refused',
  'idle_cash',
] as const;
export type NotificationEvent = (typeof NOTIFICATION_EVENTS)[number];
