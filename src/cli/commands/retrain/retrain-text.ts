/** What `lendbot retrain` prints: a round's plan, the history of rounds and versions. */
import type { FitFigures, HeldOutFigures, RoundPlan } from '../../../retrain/index.js';
import type { RetrainRound, StrategyVersion } from '../../../store/index.js';
import { percentOneDecimal as pct } from '../../../log/plain-figures.js';

const points = (gain: number): string => `${gain >= 0 ? '+' : ''}${(gain * 100).toFixed(2)}`;

/** The fit and the held-out check in a few lines. */
function evidenceLines(fit: FitFigures | undefined, heldOut: HeldOutFigures | undefined): string[] {
  const lines: string[] = [];
  if (fit !== undefined) {
    lines.push(
      `  fit (${fit.method}) on ${fit.fitted} resolved loans, judged on the ${fit.heldOut} newest:`,
      `    as it runs:    predicts ${pct(fit.before.predicted)} default where ${pct(fit.before.realised)} happened, Brier ${fit.before.brier.toFixed(4)}`,
      `    refitted:      predicts ${pct(fit.after.predicted)} default where ${pct(fit.after.realised)} happened, Brier ${fit.after.brier.toFixed(4)}`,
    );
  }
  if (heldOut !== undefined) {
    lines.push(
      `  held out (${heldOut.requests} requests), net annualized return gain in points, candidate against the strategy as it runs:`,
    );
    const rows = heldOut.worlds.length > 0 ? heldOut.worlds : [{ world: 'recorded', ...heldOut.assumed }];
    for (const w of rows)
      lines.push(
        `    ${w.world.padEnd(12)} ${points(w.gain).padStart(7)} [${points(w.low)} to ${points(w.high)}], funded ${w.candidateFunded} against ${w.baselineFunded}`,
      );
  }
  return lines;
}

export function planText(plan: RoundPlan, applied: number | undefined): string {
  const what = applied === undefined ? 'would be' : `recorded as round #${applied}:`;
  const lines = [
    `Retraining ${plan.strategy}: ${plan.outcome.resolvedLoans} resolved loans in the store`,
    ...evidenceLines(plan.outcome.fit, plan.outcome.heldOut),
    `Decision ${what} ${plan.decision.toUpperCase()}: ${plan.reason}`,
  ];
  if (applied === undefined) lines.push('Nothing recorded (a dry run); --apply records the round.');
  return `${lines.join('\n')}\n`;
}

export function historyText(rounds: readonly RetrainRound[], versions: readonly StrategyVersion[]): string {
  if (rounds.length === 0 && versions.length === 0) return 'No retraining round yet.\n';
  const lines = ['Rounds, newest first:'];
  for (const round of rounds) {
    lines.push(`  #${round.id} ${round.strategy} ${round.startedAt}  ${round.decision.toUpperCase()}: ${round.reason}`);
    lines.push(
      ...evidenceLines((round.fit ?? undefined) as FitFigures | undefined, (round.heldOut ?? undefined) as HeldOutFigures | undefined).map(
        (l) => `  ${l}`,
      ),
    );
  }
  lines.push('Strategy versions (the newest of each strategy is in force; "file" is the strategy file as written):');
  const inForce = new Set<number>();
  const newest = new Map<string, number>();
  for (const version of versions) newest.set(version.strategy, version.id);
  for (const id of newest.values()) inForce.add(id);
  if (versions.length === 0) lines.push('  none: every strategy runs its file');
  for (const version of [...versions].reverse()) {
    const source = version.text === null ? 'file' : 'retrained';
    const how =
      version.kind === 'promoted'
        ? `promoted by round #${version.roundId ?? '?'}`
        : `rollback to ${version.restoredId === null ? 'the file' : `#${version.restoredId}`}`;
    lines.push(
      `  #${version.id} ${version.strategy} ${version.createdAt}  ${how} (${source})${inForce.has(version.id) ? '  IN FORCE' : ''}`,
    );
  }
  return `${lines.join('\n')}\n`;
}
