/**
 * The sandbox's only source of randomness: a small seeded PRNG (mulberry32). The market never
 * calls Math.random, so the same seed always gives the same market. Streams are forked by label
 * and id, so one request's draws never shift another's (an investor's actions cannot reshuffle
 * the rest of the market).
 */

/** A seeded stream of uniform numbers in [0, 1), with the distributions the market needs. */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A uniform number in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** A uniform number in [min, max). */
  between(min: number, max: number): number {
    return min + (max - min) * this.next();
  }

  /** A whole number from min to max inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** A standard normal draw (Box-Muller). */
  normal(mean = 0, sd = 1): number {
    const u = Math.max(this.next(), 1e-12);
    const v = this.next();
    return mean + sd * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  /** An exponential draw with the given mean (waiting times of a Poisson process). */
  exponential(mean: number): number {
    return -Math.log(1 - this.next()) * mean;
  }

  /** A Poisson count with the given mean (Knuth; means here are small). */
  poisson(mean: number): number {
    const limit = Math.exp(-mean);
    let k = 0;
    let p = this.next();
    while (p > limit) {
      k += 1;
      p *= this.next();
    }
    return k;
  }

  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new RangeError('pick from an empty list');
    return item;
  }

  /** A version-4-shaped UUID drawn from this stream (deterministic, unlike crypto.randomUUID). */
  uuid(): string {
    const hex = Array.from({ length: 32 }, () => Math.floor(this.next() * 16).toString(16));
    hex[12] = '4';
    hex[16] = ((Math.floor(this.next() * 4) + 8) as number).toString(16);
    const text = hex.join('');
    return `${text.slice(0, 8)}-${text.slice(8, 12)}-${text.slice(12, 16)}-${text.slice(16, 20)}-${text.slice(20)}`;
  }
}

/** A stream for one purpose (`label`) and one entity (`id`), independent of all others. */
export function forkRandom(seed: number, label: string, id = 0): Random {
  let h = (seed ^ 0x9e3779b9) >>> 0;
  for (const char of `${label}:${id}`) {
    h = Math.imul(h ^ char.charCodeAt(0), 0x85ebca6b) >>> 0;
    h = (h ^ (h >>> 13)) >>> 0;
  }
  h = Math.imul(h ^ (h >>> 16), 0xc2b2ae35) >>> 0;
  return new Random(h ^ (h >>> 16));
}

/** Clamps a number into [min, max]. */
export function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/** Rounds to `places` decimals (for rates and percentages shown in resources). */
export function roundTo(value: number, places: number): number {
  const factor = 10 ** places;
  return Math.round(value * factor) / factor;
}
