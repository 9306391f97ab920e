// Summaries of repeated measurements: every figure the bench reports is a list of
// samples (one per run, or one per request) summarised the same way.
export interface Summary {
  median: number;
  p99: number;
  min: number;
  max: number;
  n: number;
}

/** Nearest-rank percentile of sorted values (q in 0..1). */
function percentile(sorted: number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank]!;
}

export function summarize(samples: readonly number[]): Summary {
  const sorted = [...samples].filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (sorted.length === 0) return { median: Number.NaN, p99: Number.NaN, min: Number.NaN, max: Number.NaN, n: 0 };
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { median, p99: percentile(sorted, 0.99), min: sorted[0]!, max: sorted[sorted.length - 1]!, n: sorted.length };
}

/** Ratios of paired runs (a[i] / b[i]): side-by-side runs are compared pairwise, so slow spells on a shared machine hit both. */
export function pairedRatios(a: readonly number[], b: readonly number[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < Math.min(a.length, b.length); i++) out.push(a[i]! / b[i]!);
  return out;
}

export function round(x: number, digits = 2): number {
  if (!Number.isFinite(x)) return x;
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}
