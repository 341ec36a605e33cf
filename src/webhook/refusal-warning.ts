/**
 * The warning for genuine-looking webhooks refused. A refusal whose signature verified but whose
 * shape we did not expect (`misread`: layout, claims, data, topic) means we read the marketplace's
 * tokens wrongly: every genuine event would be answered 400, retried for 24 hours, then the
 * subscription deactivated. A run of them (3 within 10 minutes by default) raises a warning kept
 * in the state table, so `/healthz`, `lendbot status` (another process) and the notification
 * check all see it, and a restart keeps it. The next event stored ends it.
 *
 * Someone replaying a captured token with other clear-text fields also counts: the price of
 * seeing a wrong reading within minutes is a warning an attacker can raise, never a lost event.
 */
import type { Clock } from '../clock/clock.js';
import type { Logger } from '../log/logger.js';
import type { StateRepository } from '../store/index.js';
import type { TokenLayoutSetting } from './token-layout.js';

export const REFUSAL_WARNING_KEY = 'webhook_refusals_warning';
export const DEFAULT_WARN_AFTER_REFUSALS = 3;
export const DEFAULT_WARN_WINDOW_MS = 10 * 60_000;

/** The warning as stored (JSON under REFUSAL_WARNING_KEY; the text `null` when there is none). */
export interface RefusalWarning {
  sinceMs: number;
  lastMs: number;
  /** Genuine-looking refusals since the warning began, the run that raised it included. */
  refused: number;
  lastCode: string;
  lastMessage: string;
  /** The `webhook.token_layout` setting the refusals happened under. */
  layout: TokenLayoutSetting;
}

/** The warning stored now, if any (for health, status and notifications; reading changes nothing). */
export function storedRefusalWarning(state: Pick<StateRepository, 'get'>): RefusalWarning | undefined {
  const text = state.get(REFUSAL_WARNING_KEY);
  if (text === undefined || text === '' || text === 'null') return undefined;
  return JSON.parse(text) as RefusalWarning;
}

/** One line for people: what happened and what to check. */
export function refusalWarningText(warning: RefusalWarning): string {
  return (
    `${warning.refused} validly signed webhooks refused since ${new Date(warning.sinceMs).toISOString()} ` +
    `(last: ${warning.lastCode}: ${warning.lastMessage}); check webhook.token_layout (now ${warning.layout}) and docs/webhooks.md`
  );
}

export interface RefusalWarningOptions {
  state: Pick<StateRepository, 'get' | 'set'>;
  clock: Clock;
  log: Logger;
  layout: TokenLayoutSetting;
  /** Refusals within the window that raise the warning (default 3). */
  refusals?: number;
  /** The sliding window, in the clock's milliseconds (default 10 minutes). */
  windowMs?: number;
}

/** Counts genuine-looking refusals; never throws (a store that fails is logged). */
export class RefusalWarningTracker {
  private readonly recentMs: number[] = [];
  private raised: boolean;

  constructor(private readonly options: RefusalWarningOptions) {
    this.raised = this.guard(() => storedRefusalWarning(options.state) !== undefined) ?? false;
  }

  /** A delivery with a genuine signature was refused for its shape. */
  refused(code: string, message: string): void {
    const { clock, state, log } = this.options;
    const now = clock.now();
    const windowMs = this.options.windowMs ?? DEFAULT_WARN_WINDOW_MS;
    this.recentMs.push(now);
    while (this.recentMs.length > 0 && this.recentMs[0]! <= now - windowMs) this.recentMs.shift();
    this.guard(() => {
      const current = this.raised ? storedRefusalWarning(state) : undefined;
      if (current !== undefined) {
        state.set(
          REFUSAL_WARNING_KEY,
          JSON.stringify({ ...current, lastMs: now, refused: current.refused + 1, lastCode: code, lastMessage: message }),
          now,
        );
        return;
      }
      if (this.recentMs.length < (this.options.refusals ?? DEFAULT_WARN_AFTER_REFUSALS)) return;
      const warning: RefusalWarning = {
        sinceMs: now,
        lastMs: now,
        refused: this.recentMs.length,
        lastCode: code,
        lastMessage: message,
        layout: this.options.layout,
      };
      state.set(REFUSAL_WARNING_KEY, JSON.stringify(warning), now);
      this.raised = true;
      log.error(
        { refused: warning.refused, code, reason: message, layout: warning.layout },
        'validly signed webhooks keep being refused: the token layout may be misread',
      );
    });
  }

  /** An event was stored: our reading works, so a warning ends. Cheap when none is raised. */
  stored(): void {
    if (!this.raised) return;
    this.guard(() => {
      this.options.state.set(REFUSAL_WARNING_KEY, 'null', this.options.clock.now());
      this.raised = false;
      this.recentMs.length = 0;
      this.options.log.info('a webhook was stored again: the refused-webhooks warning ended');
    });
  }

  private guard<T>(work: () => T): T | undefined {
    try {
      return work();
    } catch (error) {
      this.options.log.error({ err: error }, 'refused-webhooks warning not updated');
      return undefined;
    }
  }
}
