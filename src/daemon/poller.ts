/**
 * The scheduled poll: list every page of loan requests and send each one not yet decided
 * through the pipeline, so nothing a lost webhook missed is lost. Items that fail validation are
 * logged and skipped; the good ones still go through.
 */
import type { Clock } from '../clock/clock.js';
import type { Logger } from '../log/logger.js';
import { formatItemIssue, type LoanRequest, type MarketplaceApi } from '../service/index.js';
import { LAST_POLL_KEY, type Store } from '../store/index.js';
import type { Pipeline } from './pipeline.js';

export interface PollSummary {
  listed: number;
  processed: number;
  invalid: number;
  /** Ids listed in this poll, for the reconciler. */
  listedIds: Set<number>;
}

export class Poller {
  private running: Promise<PollSummary> | undefined;

  constructor(private readonly deps: { client: MarketplaceApi; store: Store; pipeline: Pipeline; clock: Clock; log: Logger }) {}

  /**
   * Polls once; a poll already under way is joined rather than doubled. `beforeDeciding` runs
   * after the list is read and before any new request is decided (the reconciler settles offers
   * whose outcome is unknown there, so their money is known before new offers are weighed).
   */
  poll(beforeDeciding?: (listedIds: ReadonlySet<number>) => Promise<unknown>): Promise<PollSummary> {
    this.running ??= this.run(beforeDeciding).finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** Reads every page of the list: the ids listed, and the requests not decided yet. */
  async list(): Promise<{ summary: PollSummary; fresh: Map<number, LoanRequest> }> {
    const { client, store, log } = this.deps;
    const summary: PollSummary = { listed: 0, processed: 0, invalid: 0, listedIds: new Set() };
    // By id: a list that shifts while it is read can show a request on two pages.
    const fresh = new Map<number, LoanRequest>();
    for await (const page of client.loanRequestPages()) {
      for (const issue of page.issues) log.warn({ issue: formatItemIssue(issue) }, 'loan request left out');
      summary.invalid += page.issues.length;
      for (const request of page.items) {
        if (!summary.listedIds.has(request.id)) summary.listed += 1;
        summary.listedIds.add(request.id);
        if (!store.decisions.has(request.id) && !fresh.has(request.id)) fresh.set(request.id, request);
      }
    }
    return { summary, fresh };
  }

  private async run(beforeDeciding?: (listedIds: ReadonlySet<number>) => Promise<unknown>): Promise<PollSummary> {
    const { store, pipeline, clock, log } = this.deps;
    const { summary, fresh } = await this.list();
    await beforeDeciding?.(summary.listedIds);
    // Oldest first (ids grow with time), whatever order the service lists in: first come, first
    // served for the balance, and the order a backtest replays requests seen at the same moment.
    for (const request of [...fresh.values()].sort((a, b) => a.id - b.id)) {
      await pipeline.process(request, 'poll');
      summary.processed += 1;
    }
    store.state.set(LAST_POLL_KEY, new Date(clock.now()).toISOString(), clock.now());
    log.info({ listed: summary.listed, processed: summary.processed, invalid: summary.invalid }, 'poll done');
    return summary;
  }
}
