/**
 * "Did you mean ...?" for misspelt names (features, params, keys). Edit distance is cheap at
 * the sizes involved (a few hundred names) and only runs when a file is wrong.
 */

/** Levenshtein distance between two strings. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/**
 * The candidate closest to `name`, or undefined when nothing is close enough to be a plausible
 * typo (more than a third of the longer name would have to change). A candidate that contains
 * the name, or is contained in it, counts as close: "credit_score" suggests "credit_score_low".
 */
export function closestName(name: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const distance =
      candidate.includes(name) || name.includes(candidate) ? Math.abs(candidate.length - name.length) / 4 : editDistance(name, candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  if (best === undefined) return undefined;
  return bestDistance <= Math.max(2, Math.ceil(Math.max(name.length, best.length) / 3)) ? best : undefined;
}

/** `; did you mean "x"?` or an empty string. */
export function didYouMean(name: string, candidates: Iterable<string>, prefix = ''): string {
  const closest = closestName(name, candidates);
  return closest === undefined ? '' : `; did you mean "${prefix}${closest}"?`;
}
