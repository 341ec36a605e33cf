/**
 * The proposals wing, attached to a running daemon in one call (attachProposals), and its runner,
 * the daemon's side of `lendbot approve`: that command only records the person's approval in the
 * database (it has no marketplace client); this runner, in the running daemon, notices approved
 * proposals and places them (decide-proposal.ts), and marks proposals whose time is up as expired
 * so the lists say so. It looks once a second (real time): one indexed query when nothing waits.
 * Every CLOSED_CHECK_MS it also expires waiting proposals whose loan request has closed
 * (closed-requests.ts): one read of the open list, and only while something waits.
 *
 * At start it takes up what a stopped daemon left mid-way (`placing` → `approved`): placing again
 * is safe, the offer path never sends one request's offer twice.
 */
import type { AgentContext } from '../operator/agent-context.js';
import { expireClosedRequests } from './closed-requests.js';
import { approveProposal, placeApproved, rejectProposal } from './decide-proposal.js';

const TICK_MS = 1000;
/** Approved proposals placed per tick; the rest wait for the next one. */
const BATCH = 10;
/** How often (real time) waiting proposals' requests are looked for in the open list. */
const CLOSED_CHECK_MS = 15_000;

class ProposalRunner {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private lastClosedCheckMs = Number.NEGATIVE_INFINITY;

  constructor(private readonly context: AgentContext) {}

  start(): void {
    const resumed = this.context.store.proposals.resumeInterrupted();
    if (resumed > 0)
      this.context.log.info({ proposals: resumed }, 'approved proposals left mid-way by the last run are placed again (never sent twice)');
    this.timer = setInterval(() => void this.tick(), TICK_MS);
    this.timer.unref();
    void this.tick();
  }

  /** One pass; joins a pass under way. */
  tick(): Promise<void> {
    this.running ??= this.pass().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  private async pass(): Promise<void> {
    const { store, realClock, log } = this.context;
    try {
      const expired = store.proposals.expireDue(realClock.now());
      if (expired > 0) log.info({ proposals: expired }, 'agent proposals expired without being placed');
      for (const id of store.proposals.approvedIds(BATCH)) await placeApproved(this.context, id);
      if (realClock.now() - this.lastClosedCheckMs >= CLOSED_CHECK_MS) {
        this.lastClosedCheckMs = realClock.now();
        const closed = await expireClosedRequests(this.context);
        if (closed > 0) log.info({ proposals: closed }, 'agent proposals expired: their loan requests closed before anyone approved them');
      }
    } catch (error) {
      // A closed database at shutdown, a locked file: the next pass tries again.
      log.warn({ err: error }, 'proposal runner pass failed');
    }
  }
}

/**
 * The runner on the operator listener's agent context (src/operator/attach-operator.ts), whose offer path it places
 * through, with a person's decision as `lendbot approve` makes it (Telegram's /approve and /reject).
 */
export function attachProposals(context: AgentContext) {
  const deciding = { store: context.store, clock: context.realClock };
  const decider = {
    approve: (id: number, by: string) => approveProposal(deciding, id, by),
    reject: (id: number, by: string) => rejectProposal(deciding, id, by),
  };
  return Object.assign(new ProposalRunner(context), { decider });
}
