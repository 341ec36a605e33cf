/** How `lendbot decisions` prints: a table row per decision, JSON lines, and one decision in full. */
import { decisionJson } from '../../../domain/decision-json.js';
import { reasonsSentence, reasonWords, skipReasonWords } from '../../../log/human-reasons.js';
import { formatCents, RISK_LEVEL_NAMES } from '../../../domain/index.js';
import { offerJson, type DecisionCalibration, type OfferView, type StoredLoan } from '../../../store/index.js';
import type { DecisionView } from './decision-view.js';

const COLUMNS: ReadonlyArray<readonly [string, number, 'left' | 'right']> = [
  ['decided at', 19, 'left'],
  ['request', 8, 'right'],
  ['action', 6, 'left'],
  ['amount', 9, 'right'],
  ['risk', 7, 'left'],
  ['rate', 7, 'right'],
  ['outcome', 9, 'left'],
  ['decided by', 14, 'left'],
];

function cells(values: readonly string[]): string {
  return COLUMNS.map(([, width, align], i) => {
    const value = (values[i] ?? '').slice(0, width);
    return align === 'right' ? value.padStart(width) : value.padEnd(width);
  }).join('  ');
}

export const TABLE_HEADER = `${cells(COLUMNS.map(([title]) => title))}  why`;

/** Rates are kept in the API's unit (0.228); people read them as percentages. */
function percent(rate: number | null): string {
  return rate === null ? '-' : `${(rate * 100).toFixed(2)}%`;
}

function dollars(cents: number | null): string {
  return cents === null ? '-' : `$${formatCents(cents)}`;
}

function riskName(level: number | null): string {
  return level === null ? '-' : (RISK_LEVEL_NAMES[level] ?? String(level));
}

/** The strategy that decided, or the agent that did. */
function decidedBy(view: DecisionView): string {
  return view.source === 'strategy' ? (view.decision.strategy ?? '-') : view.source;
}

export function tableRow(view: DecisionView): string {
  const { decision } = view;
  const row = cells([
    decision.decidedAt.slice(0, 19),
    String(decision.loanRequestId),
    `${decision.action}${decision.dryRun ? '*' : ''}`,
    dollars(view.amountCents),
    riskName(view.riskLevel),
    percent(decision.rate),
    view.outcome,
    decidedBy(view),
  ]);
  // A skip says the reason that decided it in plain words (as `lendbot run` on a terminal and the
  // dashboard do); an offer its score and price reasons as a sentence. --json keeps the machine reasons.
  const why = decision.action === 'skip' ? skipReasonWords(decision.reasonValues) : reasonsSentence(decision.reasonValues);
  return `${row}  ${why}`;
}

/** One JSON line of the list: the one decision shape (docs/decision-shape.md) and what became of it. */
export function jsonLine(view: DecisionView): Record<string, unknown> {
  const { decision } = view;
  return {
    ...decisionJson(decision),
    amount_cents: view.amountCents,
    risk_level: view.riskLevel,
    outcome: view.outcome,
    content_hash: decision.contentHash,
  };
}

/** Everything stored about one decision (`--id --json`). */
export function fullJson(view: DecisionView): Record<string, unknown> {
  const { decision } = view;
  return {
    ...jsonLine(view),
    features: decision.features,
    params: decision.params,
    timings: decision.timings,
    previous: decision.previous,
    ...(decision.calibration === undefined ? {} : { calibration: decision.calibration }),
    offer: view.offer === undefined ? null : offerJson(view.offer),
    loan: view.loan === undefined ? null : loanJson(view.loan),
  };
}

function loanJson(loan: StoredLoan): Record<string, unknown> {
  return {
    id: loan.id,
    list: loan.listStatus,
    status: loan.status,
    loan_amount_cents: loan.loanAmountCents,
    remaining_cents: loan.remainingCents,
    interest_rate: loan.interestRate,
    paid_off: loan.paidOff,
  };
}

/** One decision in full, for people (`--id`). */
export function detailText(view: DecisionView): string {
  const { decision, offer, loan } = view;
  const lines: Array<readonly [string, string]> = [
    ['request', `${decision.loanRequestId}, ${dollars(view.amountCents)}, risk ${riskName(view.riskLevel)}`],
    ['decided at', `${decision.decidedAt}${decision.dryRun ? ' (dry run)' : ''}`],
    [
      'decided by',
      view.source === 'strategy'
        ? `strategy ${decision.strategy ?? '- (none got to decide)'}${decision.contentHash === null ? '' : ` (file ${decision.contentHash.slice(0, 12)})`}`
        : view.source,
    ],
    ['action', decision.action === 'offer' ? `offer at ${percent(decision.rate)}` : 'skip'],
    ['probability', decision.probability === null ? '-' : decision.probability.toFixed(4)],
    ...(decision.calibration === undefined ? [] : [['calibration', calibrationText(decision.calibration)] as const]),
    ['outcome', view.outcome],
    ['guard', decision.guardCode ?? '-'],
    ['placement', decision.placement ?? '-'],
    ['offer', offer === undefined ? '-' : offerText(offer)],
    ['loan', loan === undefined ? '-' : loanText(loan)],
    [
      'timings',
      Object.entries(decision.timings)
        .map(([step, ms]) => `${step} ${ms} ms`)
        .join(', ') || '-',
    ],
  ];
  const width = Math.max(...lines.map(([label]) => label.length));
  const head = lines.map(([label, value]) => `${label.padEnd(width)}  ${value}`);
  return [
    ...head,
    'reasons:',
    // In words; `--id --json` keeps the machine text.
    ...(decision.reasonValues.length === 0 ? ['  -'] : decision.reasonValues.map((reason) => `  ${reasonWords(reason)}`)),
    ...block('features', decision.features),
    ...block('params', decision.params),
    ...(decision.previous === null ? [] : block("replaced decision (the strategies')", decision.previous)),
  ].join('\n');
}

/** Which learned default level gave the probability: its version and the evidence it rested on. */
function calibrationText(used: DecisionCalibration): string {
  return `learned v${used.version} (${used.loans} loans, ${used.defaults} defaults, ${used.loanMonths} loan-months); score before it ${(1 - used.scoreDefault).toFixed(4)}`;
}

function offerText(offer: OfferView): string {
  const id = offer.serviceOfferId === null ? '' : `, service offer ${offer.serviceOfferId}`;
  const text = offer.serviceText === null ? '' : `, "${offer.serviceText}"`;
  const reserving = offer.reserving ? ', reserving its amount' : '';
  return `${offer.state}${offer.dryRun ? ' (dry run)' : ''}${reserving} at ${percent(offer.rate)}, ${dollars(offer.totalAmountCents)}${offer.automateFund ? ', automate_fund' : ''}${id}, created ${offer.createdAt}, updated ${offer.updatedAt}${text}`;
}

function loanText(loan: StoredLoan): string {
  return `${loan.id}, ${loan.listStatus} (${loan.status}), ${dollars(loan.loanAmountCents)} at ${percent(loan.interestRate)}, ${dollars(loan.remainingCents)} still owed${loan.paidOff ? ', paid off' : ''}`;
}

/** A JSON value under a title, one `key: value` a line for an object. */
function block(title: string, value: unknown): string[] {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const entries = Object.entries(value);
    if (entries.length === 0) return [`${title}: -`];
    return [`${title}:`, ...entries.map(([key, item]) => `  ${key}: ${JSON.stringify(item)}`)];
  }
  return [`${title}: ${JSON.stringify(value)}`];
}
