/**
 * How good a probability is: AUC (does it rank repaid above defaulted loans) and Brier score (mean
 * squared error of the probability). The calibration table (predicted against realised, by decile
 * of the prediction) is src/backtest/calibration's, shared with every backtest report.
 */

/**
 * Area under the ROC curve: the chance a random repaid loan (label 1) gets a higher predicted
 * probability than a random defaulted one (label 0), ties counting one half (Mann–Whitney U over
 * average ranks). Null when one of the classes is absent.
 */
export function auc(predicted: readonly number[], labels: readonly number[]): number | null {
  const order = predicted.map((p, i) => ({ p, y: labels[i] ?? 0 })).sort((a, b) => a.p - b.p);
  let positives = 0;
  let rankSum = 0;
  for (let start = 0; start < order.length;) {
    let end = start;
    while (end < order.length && order[end]?.p === order[start]?.p) end += 1;
    // Ranks start..end-1 (1-based: start+1..end) share their average.
    const averageRank = (start + 1 + end) / 2;
    for (let i = start; i < end; i += 1) {
      if (order[i]?.y === 1) {
        positives += 1;
        rankSum += averageRank;
      }
    }
    start = end;
  }
  const negatives = order.length - positives;
  if (positives === 0 || negatives === 0) return null;
  return (rankSum - (positives * (positives + 1)) / 2) / (positives * negatives);
}

/** Mean of (predicted − label)²: 0 is perfect, 0.25 is a coin's 0.5 on every loan. */
export function brier(predicted: readonly number[], labels: readonly number[]): number {
  if (predicted.length === 0) return Number.NaN;
  let sum = 0;
  predicted.forEach((p, i) => {
    sum += (p - (labels[i] ?? 0)) ** 2;
  });
  return sum / predicted.length;
}
