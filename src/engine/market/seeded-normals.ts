/**
 * Seeded randomness: standard normal numbers from a text key, so an exploring price is the same
 * every time the same request is priced by the same model version (a replay reproduces the live
 * decision); and the uniform generator under them, which tuning's draws use too.
 */

/** mulberry32: a small, fast generator whose sequence is fixed by its seed; uniform in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** FNV-1a over the text: a 32-bit seed. */
function seedOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** `count` standard normal numbers (Box–Muller) seeded by `key`. */
export function seededNormals(key: string, count: number): number[] {
  const next = seededRandom(seedOf(key));
  const out: number[] = [];
  while (out.length < count) {
    // 1 − u is in (0, 1]: its logarithm is finite.
    const radius = Math.sqrt(-2 * Math.log(1 - next()));
    const angle = 2 * Math.PI * next();
    out.push(radius * Math.cos(angle));
    if (out.length < count) out.push(radius * Math.sin(angle));
  }
  return out;
}
