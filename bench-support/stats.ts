// Small statistics shared by the benchmark harness and the benchmarks themselves (not published).

/** The q-quantile (0..1) of a list of numbers, by the nearest rank below; NaN for an empty list. */
export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

/** The median of a list of numbers (the upper middle of an even count); NaN for an empty list. */
export function median(values: readonly number[]): number {
  return quantile(values, 0.5);
}

/** A deterministic pseudo-random generator (mulberry32) so benchmark inputs are the same every run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
