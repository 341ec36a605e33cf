/**
 * The random draws of the backtest's market (docs/backtesting.md, "The market model"). Every
 * draw is a pure function of (market seed, loan request id, stream), not of the replay's order or
 * of what the strategy did, so two strategies replayed with one seed meet the same borrowers
 * (common random numbers): a difference between them is their decisions, not the dice.
 */

/** Which question a draw answers; one independent stream each. */
const DRAW_STREAMS = { accept: 1, prepay: 2, quality: 3 } as const;
export type DrawStream = keyof typeof DRAW_STREAMS;

/** A 32-bit integer hash with full avalanche (the finaliser of "lowbias32", Chris Wellons). */
function mix32(value: number): number {
  let x = value >>> 0;
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d);
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b);
  x ^= x >>> 16;
  return x >>> 0;
}

/** A uniform number in [0, 1) fixed by the seed, the request and the stream. */
export function marketDraw(seed: number, requestId: number, stream: DrawStream): number {
  // Ids above 2^32 keep their high bits; the seed and the stream are hashed in first so that
  // seed s, id i never collides with seed i, id s.
  const high = Math.floor(requestId / 4_294_967_296);
  let h = mix32(mix32(seed) ^ DRAW_STREAMS[stream]);
  h = mix32(h ^ (requestId >>> 0));
  h = mix32(h ^ high);
  const second = mix32(h ^ 0x9e3779b9);
  // 53 bits: 32 from the first word, 21 from the second.
  return (h * 2_097_152 + (second >>> 11)) / 9_007_199_254_740_992;
}
