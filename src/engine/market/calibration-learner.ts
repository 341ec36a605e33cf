/**
 * The learned default level (docs/market-model.md, "Learning the default level"): a Bayesian
 * logistic recalibration of a strategy's default probability, learned from its own funded loans,
 *
 *   logit P(default) = a + b · logit(pd_score),   a ~ N(a0, σa²),  b ~ N(1, σb²)
 *
 * with pd_score the default probability the score gives before this calibration (after a seed
 * calibration, when the strategy keeps one). Before any evidence it is the score, with the prior's
 * uncertainty about the level (σa) and the slope (σb) that robust pricing carries into the price.
 *
 * Each funded loan is evidence from its first instalment on: a loan that has paid k of its T
 * instalments and is still running contributes 1 − p·F(k/T) (default-timing.ts: the share of a
 * term's defaults that happen by then), a defaulted loan p, a repaid loan 1 − p. The fit is the
 * posterior mode (Newton's method on every loan the strategy has, from the last mode) with the
 * Laplace covariance; loans whose fate is final are kept as counts per small band of logit(pd_score)
 * and running loans one by one, so the state is bounded by the open book, not by history.
 * Refits happen when evidence changed, at most once a day of the clock that feeds it, so a
 * replay and a daemon fed the same fates on the same days hold the same posterior, bit for bit.
 */
import { DAY_MS } from '../../clock/time-constants.js';
import { addDefault, addExposure, defaultShareBy, emptyTiming, type DefaultTiming } from './default-timing.js';
import { logistic as sigmoid, logit } from '../../math/index.js';
import type { Posterior } from './logistic-correction.js';
import { addPair, emptyRelation, type AnchorRelation } from './anchor-relation.js';

/** A strategy's `score.calibration: { method: learned }`, compiled. */
export interface CalibrationSettings {
  /** Prior sd of the level a, in log-odds of default. */
  levelSd: number;
  /** Prior sd of the slope b around 1. */
  slopeSd: number;
  /** Prior centre of a (0: the score's own level). */
  levelMean: number;
}

/** A funded loan still running: its score's logit(pd), term and instalments paid on time. */
export interface RunningLoan {
  key: string;
  x: number;
  term: number;
  paid: number;
}

/** What the learner rests on. */
export interface CalibrationEvidence {
  loans: number;
  defaults: number;
  /** Months of loan life observed (instalments paid plus missed ones): the evidence `blend` weighs. */
  loanMonths: number;
}

/** Everything a calibration learner knows, as plain data (stored by the daemon). */
export interface CalibrationState {
  /** Increments on each refit: which calibration priced a decision. */
  version: number;
  /** Over [a, b]. */
  posterior: Posterior;
  evidence: CalibrationEvidence;
  running: RunningLoan[];
  /** Loans whose fate is final, by band of x: [band, defaults, repaid]. */
  finished: Array<[number, number, number]>;
  timing: DefaultTiming;
  /** Evidence came in since the last fit. */
  dirty: boolean;
  /** The clock day (ms since epoch / DAY_MS, floored) of the last fit; null before any. */
  fittedDay: number | null;
  /** With `history_anchor`: whether past prices track the score, across the requests read (anchor-relation.ts; absent in older stores). */
  anchorRelation?: AnchorRelation;
}

/** Width of a band of x that final fates are counted in (log-odds). */
const BAND = 0.05;
const NEWTON_STEPS = 12;
const MIN_SLOPE = 0.05;
const MAX_SLOPE = 10;

export function priorCalibration(settings: CalibrationSettings): Posterior {
  return { mean: [settings.levelMean, 1], cov: [settings.levelSd ** 2, 0, 0, settings.slopeSd ** 2] };
}

function initialCalibrationState(settings: CalibrationSettings): CalibrationState {
  return {
    version: 0,
    posterior: priorCalibration(settings),
    evidence: { loans: 0, defaults: 0, loanMonths: 0 },
    running: [],
    finished: [],
    timing: emptyTiming(),
    dirty: false,
    fittedDay: null,
  };
}

/** The predicted default's log-odds at `pdScore`: mean and variance under the posterior. */
export function levelAt(posterior: Posterior, pdScore: number): { mean: number; variance: number; x: number } {
  const x = logit(pdScore);
  const [a = 0, b = 1] = posterior.mean;
  const [vaa = 0, vab = 0, , vbb = 0] = posterior.cov;
  return { x, mean: a + b * x, variance: Math.max(0, vaa + 2 * x * vab + x * x * vbb) };
}

/**
 * The posterior's mean default probability, E[σ(η)] for η ~ N(mean, variance), in log-odds:
 * MacKay's probit approximation σ(mean / √(1 + π·variance/8)), within 0.9 points of probability
 * of the exact integral for variances up to 3. What is priced with (compile-calibration.ts,
 * learnedMap): below one half it is above σ(mean), the more so the less is known.
 */
export function meanDefaultLogOdds(mean: number, variance: number): number {
  return mean / Math.sqrt(1 + (Math.PI * Math.max(0, variance)) / 8);
}

/** One evidence term of the fit: the gradient and curvature of its log-likelihood in η = a + b·x. */
interface Term {
  x: number;
  gradient: number;
  curvature: number;
}

/** Log-likelihood derivatives for `defaults` defaults, `repaid` repaid and one running loan at share F. */
function termsAt(p: number, defaults: number, repaid: number): { gradient: number; curvature: number } {
  return { gradient: defaults * (1 - p) - repaid * p, curvature: (defaults + repaid) * p * (1 - p) };
}

function runningTerm(p: number, share: number): { gradient: number; curvature: number } {
  const d = 1 - p * share;
  const spread = p * (1 - p);
  // d²/dη² log(1 − pF) = −F p(1−p)(1 − 2p + p²F) / (1 − pF)²; floored at 0 where it turns (p > ½):
  // the prior keeps the Newton step's matrix positive.
  return { gradient: (-share * spread) / d, curvature: Math.max(0, (share * spread * (1 - 2 * p + p * p * share)) / (d * d)) };
}

/** The posterior mode and Laplace covariance over every loan in `state`, from `start`. */
export function fitCalibration(state: CalibrationState, settings: CalibrationSettings, start: readonly number[]): Posterior {
  const share = defaultShareBy(state.timing);
  const prior = priorCalibration(settings);
  const pa = 1 / settings.levelSd ** 2;
  const pb = 1 / settings.slopeSd ** 2;
  let a = start[0] ?? settings.levelMean;
  let b = start[1] ?? 1;
  let cov = prior.cov;
  const running = state.running.filter((loan) => loan.paid > 0).map((loan) => ({ x: loan.x, share: share(loan.paid / loan.term) }));
  for (let step = 0; step < NEWTON_STEPS; step += 1) {
    let ga = -pa * (a - settings.levelMean);
    let gb = -pb * (b - 1);
    let haa = pa;
    let hab = 0;
    let hbb = pb;
    const add = ({ x, gradient, curvature }: Term): void => {
      ga += gradient;
      gb += gradient * x;
      haa += curvature;
      hab += curvature * x;
      hbb += curvature * x * x;
    };
    for (const [band, defaults, repaid] of state.finished) {
      const x = band * BAND;
      add({ x, ...termsAt(sigmoid(a + b * x), defaults, repaid) });
    }
    for (const loan of running) add({ x: loan.x, ...runningTerm(sigmoid(a + b * loan.x), loan.share) });
    const det = haa * hbb - hab * hab;
    cov = [hbb / det, -hab / det, -hab / det, haa / det];
    let da = (hbb * ga - hab * gb) / det;
    let db = (haa * gb - hab * ga) / det;
    // Damped: a step longer than 2 log-odds is shortened (a far start on little evidence).
    const length = Math.hypot(da, db);
    if (length > 2) {
      da *= 2 / length;
      db *= 2 / length;
    }
    a += da;
    b = Math.min(MAX_SLOPE, Math.max(MIN_SLOPE, b + db));
    if (length < 1e-9) break;
  }
  return { mean: [a, b], cov };
}

/** A strategy's calibration learner: its evidence, fed as loans are funded, pay and default. */
export class CalibrationLearner {
  private readonly byKey = new Map<string, RunningLoan>();
  private readonly bands = new Map<number, [number, number, number]>();

  constructor(
    public settings: CalibrationSettings,
    private state: CalibrationState = initialCalibrationState(settings),
  ) {
    for (const loan of state.running) this.byKey.set(loan.key, loan);
    for (const band of state.finished) this.bands.set(band[0], band);
  }

  /** The state, to store or show (a copy). */
  get snapshotState(): CalibrationState {
    return structuredClone(this.state);
  }

  get version(): number {
    return this.state.version;
  }

  get evidence(): CalibrationEvidence {
    return this.state.evidence;
  }

  /** What pricing reads: replaced, never changed, on a refit. */
  get posterior(): Posterior {
    return this.state.posterior;
  }

  /** A loan funded at `pdScore` (the score's default probability before this calibration). */
  funded(key: string, pdScore: number, term: number): void {
    if (this.byKey.has(key) || !(term > 0) || !Number.isFinite(pdScore)) return;
    const loan: RunningLoan = { key, x: logit(pdScore), term, paid: 0 };
    this.byKey.set(key, loan);
    this.state.running.push(loan);
    this.state.evidence.loans += 1;
  }

  /** Instalment `month` (1-based) paid on time; the last one repays the loan. */
  paid(key: string, month: number): void {
    const loan = this.byKey.get(key);
    if (loan === undefined || month <= loan.paid) return;
    addExposure(this.state.timing, loan.paid / loan.term, month / loan.term);
    this.state.evidence.loanMonths += month - loan.paid;
    loan.paid = Math.min(month, loan.term);
    if (loan.paid >= loan.term) this.finish(loan, false);
    this.state.dirty = true;
  }

  /** Instalment `month` missed (or the loan in collection or default): the loan defaulted there. */
  defaulted(key: string, month: number): void {
    const loan = this.byKey.get(key);
    if (loan === undefined) return;
    const at = Math.max(loan.paid + 1, Math.min(month, loan.term));
    addExposure(this.state.timing, loan.paid / loan.term, at / loan.term);
    addDefault(this.state.timing, at / loan.term);
    this.state.evidence.loanMonths += at - loan.paid;
    this.state.evidence.defaults += 1;
    this.finish(loan, true);
    this.state.dirty = true;
  }

  /** What was learned, across requests, of whether past prices track the score (undefined before any). */
  get anchorRelation(): AnchorRelation | undefined {
    return this.state.anchorRelation;
  }

  /** A request of risk `level` whose history the anchor read: the score's log-odds of default `x`, the history's implied `z`. */
  historyRead(level: number, x: number, z: number): void {
    this.state.anchorRelation ??= emptyRelation();
    addPair(this.state.anchorRelation, level, x, z);
  }

  /** Refits when evidence changed and the last fit was on an earlier day; true when it did. */
  refitIfDue(nowMs: number): boolean {
    const day = Math.floor(nowMs / DAY_MS);
    if (!this.state.dirty || (this.state.fittedDay !== null && day <= this.state.fittedDay)) return false;
    this.refit(day);
    return true;
  }

  /** A new prior (a reloaded strategy): the same evidence, refitted at once under it. */
  reprice(settings: CalibrationSettings): void {
    this.settings = settings;
    this.refit(this.state.fittedDay);
  }

  private refit(day: number | null): void {
    const hasEvidence = this.state.finished.length > 0 || this.state.running.some((loan) => loan.paid > 0);
    this.state.posterior = hasEvidence
      ? fitCalibration(this.state, this.settings, this.state.posterior.mean)
      : priorCalibration(this.settings);
    this.state.version += 1;
    this.state.dirty = false;
    this.state.fittedDay = day;
  }

  private finish(loan: RunningLoan, defaulted: boolean): void {
    this.byKey.delete(loan.key);
    const index = this.state.running.indexOf(loan);
    if (index >= 0) this.state.running.splice(index, 1);
    const band = Math.round(loan.x / BAND);
    let counts = this.bands.get(band);
    if (counts === undefined) {
      counts = [band, 0, 0];
      this.bands.set(band, counts);
      this.state.finished.push(counts);
    }
    counts[defaulted ? 1 : 2] += 1;
  }
}
