/** The human-readable explanation of a decision: what was known, how it scored, how it was priced. */
import type { LoanRequest } from '../../../service/index.js';
import { RISK_LEVEL_NAMES } from '../../../service/index.js';
import { formatRatio, type CompiledStrategy, type Contribution, type DecideOutcome } from '../../../engine/index.js';
import { formatTable } from './text-table.js';

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

export function formatExplanation(strategy: CompiledStrategy, request: LoanRequest, result: DecideOutcome): string {
  const { decision, needsPasses } = result;
  const out: string[] = [];
  out.push(`strategy  ${strategy.name} ${strategy.version} (hash ${strategy.contentHash}) ${strategy.file}`);
  out.push(
    `request   ${request.id}: ${request.loan_amount} USD over ${request.loan_terms} months, max rate ${formatRatio(request.max_interest_rate)}, risk ${RISK_LEVEL_NAMES[request.borrower_card_color] ?? request.borrower_card_color}`,
  );
  for (const pass of needsPasses) {
    const needs = (pass.needs ?? []).map((need) => (need.kind === 'banking_data' ? 'banking data' : `provider ${need.provider}`));
    out.push(`asked for ${needs.join(', ')} (${pass.reasons.join('; ')})`);
  }
  const features = Object.entries(decision.features);
  if (features.length > 0) {
    out.push('', 'features');
    out.push(formatTable(['feature', 'value'], features.map(([name, value]) => [name, valueText(value)]), '  ').trimEnd());
  }
  if (decision.contributions.length > 0) {
    out.push('', 'score');
    out.push(formatTable(['model', 'line', 'value', 'points', 'log-odds'], contributionRows(decision.contributions), '  ').trimEnd());
    const total = decision.contributions.reduce((sum, line) => sum + line.logOdds, 0);
    out.push(`  total log-odds ${total.toFixed(4)} -> probability ${formatRatio(decision.probability ?? 1 / (1 + Math.exp(-total)))}`);
  }
  out.push('');
  if (decision.action === 'offer' && result.action === 'skip') {
    out.push(`decision  SKIP: the strategy offers ${formatRatio(decision.rate ?? 0)}, the guard refuses`);
  } else if (decision.action === 'offer') {
    const required = decision.requiredRate === undefined ? '' : `, required ${formatRatio(decision.requiredRate)}`;
    const expected = decision.expectedReturn === undefined ? '' : `, expected annual return ${formatRatio(decision.expectedReturn)}`;
    out.push(`decision  OFFER at ${formatRatio(decision.rate ?? 0)}${required}${expected}, automate_fund ${decision.automateFund}`);
  } else {
    out.push(`decision  ${decision.action.toUpperCase()}`);
  }
  out.push('reasons', ...result.reasons.map((reason) => `  - ${reason}`));
  return `${out.join('\n')}\n`;
}
