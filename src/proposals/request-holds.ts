/**
 * Holding a loan request while an agent's proposal on it waits for a person: only the sandbox
 * can (docs/sandbox.md, "Holding a request for a person"). At its speed a borrower decides
 * within a real second or so, so without a hold no proposal there could ever be approved; the
 * run command hands the daemon this seam in sandbox mode, and live it is absent (a borrower
 * decides hours after listing: the proposal's real half hour fits). Failing to hold or release
 * never stops a proposal: it is logged, and approving still checks the request is open.
 */
import type { Clock } from '../clock/clock.js';
import type { Logger } from '../log/logger.js';
import type { RequestHolds } from '../operator/agent-context.js';
import type { StoredProposal } from '../store/index.js';

/** What holding reads of the agent context (src/operator/agent-context.ts, which carries the seam). */
interface HoldingContext {
  requestHolds?: RequestHolds | undefined;
  realClock: Clock;
  log: Logger;
}

/** Holds the request of a proposal just made until the proposal expires. */
export async function holdWhileWaiting(context: HoldingContext, proposal: StoredProposal): Promise<void> {
  const holds = context.requestHolds;
  if (holds === undefined) return;
  const forRealMs = Date.parse(proposal.expiresAt) - context.realClock.now();
  try {
    await holds.hold(proposal.loanRequestId, forRealMs);
  } catch (error) {
    context.log.warn(
      { err: error, proposal: proposal.id, loanRequestId: proposal.loanRequestId },
      'the market did not hold the request for the proposal',
    );
  }
}

/** Lets the borrower decide now that the proposal was decided. */
export async function releaseHold(context: Omit<HoldingContext, 'realClock'>, loanRequestId: number): Promise<void> {
  try {
    await context.requestHolds?.release(loanRequestId);
  } catch (error) {
    context.log.warn({ err: error, loanRequestId }, 'the market did not release the held request');
  }
}
