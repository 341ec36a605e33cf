/**
 * The guard as the pipeline asks it about one request: the decide step's guard seam
 * (src/engine/decide-step.ts), asked before data is bought and again on the offer. It runs the
 * pure guard (src/risk/check-offer.ts, checkOffer) on a snapshot of the store, the balance and the
 * protections' pause; then, for a request of a live split, its arm's share of the capital
 * (src/risk/arm-share-rule.ts, checkArmShare).
 */
import type { Clock } from '../clock/clock.js';
import type { GuardQuestion } from '../engine/index.js';
import { checkArmShare } from '../risk/arm-share-rule.js';
import { checkOffer, snapshotFromStore, type GuardResult, type RiskLimits, type SplitSettings } from '../risk/index.js';
import { parseCents, type LoanRequest } from '../domain/index.js';
import { databaseOf, type Store } from '../store/index.js';
import { createShadowSplitRepository, type ShadowSplitRepository } from '../store/shadow-split-repository.js';
import type { BalanceTracker } from './balance-tracker.js';

/** An automatic pause in force (the protections, src/ops/protections): while one holds, every offer is refused. */
interface PauseSource {
  activePause(): { reason: string } | undefined;
}

export interface RequestGuardDeps {
  store: Store;
  clock: Clock;
  dryRun: boolean;
  limits: () => RiskLimits;
  balance: Pick<BalanceTracker, 'current'>;
  pause?: PauseSource | undefined;
}

/** The arm of a live split the request falls in (src/risk/arm-share-rule.ts, armOf). */
export interface SplitArm {
  split: SplitSettings;
  arm: 0 | 1;
}

/** Makes the guard of each request; the split book is opened on first use and kept. */
export class RequestGuards {
  private splitBook: ShadowSplitRepository | undefined;

  constructor(private readonly deps: RequestGuardDeps) {}

  forRequest(request: LoanRequest, splitArm: SplitArm | undefined): RequestGuard {
    const splitBook = (): ShadowSplitRepository => (this.splitBook ??= createShadowSplitRepository(databaseOf(this.deps.store)));
    return new RequestGuard({ ...this.deps, splitBook }, request, splitArm);
  }
}

export class RequestGuard {
  private spent: number | undefined;

  constructor(
    /** `splitBook`: what each arm of the split has committed. */
    private readonly deps: RequestGuardDeps & { splitBook: () => ShadowSplitRepository },
    private readonly request: LoanRequest,
    private readonly splitArm: SplitArm | undefined,
  ) {}

  /** Milliseconds spent in the guard for this request, both questions counted; undefined when it was not asked. */
  get spentMs(): number | undefined {
    return this.spent;
  }

  /** Answers one of the decide step's questions: may this amount, or this offer, go out now? */
  async check(question: GuardQuestion): Promise<GuardResult> {
    const { store, clock, dryRun } = this.deps;
    const started = performance.now();
    const limits = this.deps.limits();
    const balanceCents = await this.deps.balance.current();
    const snapshot = {
      ...snapshotFromStore(store, balanceCents, clock.now(), limits, { dryRun }),
      pauseReason: this.deps.pause?.activePause()?.reason,
    };
    let result = checkOffer(question, snapshot, limits);
    if (result.allowed && this.splitArm !== undefined) {
      const { split, arm } = this.splitArm;
      const committedCents = this.deps
        .splitBook()
        .committedCents({ strategy: split.strategies[arm], nowMs: clock.now(), expiryMs: limits.offerExpiryMs, dryRun });
      const lentCents = Math.max(0, snapshot.exposureCents - snapshot.reservedCents);
      result = checkArmShare(split, arm, parseCents(this.request.total_amount), { committedCents, balanceCents, lentCents });
    }
    // Asked before buying data and again on the offer: both count.
    this.spent = (this.spent ?? 0) + performance.now() - started;
    return result;
  }
}
