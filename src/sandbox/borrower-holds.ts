/**
 * A borrower who waits for a lender's answer (sandbox only, docs/sandbox.md "Holding a request
 * for a person"). At the sandbox's speed a borrower decides within a real second or so, long
 * before any person could approve an agent's proposal on the request; lendbot's daemon, in
 * sandbox mode, asks the sandbox to hold such a request while its proposal waits. While held, the
 * request's borrower neither decides, cancels nor lets the listing lapse: those events wait, and
 * run when the hold ends (its time, or released). Competitors' offers still arrive. The real
 * marketplace has no such thing: there a borrower decides hours after listing, and a proposal's
 * half hour fits in that.
 */
import type { MarketEvent } from './market-events.js';

/** The borrower's own events, the ones a hold puts off. */
type BorrowerEvent = Extract<MarketEvent, { kind: 'decision' | 'cancel' | 'window-end' }>;

/** Requests held at most at once: a hold beyond it is refused, so a runaway caller cannot grow the map. */
export const MAX_HOLDS = 1000;

interface Hold {
  untilMs: number;
  deferred: BorrowerEvent[];
}

export class BorrowerHolds {
  private readonly holds = new Map<number, Hold>();

  /** Holds `requestId` until `untilMs` (a later time extends it); false when too many are held. */
  hold(requestId: number, untilMs: number): boolean {
    const held = this.holds.get(requestId);
    if (held !== undefined) {
      held.untilMs = Math.max(held.untilMs, untilMs);
      return true;
    }
    if (this.holds.size >= MAX_HOLDS) return false;
    this.holds.set(requestId, { untilMs, deferred: [] });
    return true;
  }

  /** The hold's end, or undefined when the request is not held. */
  heldUntil(requestId: number): number | undefined {
    return this.holds.get(requestId)?.untilMs;
  }

  /** Keeps a borrower event of a held request for later; false when it runs now. */
  defer(event: MarketEvent, nowMs: number): boolean {
    if (event.kind !== 'decision' && event.kind !== 'cancel' && event.kind !== 'window-end') return false;
    const held = this.holds.get(event.requestId);
    if (held === undefined || nowMs >= held.untilMs) return false;
    held.deferred.push(event);
    return true;
  }

  /** Ends the hold (released, or its time came); returns the events it put off, to run now. */
  release(requestId: number): BorrowerEvent[] {
    const held = this.holds.get(requestId);
    this.holds.delete(requestId);
    return held?.deferred ?? [];
  }
}
