/** The median of some numbers (the mean of the middle two for an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const upper = sorted[middle] as number;
  return sorted.length % 2 === 1 ? upper : ((sorted[middle - 1] as number) + upper) / 2;
}

/** Nearest-rank percentile (0 < p <= 100) of values sorted in ascending order. */
export function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1] as number;
}

/** Collects response times in ms at full resolution (autocannon's own histogram rounds them down to whole ms). */
export class LatencyRecorder {
  #values = new Float64Array(1 << 16);
  #count = 0;

  record(ms: number): void {
    if (this.#count === this.#values.length) {
      const grown = new Float64Array(this.#values.length * 2);
      grown.set(this.#values);
      this.#values = grown;
    }
    this.#values[this.#count++] = ms;
  }

  summary(): { mean: number; p50: number; p90: number; p99: number; max: number } {
    const sorted = this.#values.slice(0, this.#count).sort();
    let sum = 0;
    for (const value of sorted) sum += value;
    return {
      mean: sum / sorted.length,
      p50: percentile(sorted, 50),
      p90: percentile(sorted, 90),
      p99: percentile(sorted, 99),
      max: sorted.length > 0 ? (sorted[sorted.length - 1] as number) : Number.NaN,
    };
  }
}
