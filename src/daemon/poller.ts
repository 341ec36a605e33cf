/**
 * The scheduled poll: list the loan requests and send each one not yet decided through the
 * pipeline, so nothing a lost webhook missed is lost. Items that fail validation are logged and
 * skipped; the good ones still go through.
 *
 * Pages are decided as they arrive: a page's new requests are decided before the next page is
 * asked for, so a failure on page 5 loses nothing of pages 1 to 4. The scan is scanPages'
 * (src/service/pagination.ts): a 404 on a later page (the list shrank while it was read) ends it
 * normally, and it reads at most the pages the first answer's `count` implies, plus one.
 *
 * One request never stops the others: a request whose data failed is deferred by the pipeline
 * (it waits its own back-off) and the poll goes on with the next. Only when three requests in a
 * row fail for an outage of the service (5xx, timeouts, refused credentials) does the poll end,
 * failed, since the rest would only fail alike. A poll told to stop (shutdown) ends before the
 * next request and records nothing more.
 */
import type { Clock } from '../clock/clock.js';
import type { Logger } from '../log/logger.js';
import type { LoanRequest } from '../domain/index.js';
import {
  formatItemIssue,
  scanPages,
  type LoanRequestFilters,
  type MarketplaceApi,
  type Page,
  type ScanProgress,
} from '../service/index.js';
import { LAST_POLL_KEY, type Store } from '../store/index.js';
import type { ListedRequests } from './intent-reconciler.js';
import type { Pipeline } from './pipeline.js';
import { PollFailures, type FailedPolls } from './poll-failures.js';

export interface PollSummary {
  listed: number;
  processed: number;
  /** Requests not decided in this poll because their data failed (each waits its back-off). */
  deferred: number;
  invalid: number;
  /** Pages read. */
  pages: number;
  /** Ids listed in this poll, for the reconciler. */
  listedIds: Set<number>;
  /** Whether `listedIds` is the whole open list: no list filter sent and the scan not cut. */
  complete: boolean;
  /** The list filters sent. */
  filters: LoanRequestFilters;
}

/** What the daemon runs around the decisions of a poll (the reconciler's two halves). */
export interface PollHooks {
  /** Before the new requests of a page are decided, with the ids that page listed. */
  beforePage?: (pageIds: ReadonlySet<number>) => Promise<unknown>;
  /** After the scan, with every id it listed and whether that is the whole list. */
  afterScan?: (listed: ListedRequests) => Promise<unknown>;
}

export interface PollerDeps {
  client: MarketplaceApi;
  store: Store;
  pipeline: Pipeline;
  clock: Clock;
  log: Logger;
  /** The list filters the active strategies allow (unionListFilters); none when absent. */
  listFilters?: (() => LoanRequestFilters) | undefined;
}

// This many requests in a row deferred for an outage end the poll (the inbox worker's rule too).
const OUTAGES_ENDING_A_POLL = 3;

export class Poller {
  private running: Promise<PollSummary> | undefined;
  private stopping = false;
  private readonly failures: PollFailures;

  constructor(private readonly deps: PollerDeps) {
    this.failures = new PollFailures(deps.clock);
  }

  /** Polls once; a poll already under way is joined rather than doubled. */
  poll(hooks: PollHooks = {}): Promise<PollSummary> {
    this.running ??= this.run(hooks)
      .then(
        (summary) => {
          // A poll cut short by shutdown says nothing about the service.
          if (!this.stopping) this.failures.succeeded();
          return summary;
        },
        (error: unknown) => {
          if (!this.stopping) this.failures.failed(error);
          throw error;
        },
      )
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }

  /** The start-up read failed: `/healthz` is degraded until a poll succeeds (poll-failures.ts). */
  failingAtStart(error: unknown): void {
    this.failures.failedAtStart(error);
  }

  /** The polls failed in a row since the last that succeeded, for `/healthz`. */
  failedPolls(): FailedPolls | undefined {
    return this.failures.current();
  }

  /**
   * Shutdown: a poll under way decides no further request (the one in the pipeline finishes) and
   * records nothing more; no poll starts after this. Resolves when the poll under way has ended.
   */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.running?.catch(() => undefined);
  }

  /** Reads the whole (unfiltered) list without deciding anything: the ids listed, for the reconciler at start. */
  async list(): Promise<PollSummary> {
    const summary = emptySummary({});
    const progress: ScanProgress = { pages: 0 };
    for await (const page of scanPages(this.deps.client.loanRequestPages(), progress)) this.take(page, summary);
    this.finish(summary, progress);
    return summary;
  }

  private async run(hooks: PollHooks): Promise<PollSummary> {
    const { client, store, pipeline, clock, log } = this.deps;
    const filters = this.filtersNow();
    const summary = emptySummary(filters);
    if (this.stopping) return summary;
    const progress: ScanProgress = { pages: 0 };
    const startedMs = clock.now();
    let outagesInRow = 0;
    for await (const page of scanPages(client.loanRequestPages(filters), progress)) {
      if (this.stopping) return this.stopped(summary);
      const { pageIds, fresh } = this.take(page, summary);
      await hooks.beforePage?.(pageIds);
      // Oldest first within the page (ids grow with time), whatever order the service lists in:
      // first come, first served for the balance.
      for (const request of fresh.sort((a, b) => a.id - b.id)) {
        if (this.stopping) return this.stopped(summary);
        const result = await pipeline.process(request, 'poll');
        if (result.action === 'stopped') return this.stopped(summary);
        if (result.action !== 'deferred') {
          summary.processed += 1;
          outagesInRow = 0;
          continue;
        }
        summary.deferred += 1;
        // A request still waiting from an earlier failure was not tried: it says nothing now.
        if (result.deferred?.error === undefined) continue;
        outagesInRow = result.deferred.own ? 0 : outagesInRow + 1;
        if (outagesInRow >= OUTAGES_ENDING_A_POLL) throw result.deferred.error;
      }
    }
    this.finish(summary, progress);
    // The filters of a scan read to the end: what is absent from it and covered by them is gone.
    const coverage = progress.cut === undefined ? { filters } : {};
    await hooks.afterScan?.({ ids: summary.listedIds, complete: summary.complete, startedMs, ...coverage });
    store.state.set(LAST_POLL_KEY, new Date(clock.now()).toISOString(), clock.now());
    log.info(
      {
        listed: summary.listed,
        processed: summary.processed,
        deferred: summary.deferred,
        invalid: summary.invalid,
        pages: summary.pages,
        complete: summary.complete,
      },
      'poll done',
    );
    return summary;
  }

  /** A poll ended by shutdown: what it read is not a scan (nothing is settled from it), and it is not recorded as done. */
  private stopped(summary: PollSummary): PollSummary {
    summary.complete = false;
    this.deps.log.info(
      { processed: summary.processed, listed: summary.listed },
      'poll stopped for shutdown; the rest is decided after the restart',
    );
    return summary;
  }

  /**
   * The list filters for this poll. None while an offer awaits reconciliation: the reconciler
   * reads "not listed" as "gone", which only the whole list can tell.
   */
  private filtersNow(): LoanRequestFilters {
    const filters = this.deps.listFilters?.() ?? {};
    if (Object.keys(filters).length === 0) return filters;
    const unsettled = this.deps.store.offers.listByState(['intent', 'unknown']).some((offer) => !offer.dryRun);
    return unsettled ? {} : filters;
  }

  /** Counts a page into the summary; returns its ids and its requests not decided nor seen before in this poll. */
  private take(page: Page<LoanRequest>, summary: PollSummary): { pageIds: Set<number>; fresh: LoanRequest[] } {
    const { store, log } = this.deps;
    for (const issue of page.issues) log.warn({ issue: formatItemIssue(issue) }, 'loan request left out');
    summary.invalid += page.issues.length;
    const pageIds = new Set<number>();
    const fresh: LoanRequest[] = [];
    for (const request of page.items) {
      pageIds.add(request.id);
      // A list that shifts while it is read can show a request on two pages: counted once.
      if (summary.listedIds.has(request.id)) continue;
      summary.listedIds.add(request.id);
      summary.listed += 1;
      if (!store.decisions.has(request.id)) fresh.push(request);
    }
    return { pageIds, fresh };
  }

  private finish(summary: PollSummary, progress: ScanProgress): void {
    summary.pages = progress.pages;
    if (progress.cut) {
      summary.complete = false;
      const { reason, page } = progress.cut;
      const message =
        reason === 'vanished'
          ? 'the list shrank while it was read: a later page answered 404; scan ended there'
          : 'the list outgrew what its first count implies; scan stopped at the page bound';
      this.deps.log.info({ page, pagesRead: progress.pages, bound: progress.bound }, message);
    }
  }
}

function emptySummary(filters: LoanRequestFilters): PollSummary {
  return {
    listed: 0,
    processed: 0,
    deferred: 0,
    invalid: 0,
    pages: 0,
    listedIds: new Set(),
    complete: Object.keys(filters).length === 0,
    filters,
  };
}
