/**
 * Figures per segment of a backtest (risk level, score band, term, strategy), in the spirit of
 * freqtrade's backtest tables. Accumulated as the replay runs; ratios are derived at the end.
 */
import { providerBResultSchema, type ProviderResult } from '../domain/index.js';

export const SEGMENT_DIMENSIONS = ['risk_level', 'score_band', 'term', 'strategy'] as const;
export type SegmentDimension = (typeof SEGMENT_DIMENSIONS)[number];

/** Raw counts and sums of one segment. */
export interface SegmentCounts {
  requests: number;
  offers: number;
  funded: number;
  offeredRateSum: number;
  deployedCents: number;
  interestCents: number;
  lossCents: number;
  /** What defaulters still paid after their principal was written off. */
  recoveryCents: number;
  /** Funded loans with principal written off. */
  defaults: number;
  /** Principal × months outstanding (capital-time), for the annualized return. */
  capitalCentMonths: number;
}

/** A segment's row in a report. */
export interface SegmentRow extends SegmentCounts {
  key: string;
  /** funded / offers (0 when no offers). */
  acceptance: number;
  averageRate: number | null;
  /** interest + recoveries − losses. */
  netCents: number;
  /** defaults / funded. */
  defaultRate: number;
  /** net / capital-years: the yearly return on the money actually lent. */
  annualizedReturn: number;
}

export function emptyCounts(): SegmentCounts {
  return {
    requests: 0,
    offers: 0,
    funded: 0,
    offeredRateSum: 0,
    deployedCents: 0,
    interestCents: 0,
    lossCents: 0,
    recoveryCents: 0,
    defaults: 0,
    capitalCentMonths: 0,
  };
}

/**
 * Provider B's band when the recording holds its score, else "unscored". `lineChecked`: the scores
 * are those of a line the recording check accepted, so each result is a valid provider A or B
 * result (providerResultSchema's union).
 */
export function scoreBandOf(scores: Record<string, ProviderResult> | undefined, lineChecked = false): string {
  if (scores) {
    for (const result of Object.values(scores)) {
      // Only a result with a p2p_score object can be provider B's: the others are passed over
      // without a parse (a refused parse builds zod's issues, the larger cost per request).
      const score: unknown = (result as { p2p_score?: unknown }).p2p_score;
      if (typeof score !== 'object' || score === null) continue;
      // A checked result without a number a_score is no valid provider A result, so it is a valid
      // provider B one: its band as the parse would give it, without the parse (about 1.5 µs a line).
      if (lineChecked && typeof (result as { a_score?: unknown }).a_score !== 'number') return (score as { score_band: string }).score_band;
      const b = providerBResultSchema.safeParse(result);
      if (b.success) return b.data.p2p_score.score_band;
    }
  }
  return 'unscored';
}

/** Per dimension, per key, the counts; `refs` hands out the four a request belongs to. */
export class SegmentTable {
  private readonly table = new Map<SegmentDimension, Map<string, SegmentCounts>>(SEGMENT_DIMENSIONS.map((d) => [d, new Map()]));
  private readonly riskLevels = this.dimension('risk_level');
  private readonly scoreBands = this.dimension('score_band');
  private readonly terms = this.dimension('term');
  private readonly strategies = this.dimension('strategy');

  /** The counts of the request's segments, in SEGMENT_DIMENSIONS order (risk_level, score_band, term, strategy). */
  refs(riskLevel: string, scoreBand: string, term: string, strategy: string): SegmentCounts[] {
    // Once per replayed request: four lookups, no intermediate objects.
    return [
      countsOf(this.riskLevels, riskLevel),
      countsOf(this.scoreBands, scoreBand),
      countsOf(this.terms, term),
      countsOf(this.strategies, strategy),
    ];
  }

  private dimension(dimension: SegmentDimension): Map<string, SegmentCounts> {
    return this.table.get(dimension) as Map<string, SegmentCounts>;
  }

  rows(): Record<SegmentDimension, SegmentRow[]> {
    const out = {} as Record<SegmentDimension, SegmentRow[]>;
    for (const dimension of SEGMENT_DIMENSIONS) {
      const byKey = this.table.get(dimension) ?? new Map<string, SegmentCounts>();
      out[dimension] = [...byKey.entries()].sort(([a], [b]) => compareKeys(a, b)).map(([key, counts]) => segmentRow(key, counts));
    }
    return out;
  }
}

/** Derived ratios of a set of counts. */
export function segmentRow(key: string, counts: SegmentCounts): SegmentRow {
  const net = counts.interestCents + counts.recoveryCents - counts.lossCents;
  const capitalYears = counts.capitalCentMonths / 12;
  return {
    key,
    ...counts,
    acceptance: counts.offers === 0 ? 0 : counts.funded / counts.offers,
    averageRate: counts.offers === 0 ? null : counts.offeredRateSum / counts.offers,
    netCents: net,
    defaultRate: counts.funded === 0 ? 0 : counts.defaults / counts.funded,
    annualizedReturn: capitalYears === 0 ? 0 : net / capitalYears,
  };
}

/** The counts under `key`, created empty on first use. */
function countsOf(byKey: Map<string, SegmentCounts>, key: string): SegmentCounts {
  let counts = byKey.get(key);
  if (!counts) {
    counts = emptyCounts();
    byKey.set(key, counts);
  }
  return counts;
}

// Numbers in numeric order (terms 6, 12, 24), then text; bands best first.
const BAND_ORDER = ['excellent', 'good', 'average', 'poor', 'unscored'];
function compareKeys(a: string, b: string): number {
  const [na, nb] = [Number(a), Number(b)];
  if (Number.isFinite(na) && Number.isFinite(nb)) return na - nb;
  const [ba, bb] = [BAND_ORDER.indexOf(a), BAND_ORDER.indexOf(b)];
  if (ba >= 0 && bb >= 0) return ba - bb;
  return a.localeCompare(b);
}
