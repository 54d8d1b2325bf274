// bench/run.mjs's figures: rounding, quantiles, summary statistics and the round-trip ratios.

export function round3(value) {
  return Math.round(value * 1000) / 1000;
}

export function quantile(sorted, q) {
  if (sorted.length === 0) return NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[index];
}

export function median(values) {
  return quantile(
    [...values].sort((a, b) => a - b),
    0.5,
  );
}

export function stats(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mean = sorted.reduce((sum, v) => sum + v, 0) / (sorted.length || 1);
  return {
    n: sorted.length,
    median: round3(quantile(sorted, 0.5)),
    p95: round3(quantile(sorted, 0.95)),
    p99: round3(quantile(sorted, 0.99)),
    mean: round3(mean),
  };
}

/**
 * Per subject: per-call median/p95/p99 (5 µs steps), the median of batch means (finer), and its
 * ratio to the raw MessageChannel: over the whole run, and paired round by round (then the median).
 */
export function summarizeTrips({ calls, batches, roundMedians }) {
  const base = 'raw MessageChannel';
  const baseBatch = median(batches[base]);
  const out = {};
  for (const [name, values] of Object.entries(calls)) {
    const batchMedian = median(batches[name]);
    const pairedTo = (other) => round3(median(roundMedians[name].map((m, i) => m / roundMedians[other][i])));
    out[name] = {
      ...stats(values),
      batchMedian: round3(batchMedian),
      ratio: round3(batchMedian / baseBatch),
      ratioPairedRounds: pairedTo(base),
      toPenpalPairedRounds: pairedTo('Penpal 7'),
    };
  }
  return out;
}
