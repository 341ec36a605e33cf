/**
 * The search space of a tune: the params a strategy declares, each within [min, max], on its
 * step grid when it has one, on a log scale when it says so. Random search: with many params it
 * covers each one's range better than a grid of the same size (Bergstra and Bengio, 2012).
 */
import type { ParamSpec } from '../../engine/index.js';

export type ParamValues = Record<string, number>;

// Values are rounded so YAML stays readable and equal trials compare equal.
function tidy(value: number): number {
  return Number(value.toPrecision(6));
}

/** One value of `spec` for a uniform draw `u` in [0, 1). */
export function sampleValue(spec: ParamSpec, u: number): number {
  if (spec.step !== undefined) {
    const steps = Math.floor((spec.max - spec.min) / spec.step + 1e-9);
    return tidy(Math.min(spec.max, spec.min + Math.floor(u * (steps + 1)) * spec.step));
  }
  if (spec.scale === 'log' && spec.min > 0) return tidy(Math.exp(Math.log(spec.min) + u * (Math.log(spec.max) - Math.log(spec.min))));
  return tidy(spec.min + u * (spec.max - spec.min));
}

/**
 * `count` param sets: the strategy's current values first (the baseline every trial is compared
 * with), then random draws from `random`. Names are visited in sorted order so the same seed
 * gives the same trials whatever order the YAML lists them in.
 */
export function sampleTrials(
  specs: Readonly<Record<string, ParamSpec>>,
  current: Readonly<ParamValues>,
  count: number,
  random: () => number,
): ParamValues[] {
  const names = Object.keys(specs).sort();
  const trials: ParamValues[] = [{ ...current }];
  const seen = new Set([JSON.stringify(current)]);
  for (let attempt = 0; trials.length < count && attempt < count * 20; attempt += 1) {
    const values: ParamValues = {};
    for (const name of names) {
      const spec = specs[name];
      if (spec) values[name] = sampleValue(spec, random());
    }
    const key = JSON.stringify(values);
    // A small grid has fewer points than trials asked for: each point once.
    if (seen.has(key)) continue;
    seen.add(key);
    trials.push(values);
  }
  return trials;
}
