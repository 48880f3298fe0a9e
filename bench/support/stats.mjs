// Medians and percentiles over repeated runs. Latencies on a shared machine are noisy, so every figure here is
// a median (p50) with its p95/p99 beside it, never a single run or a mean that one slow outlier drags.

/** The p-th percentile (0-100) of `samples`, nearest-rank; undefined for no samples. */
export function percentile(samples, p) {
  if (samples.length === 0) return undefined;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

export const median = (samples) => percentile(samples, 50);

/** n, min, p50, p95, p99 and max of `samples`. */
export function summarize(samples) {
  return {
    n: samples.length,
    min: samples.length ? Math.min(...samples) : undefined,
    p50: percentile(samples, 50),
    p95: percentile(samples, 95),
    p99: percentile(samples, 99),
    max: samples.length ? Math.max(...samples) : undefined,
  };
}
