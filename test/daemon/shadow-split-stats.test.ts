// The split's sequential test (mSPRT, src/risk/shadow-split-stats.ts): "not yet" on small
// samples, a clear difference found, and equal arms watched after every loan raise a false alarm
// in few of many seeds (at most alpha).
import { describe, expect, it } from 'vitest';
import { seededRandom as generator } from '../../src/engine/market/seeded-normals.js';
import { splitVerdict, splitVerdictText } from '../../src/risk/shadow-split-stats.js';

/** A loan's return: +gain when repaid, −loss on default (a lending book's skewed law). */
function loanReturn(random: () => number, defaultRate: number): number {
  return random() < defaultRate ? -0.6 : 0.12;
}

describe('the split sequential test', () => {
  it('says not yet until each arm has enough resolved loans', () => {
    const verdict = splitVerdict({ name: 'a', returns: [0.1, 0.1, -0.6] }, { name: 'b', returns: Array.from({ length: 100 }, () => 0.1) });
    expect(verdict.kind).toBe('not_yet');
    expect(splitVerdictText('a', 'b', verdict)).toBe('not yet: 3 and 100 resolved loans, the test speaks from 30 in each arm');
  });

  it('finds a clear difference on a synthetic sample, and names the better arm', () => {
    const random = generator(1);
    const a = Array.from({ length: 400 }, () => loanReturn(random, 0.25));
    const b = Array.from({ length: 400 }, () => loanReturn(random, 0.05));
    const verdict = splitVerdict({ name: 'a', returns: a }, { name: 'b', returns: b });
    expect(verdict.kind).toBe('different');
    if (verdict.kind === 'not_yet') throw new Error('unreachable');
    expect(verdict.better).toBe('b');
    // The true difference, 0.72 × (0.25 − 0.05) = 0.144, lies in the always-valid interval.
    expect(verdict.interval[0]).toBeLessThan(0.144);
    expect(verdict.interval[1]).toBeGreaterThan(0.144);
    expect(splitVerdictText('a', 'b', verdict)).toMatch(/^different: b returns more; b − a: /);
  });

  it('keeps false alarms on equal arms, looked at after every loan, near alpha over many seeds', () => {
    const seeds = 400;
    let alarms = 0;
    for (let seed = 1; seed <= seeds; seed++) {
      const random = generator(seed * 7919);
      const a: number[] = [];
      const b: number[] = [];
      for (let n = 0; n < 300; n++) {
        a.push(loanReturn(random, 0.1));
        b.push(loanReturn(random, 0.1));
        if (splitVerdict({ name: 'a', returns: a }, { name: 'b', returns: b }).kind === 'different') {
          alarms++;
          break;
        }
      }
    }
    // The mSPRT bounds it by alpha = 0.05 (3 of 400 here: the mixture is conservative).
    expect(alarms / seeds).toBeLessThanOrEqual(0.05);
  });
});
