/**
 * The end of a candidate's shadow period: promoted only when its gain holds on what happened
 * while it ran in shadow. The period's requests are held out twice over (the candidate was
 * fitted before they came), so they are judged twice: its probabilities against the realised
 * defaults of the period's resolved loans (a lower Brier score than the strategy as it runs), and
 * its money as `train` judges it, backtested on the period in every borrower world against the
 * strategy as it runs (held-out-check.ts), beside what the shadow itself decided (the same
 * figures as `lendbot shadow report`).
 *
 * Nothing promotes on noise: the period must hold as many resolved loans as the fit was judged
 * on (retrain.min_resolved × held_out_share); until it does, the round keeps waiting.
 *
 * Where a live split runs the strategy against its candidate (split-evidence.ts), the split's
 * sequential test decides as soon as it says the difference is real, at any look, in the
 * period or after: promoted when the candidate returns more, refused when it returns less.
 */
import { DAY_MS } from '../clock/time-constants.js';
import { labelOf } from '../backtest/train/index.js';
import { points, prepareRecording } from '../backtest/index.js';
import { compileCandidate } from './managed-strategies.js';
import { createShadowDecisionsRepository, type ShadowComparisonRow } from '../store/shadow-decisions-repository.js';
import { databaseOf, msFromIso, type RetrainRound } from '../store/index.js';
import { calibrationOn, fundedText, heldOutCheck, losingText, type CalibrationFigures, type HeldOutFigures } from './candidate-evidence.js';
import { promote, storeRecording, type RoundDeps, type RunningStrategy } from './retrain-round.js';
import { splitEvidence, type SplitEvidence } from './split-evidence.js';
import { percentOneDecimal as pct } from '../log/plain-figures.js';

/** What the shadow period showed, as stored with the round. */
interface ShadowFigures {
  fromMs: number;
  requests: number;
  resolvedLoans: number;
  needed: number;
  /** The challenger's own decisions in the period (lendbot shadow report's row), when it decided any. */
  decisions: ShadowComparisonRow | null;
  /** Predicted against realised default on the period's resolved loans: the strategy as it runs, and the candidate. */
  calibration: { current: CalibrationFigures; candidate: CalibrationFigures } | null;
  heldOut: HeldOutFigures | null;
  /** The live split's sequential test, where the split runs the strategy against the candidate. */
  split?: SplitEvidence;
}

export type ShadowVerdict = { decision: 'waiting' | 'promoted' | 'refused'; reason: string; shadow: ShadowFigures };

/** Judges a waiting round whose shadow period is over, and records the verdict. Undefined while the period runs. */
export async function judgeShadow(deps: RoundDeps, round: RetrainRound, running: RunningStrategy): Promise<ShadowVerdict | undefined> {
  const nowMs = deps.clock.now();
  // next_at: the shadow's end, then a day after each look that found too few resolved loans.
  const dueAt = round.nextAt ?? round.shadowUntil;
  // The split's test is valid at every look: when it speaks, the round need not wait for its date.
  const split = splitEvidence(deps.store, deps.split, round);
  const speaks = split?.favours !== undefined && split.favours !== null;
  if (!speaks && (dueAt === null || nowMs < msFromIso(dueAt))) return undefined;
  const verdict = await shadowVerdict(deps, round, running, split);
  const nextAtMs = verdict.decision === 'waiting' ? nowMs + DAY_MS : nowMs + deps.settings.everyMs;
  if (verdict.decision === 'waiting') deps.repo.noteRound(round.id, verdict.reason, verdict.shadow, nextAtMs);
  else {
    deps.repo.transaction(() => {
      deps.repo.decideRound(round.id, verdict.decision as 'promoted' | 'refused', verdict.reason, verdict.shadow, nowMs, nextAtMs);
      if (verdict.decision === 'promoted' && round.candidateText !== null)
        promote(
          deps.repo,
          round.strategy,
          round.id,
          { text: round.candidateText, model: round.candidateModel, fileHash: running.fileHash },
          nowMs,
        );
    });
  }
  return verdict;
}

async function shadowVerdict(
  deps: RoundDeps,
  round: RetrainRound,
  running: RunningStrategy,
  split: SplitEvidence | undefined,
): Promise<ShadowVerdict> {
  const fromMs = msFromIso(round.startedAt);
  const recording = storeRecording(deps.store, deps.clock, deps.offerExpiryMs);
  const found = recording.entries.findIndex((entry) => entry.seenMs >= fromMs);
  const heldOutFrom = found < 0 ? recording.entries.length : found;
  const period = recording.entries.slice(heldOutFrom);
  const resolved = period.filter((entry) => labelOf(entry.line) !== null).length;
  const needed = Math.ceil(deps.settings.minResolved * deps.settings.heldOutShare);
  const decisions =
    createShadowDecisionsRepository(databaseOf(deps.store))
      .compare(fromMs)
      .find((row) => row.strategy === round.shadowName) ?? null;
  const shadow: ShadowFigures = {
    fromMs,
    requests: period.length,
    resolvedLoans: resolved,
    needed,
    decisions,
    calibration: null,
    heldOut: null,
    ...(split === undefined ? {} : { split }),
  };
  const base = (round.candidate as { base?: string } | null)?.base;
  if (base !== undefined && base !== running.strategy.contentHash)
    return { decision: 'refused', reason: 'the strategy changed while its candidate was in shadow; the next round fits on it', shadow };
  if (round.candidateText === null) return { decision: 'refused', reason: 'the round holds no candidate (a bug)', shadow };
  if (split?.favours === 'candidate')
    return { decision: 'promoted', reason: `the live split's sequential test says it returns more: ${split.text}`, shadow };
  if (split?.favours === 'current')
    return { decision: 'refused', reason: `the live split's sequential test says it returns less: ${split.text}`, shadow };
  if (resolved < needed) {
    const test = split === undefined ? '' : `; the live split's sequential test: ${split.text}`;
    return {
      decision: 'waiting',
      reason: `in shadow: ${resolved} of the ${needed} resolved loans needed from its period so far (retrain.min_resolved × held_out_share)${test}`,
      shadow,
    };
  }
  const candidate = await compileCandidate(round.candidateText, round.candidateModel, running.strategy.file);
  // What a calibration is for: honest probabilities on loans it never saw.
  const periodRecording = prepareRecording(period.map((entry) => entry.line));
  const calibration = {
    current: calibrationOn(periodRecording, running.strategy),
    candidate: calibrationOn(periodRecording, candidate),
  };
  shadow.calibration = calibration;
  if (!(calibration.candidate.brier < calibration.current.brier)) {
    return {
      decision: 'refused',
      reason: `over its shadow period it predicts the ${calibration.candidate.n} resolved loans no better (Brier ${calibration.candidate.brier.toFixed(4)} against ${calibration.current.brier.toFixed(4)})`,
      shadow,
    };
  }
  const heldOut = heldOutCheck(recording, heldOutFrom, candidate, running.strategy);
  shadow.heldOut = heldOut;
  if (!heldOut.holds) return { decision: 'refused', reason: `in its shadow period it loses in ${losingText(heldOut)}`, shadow };
  const judged = heldOut.worlds.length > 0 ? heldOut.worlds : [{ world: 'recorded', gain: heldOut.assumed.gain }];
  const weakest = judged.reduce((low, w) => (w.gain < low.gain ? w : low));
  if (weakest.gain < deps.settings.promoteMinGain) {
    return {
      decision: 'refused',
      reason: `in its shadow period it gains ${points(weakest.gain)} in ${weakest.world}, below retrain.promote_min_gain ${points(deps.settings.promoteMinGain)}`,
      shadow,
    };
  }
  return {
    decision: 'promoted',
    reason:
      `its gain held over its shadow period: Brier ${calibration.candidate.brier.toFixed(4)} against ${calibration.current.brier.toFixed(4)} ` +
      `on ${calibration.candidate.n} resolved loans (predicts ${pct(calibration.candidate.predicted)} where ${pct(calibration.candidate.realised)} happened, ` +
      `against ${pct(calibration.current.predicted)}), and no borrower world loses (weakest ${weakest.world} ${points(weakest.gain)}; ` +
      `${fundedText(heldOut)})`,
    shadow,
  };
}
