/**
 * How a few log lines read on a terminal: each decision as one line in plain words, the minute's
 * summary, and lines a decision line already says folded away. Everything here works on the
 * logged record (the JSON line, parsed), so the JSON written off a terminal is the same whatever
 * is decided here; the pretty stream in logger.ts asks `terminalText` for each line.
 */
import { otherReason, type DecisionReason } from '../domain/decision-reason.js';
import { reasonWords, skipReasonWords } from './human-reasons.js';
import { counted, dollars, percent, riskLevelName } from './plain-figures.js';

/** A log record as pino wrote it (JSON, parsed). */
export type LogRecord = Record<string, unknown>;

/** The message of the pipeline's decision lines (src/daemon/pipeline.ts). */
const DECIDED_OFFER = 'decided: offer';
const DECIDED_SKIP = 'decided: skip';
/** The message of the minute's summary (src/ops/terminal-summary.ts). */
export const SUMMARY_MESSAGE = 'summary';

/** The fields of the summary line: counts since the previous summary and since start, money in cents. */
export interface SummaryFields {
  requests: number;
  offers: number;
  funded: number;
  totalRequests: number;
  totalOffers: number;
  totalFunded: number;
  balanceCents: number;
  freeCents: number;
}

/**
 * Per-request lines a terminal shows only at level debug, because the decision line says what
 * matters: "webhook received" came for nearly every request (two thirds of a busy terminal) and
 * "offer placed" comes with every "decided: offer". Off a terminal they stay info lines, as log
 * processors (and test/daemon/npm-start.test.ts) read them; the webhook metrics count receipts.
 */
const FOLDED_ON_TERMINAL: ReadonlySet<string> = new Set(['webhook received', 'offer placed']);

/**
 * The text a terminal shows for `record` in place of its message and fields; undefined to show
 * it as pino-pretty does; null to leave it out (unless `verbose`).
 */
export function terminalText(record: LogRecord, verbose = false): string | null | undefined {
  const message = record.msg;
  if (message === DECIDED_OFFER) return offerText(record);
  if (message === DECIDED_SKIP) return skipText(record);
  if (message === SUMMARY_MESSAGE && typeof record.requests === 'number') return summaryText(record as unknown as SummaryFields);
  if (typeof message === 'string' && FOLDED_ON_TERMINAL.has(message) && !verbose) return null;
  return undefined;
}

function requestId(record: LogRecord): string {
  return `#${String(record.loanRequestId ?? '?')}`;
}

/**
 * A decision line's reasons as values (`reasonValues`, written beside the texts). A line without
 * them (written by an older lendbot) shows its texts as they are.
 */
function reasonsOf(record: LogRecord): DecisionReason[] {
  if (Array.isArray(record.reasonValues)) return record.reasonValues as DecisionReason[];
  return Array.isArray(record.reasons) ? record.reasons.map((text) => otherReason(String(text))) : [];
}

/** `offer  #1234  $536.00 at 22.8 %  (balanced, risk low)`, and what became of it when not plain. */
function offerText(record: LogRecord): string {
  const amount = typeof record.totalAmount === 'string' || typeof record.totalAmount === 'number' ? `${dollars(record.totalAmount)} ` : '';
  const rate = typeof record.rate === 'number' ? `at ${percent(record.rate)}` : '';
  const about = [
    typeof record.strategy === 'string' ? record.strategy : undefined,
    typeof record.riskLevel === 'number' ? `risk ${riskLevelName(record.riskLevel)}` : undefined,
    record.dryRun === true ? 'dry run' : undefined,
  ].filter((part) => part !== undefined);
  // An offer whose outcome is unknown, or that was already made, says so; a plain one needs no more.
  const fate = reasonsOf(record).find((reason) => reason.code === 'offer_outcome_unknown' || reason.code === 'offer_already_recorded');
  const parts = [`offer  ${requestId(record)}  ${amount}${rate}`.trimEnd(), about.length > 0 ? `(${about.join(', ')})` : ''];
  if (fate !== undefined) parts.push(`· ${reasonWords(fate)}`);
  return parts.filter((part) => part !== '').join('  ');
}

/** `skip   #1235  not enough free cash: $299.50 free, the offer needs $536.00`. */
function skipText(record: LogRecord): string {
  return `skip   ${requestId(record)}  ${skipReasonWords(reasonsOf(record))}`;
}

function counts(requests: number, offers: number, funded: number): string {
  return `${counted(requests, 'request')}, ${counted(offers, 'offer')}, ${funded} funded`;
}

/** `summary  last minute: 41 requests, 6 offers, 2 funded · since start: ... · balance $4,812.00 · free $1,290.00`. */
function summaryText(fields: SummaryFields): string {
  return [
    `summary  last minute: ${counts(fields.requests, fields.offers, fields.funded)}`,
    `since start: ${counts(fields.totalRequests, fields.totalOffers, fields.totalFunded)}`,
    `balance ${dollars(fields.balanceCents / 100)}`,
    `free ${dollars(fields.freeCents / 100)}`,
  ].join(' · ');
}
