/**
 * Where the parts built first (the service health, the protections, the idle-cash alert) send a
 * notification, before messaging exists: a built part they hold from the start, which messaging
 * points at its notifier when it attaches (src/messaging/attach-messaging.ts). So no part names
 * messaging, and a daemon with messaging left out (or `notifications:` off) drops the notices
 * instead of failing (test/daemon/messaging-left-out.test.ts).
 *
 * Nothing runs between the parts' assembly and the attach calls (createDaemon makes both before
 * any job or listener starts), so no notice comes before the sink is set.
 */
import type { NotificationEvent } from '../domain/index.js';

/** What a notice is sent to: messaging's notifier, a chat's paced. */
export interface NoticeSink {
  notify(event: NotificationEvent, data: Record<string, unknown>): unknown;
}

export class NoticeRelay {
  private sink: NoticeSink | undefined;

  /** Sends every notice from now on to `sink` (messaging's attach). */
  sendTo(sink: NoticeSink | undefined): void {
    this.sink = sink;
  }

  /** Hands the notice to messaging; a failure to send is the notifier's to log, never the caller's. */
  notify(event: NotificationEvent, data: Record<string, unknown>): void {
    void this.sink?.notify(event, data);
  }
}
