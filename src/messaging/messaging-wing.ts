/**
 * What the rest of lendbot takes from messaging besides its attach line (src/daemon/daemon.ts,
 * attachMessaging): the `notifications:` section, which the daemon's configuration composes, and
 * the notifications line of `lendbot doctor`. Both reach them through src/daemon/wing-parts.ts,
 * which names this wing once, so deleting the folder and those two lines leaves lendbot whole
 * (test/layout/messaging-wing.test.ts).
 */
import { notificationsSchema } from './notifications-config.js';
import type { WingCheckInput } from './notifications-check.js';

export const messagingWing = {
  config: { notifications: notificationsSchema.optional() },
  checks: [
    {
      name: 'notifications',
      // Loaded when the doctor runs: the notifier sends with got, which reading a config must not load.
      run: async (input: WingCheckInput) => (await import('./notifications-check.js')).checkNotifications(input),
    },
  ],
} as const;
