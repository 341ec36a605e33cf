/**
 * What a daemon did with one webhook event, read from its database: the inbox row (stored,
 * processed, with what outcome) and the decision on the event's loan request. The daemon works
 * on its own time, so the report waits a bounded while for the event to be processed.
 */
import type { Sleep } from '../../../clock/clock.js';
import type { Store } from '../../../store/index.js';

export interface DaemonReport {
  stored: boolean;
  receivedAt: string | null;
  processed: boolean;
  outcome: string | null;
  decision: { action: string; rate: number | null; strategy: string | null; reasons: string[]; dryRun: boolean } | null;
  /** The same, for people, one line each. */
  lines: string[];
}

const POLL_EVERY_MS = 200;

export async function daemonReport(
  store: Store,
  webhookUuid: string,
  loanRequestId: number,
  options: { waitMs: number; sleep: Sleep },
): Promise<DaemonReport> {
  let waited = 0;
  let event = store.inbox.get(webhookUuid);
  while ((event === undefined || event.processedAt === null) && waited < options.waitMs) {
    await options.sleep(POLL_EVERY_MS);
    waited += POLL_EVERY_MS;
    event = store.inbox.get(webhookUuid);
  }
  const stored = event !== undefined;
  const processed = event !== undefined && event.processedAt !== null;
  const found = processed ? store.decisions.get(loanRequestId) : undefined;
  const decision =
    found === undefined
      ? null
      : { action: found.action, rate: found.rate, strategy: found.strategy, reasons: found.reasons, dryRun: found.dryRun };
  const lines: string[] = [];
  if (event === undefined) lines.push(`the event is not in the inbox after ${options.waitMs / 1000} s`);
  else {
    lines.push(`stored in the inbox at ${event.receivedAt}`);
    if (!processed) lines.push(`not processed after ${options.waitMs / 1000} s (lendbot status shows the inbox; the daemon log says why)`);
    else lines.push(`processed at ${event.processedAt}: ${outcomeText(event.outcome)}`);
  }
  if (decision !== null) {
    const rate = decision.rate === null ? '' : ` at ${decision.rate}`;
    lines.push(
      `decision on loan request ${loanRequestId}: ${decision.action}${rate} by ${decision.strategy ?? 'an agent'}${decision.dryRun ? ' (dry run)' : ''}: ${decision.reasons.join('; ')}`,
    );
  }
  return { stored, receivedAt: event?.receivedAt ?? null, processed, outcome: event?.outcome ?? null, decision, lines };
}

function outcomeText(outcome: string | null): string {
  if (outcome === 'not listed') return 'not listed: the marketplace has no such open loan request, so the event was dropped as unknown';
  if (outcome === 'duplicate: already decided') return 'already decided earlier: nothing new was done';
  return outcome ?? 'no outcome';
}
