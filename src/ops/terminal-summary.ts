/**
 * The minute's summary on a terminal: requests decided, offers, offers funded (in the last minute
 * and since start), the balance and the free cash, as one line every minute of real time:
 *
 *   summary  last minute: 41 requests, 6 offers, 2 funded · since start: ... · balance $4,812.00 · free $1,290.00
 *
 * Only on a terminal: a person watching `lendbot run` wants to know it is alive and what it did;
 * JSON logs off a terminal stay as they were (log processors count decision lines themselves, and
 * `lendbot status` and /metrics give the figures). The figures come from indexed counts and the
 * status report (src/ops/status-report.ts), never from a scan of the decisions.
 *
 * Counting windows are in the market's clock, where every stored time is (the sandbox runs it a
 * day a second); the minute is real time, as a person reads it: the job runs on node-cron, which
 * keeps wall-clock time whatever clock the daemon trades on.
 */
import type { Clock } from '../clock/clock.js';
import type { Job } from '../clock/scheduler.js';
import { onTerminal, type Logger } from '../log/logger.js';
import { SUMMARY_MESSAGE, type SummaryFields } from '../log/terminal-lines.js';
import type { RiskLimits } from '../risk/index.js';
import type { Store } from '../store/index.js';
import { buildStatusReport } from './status-report.js';

export interface TerminalSummaryDeps {
  store: Store;
  /** The clock stored times are in (the market's). */
  clock: Clock;
  limits: () => RiskLimits;
  dryRun: boolean;
  log: Logger;
}

/** Where a counting window starts: a time in the market's clock and the funded offers then. */
interface Mark {
  atMs: number;
  funded: number;
}

export class TerminalSummary {
  private readonly start: Mark;
  private previous: Mark;

  /** The figures count from now ("since start"). */
  constructor(private readonly deps: TerminalSummaryDeps) {
    this.start = this.mark();
    this.previous = this.start;
  }

  /** Logs the summary since the previous one (or since start) and returns its figures. */
  report(): SummaryFields {
    const { store, clock, limits, dryRun, log } = this.deps;
    const now = this.mark();
    const window = store.decisions.countByAction({ sinceMs: this.previous.atMs, untilMs: now.atMs });
    const total = store.decisions.countByAction({ sinceMs: this.start.atMs, untilMs: now.atMs });
    const status = buildStatusReport({ store, nowMs: clock.now(), limits: limits(), budgets: [], dryRun });
    const fields: SummaryFields = {
      requests: window.offer + window.skip,
      offers: window.offer,
      funded: now.funded - this.previous.funded,
      totalRequests: total.offer + total.skip,
      totalOffers: total.offer,
      totalFunded: now.funded - this.start.funded,
      balanceCents: status.balanceCents,
      freeCents: status.freeCents,
    };
    this.previous = now;
    log.info(fields, SUMMARY_MESSAGE);
    return fields;
  }

  private mark(): Mark {
    // A window ends before this millisecond: a decision made at it, before or after this summary,
    // counts once, in the next one.
    return { atMs: this.deps.clock.now(), funded: this.deps.store.offers.listByState(['funded']).length };
  }
}

/**
 * The summary as a scheduled job, to start with the daemon's, or no job when `log` is not a
 * terminal. The first summary comes a minute after this call, then one a minute: the job runs at
 * the second of the minute it was made in (`now` is the real time, for tests).
 */
export function terminalSummaryJobs(deps: TerminalSummaryDeps, now: () => number = Date.now): Job[] {
  if (!onTerminal(deps.log)) return [];
  const summary = new TerminalSummary(deps);
  const second = new Date(now()).getSeconds();
  return [{ name: 'summary', schedule: `${second} * * * * *`, run: async () => void summary.report() }];
}
