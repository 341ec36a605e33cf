/** The human-readable explanation of a decision: what was known, how it scored, how it was priced. */
import { type LoanRequest, RISK_LEVEL_NAMES } from '../../../domain/index.js';
import { formatRatio, type CompiledStrategy, type Contribution, type DecideOutcome } from '../../../engine/index.js';
import { curvePoint, curveRates, type CurvePoint, type PriceCurve } from '../../../engine/pricing/expected-profit.js';
import { formatTable } from './text-table.js';
import { logistic } from '../../../math/index.js';
import { calibrationUsedText, marketUsedText } from '../../../engine/market/index.js';
import { reasonText, type LevelUncertainReason } from '../../../domain/decision-reason.js';
import { reasonWords } from '../../../log/human-reasons.js';

/** How far from the chosen rate the "why" line looks on each side. */
const WHY_DISTANCE = 0.02;

function valueText(value: unknown): string {
  if (value === null || value === undefined) return '(absent)';
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : value.toFixed(4);
  return String(value);
}

function contributionRows(contributions: readonly Contribution[]): string[][] {
  return contributions.map((line) => [
    line.model,
    line.feature,
    line.feature.includes('.') ? '' : valueText(line.value),
    `${line.points.toFixed(2)}${line.missing ? ' (missing)' : ''}`,
    line.logOdds.toFixed(4),
  ]);
}

function usd(cents: number): string {
  return (cents / 100).toFixed(2);
}

function pointText(point: CurvePoint): string {
  return `at ${formatRatio(point.rate)} P(accept) ${point.acceptProbability.toFixed(2)} × ${usd(point.profitCents)} = ${usd(point.valueCents)} USD`;
}

/** One line on why the chosen rate beats its neighbours on the curve. */
function whyLine(curve: PriceCurve, chosen: CurvePoint): string {
  const higher = chosen.rate < curve.cap ? curvePoint(curve, Math.min(curve.cap, chosen.rate + WHY_DISTANCE)) : undefined;
  const lower = chosen.rate > curve.low ? curvePoint(curve, Math.max(curve.low, chosen.rate - WHY_DISTANCE)) : undefined;
  const parts: string[] = [];
  if (higher) parts.push(`higher rates lose more borrowers than they earn (${pointText(higher)})`);
  else parts.push(`the cap binds: up to ${curve.capName} ${formatRatio(curve.cap)} each rise earns more than the borrowers it loses`);
  if (lower) parts.push(`lower rates win fewer extra borrowers than the profit they give up (${pointText(lower)})`);
  else parts.push('any lower rate would earn less than the hurdle');
  return `  why: ${parts.join('; ')}`;
}

/** Why the rate is not expected profit's own: the learned level's uncertainty moved it (pricing.level_uncertainty). */
function movedLine(curve: PriceCurve, chosenRate: number, level: LevelUncertainReason): string {
  const ep = Number(level.ep);
  return `  why: ${reasonWords(level)}, ${pointText(curvePoint(curve, ep))}; offered ${formatRatio(chosenRate)}`;
}

/**
 * The expected-profit curve from break-even to the cap, the chosen rate marked. `level`: the
 * decision's level-uncertainty reason, when the learned level's uncertainty priced it.
 */
export function formatPriceCurve(curve: PriceCurve, chosenRate: number, level?: LevelUncertainReason): string[] {
  const rows = curveRates(curve, chosenRate).map((rate) => {
    const point = curvePoint(curve, rate);
    return [
      formatRatio(rate),
      point.acceptProbability.toFixed(2),
      usd(point.profitCents),
      usd(point.valueCents),
      rate === chosenRate ? '<- chosen' : '',
    ];
  });
  const hurdle = curve.targetReturn === 0 ? 'profit' : `profit above the ${formatRatio(curve.targetReturn)} hurdle`;
  return [
    `price curve (expected_profit: P(accept) × ${hurdle}; break-even ${formatRatio(curve.breakEvenRate)}, cap ${curve.capName} ${formatRatio(curve.cap)})`,
    formatTable(['rate', 'P(accept)', 'profit USD', 'P × profit USD', ''], rows, '  ').trimEnd(),
    level !== undefined && Number(level.ep) !== chosenRate
      ? movedLine(curve, chosenRate, level)
      : whyLine(curve, curvePoint(curve, chosenRate)),
  ];
}

export function formatExplanation(strategy: CompiledStrategy, request: LoanRequest, result: DecideOutcome): string {
  const { decision, needsPasses } = result;
  const out: string[] = [];
  out.push(`strategy  ${strategy.name} ${strategy.version} (hash ${strategy.contentHash}) ${strategy.file}`);
  out.push(
    `request   ${request.id}: ${request.loan_amount} USD over ${request.loan_terms} months, max rate ${formatRatio(request.max_interest_rate)}, risk ${RISK_LEVEL_NAMES[request.borrower_card_color] ?? request.borrower_card_color}`,
  );
  for (const pass of needsPasses) {
    const needs = (pass.needs ?? []).map((need) => (need.kind === 'provider' ? `provider ${need.provider}` : need.kind.replace('_', ' ')));
    out.push(`asked for ${needs.join(', ')} (${pass.reasons.map(reasonText).join('; ')})`);
  }
  const features = Object.entries(decision.features);
  if (features.length > 0) {
    out.push('', 'features');
    out.push(
      formatTable(
        ['feature', 'value'],
        features.map(([name, value]) => [name, valueText(value)]),
        '  ',
      ).trimEnd(),
    );
  }
  if (decision.contributions.length > 0) {
    out.push('', 'score');
    out.push(formatTable(['model', 'line', 'value', 'points', 'log-odds'], contributionRows(decision.contributions), '  ').trimEnd());
    const total = decision.contributions.reduce((sum, line) => sum + line.logOdds, 0);
    out.push(`  total log-odds ${total.toFixed(4)} -> probability ${formatRatio(decision.probability ?? logistic(total))}`);
  }
  if (decision.priceCurve && decision.rate !== undefined) {
    const level = decision.reasons.find((reason): reason is LevelUncertainReason => reason.code === 'price_level_uncertain');
    out.push('', ...formatPriceCurve(decision.priceCurve, decision.rate, level));
  }
  const market = marketUsedText(decision);
  if (market !== undefined) out.push(`  priced with ${market}`);
  const calibration = calibrationUsedText(decision);
  if (calibration !== undefined) out.push(`  probability from the ${calibration}`);
  out.push('');
  if (decision.action === 'offer' && result.action === 'skip') {
    out.push(`decision  SKIP: the strategy offers ${formatRatio(decision.rate ?? 0)}, the guard refuses`);
  } else if (decision.action === 'needs_data' && result.guard?.allowed === false) {
    out.push('decision  SKIP: the guard refuses any offer of this amount, so no data was bought and no price searched');
  } else if (decision.action === 'offer') {
    const requiredName = decision.priceCurve ? 'break-even' : 'required';
    const required = decision.requiredRate === undefined ? '' : `, ${requiredName} ${formatRatio(decision.requiredRate)}`;
    const expected = decision.expectedReturn === undefined ? '' : `, expected annual return ${formatRatio(decision.expectedReturn)}`;
    out.push(`decision  OFFER at ${formatRatio(decision.rate ?? 0)}${required}${expected}, automate_fund ${decision.automateFund}`);
  } else {
    out.push(`decision  ${decision.action.toUpperCase()}`);
  }
  out.push('reasons', ...result.reasons.map((reason) => `  - ${reasonText(reason)}`));
  return `${out.join('\n')}\n`;
}
