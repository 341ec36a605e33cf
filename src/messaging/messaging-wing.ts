/**
 * What the rest of lendbot takes from messaging besides its attach line (src/daemon/daemon.ts,
 * attachMessaging): the `notifications:` config section and `lendbot doctor`'s notifications
 * line, both through src/daemon/wing-parts.ts, which names this entry once.
 */
import { notificationsSchema } from './notifications-config.js';
import type { checkNotifications } from './notifier.js';

export const messagingWing = {
  config: { notifications: notificationsSchema.optional() },
  checks: [
    {
      name: 'notifications',
      // Loaded when the doctor runs: the notifier sends with got, which reading a config must not load.
      run: async (input: Parameters<typeof checkNotifications>[0]) => (await import('./notifier.js')).checkNotifications(input),
    },
  ],
} as const;
