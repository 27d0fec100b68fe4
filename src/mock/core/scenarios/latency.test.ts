import { describe, expect, it } from 'vitest';
import { delaySampler, MAX_DELAY_MS, standardNormal } from './latency.js';

/** A seeded uniform source (mulberry32), so the statistics below never flake. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const draws = (sample: () => number, n: number): number[] => Array.from({ length: n }, sample);
const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return ((sorted[Math.floor((sorted.length - 1) / 2)] as number) + (sorted[Math.ceil((sorted.length - 1) / 2)] as number)) / 2;
};

describe('delays', () => {
  it('fixedMs is always the same delay', () => {
    expect(new Set(draws(delaySampler({ fixedMs: 250 }), 100))).toEqual(new Set([250]));
  });

  it('uniformMs stays within [min, max] and spreads over it', () => {
    const values = draws(delaySampler({ uniformMs: [100, 200] }, seeded(1)), 10_000);
    expect(Math.min(...values)).toBeGreaterThanOrEqual(100);
    expect(Math.max(...values)).toBeLessThanOrEqual(200);
    expect(Math.min(...values)).toBeLessThan(102);
    expect(Math.max(...values)).toBeGreaterThan(198);
    expect(median(values)).toBeCloseTo(150, -1);
  });

  it('uniformMs [x, x] is x', () => {
    expect(new Set(draws(delaySampler({ uniformMs: [40, 40] }, seeded(2)), 50))).toEqual(new Set([40]));
  });

  it('logNormal has medianMs as its median, a right tail, and never goes below 0', () => {
    const values = draws(delaySampler({ logNormal: { medianMs: 800, sigma: 0.5 } }, seeded(3)), 20_000);
    expect(Math.abs(median(values) - 800) / 800).toBeLessThan(0.03);
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    // The mean of a log-normal is median × e^(σ²/2): above the median.
    expect(mean / 800).toBeCloseTo(Math.exp(0.125), 1);
    expect(Math.min(...values)).toBeGreaterThan(0);
  });

  it('logNormal with sigma 0 is the median', () => {
    expect(new Set(draws(delaySampler({ logNormal: { medianMs: 300, sigma: 0 } }, seeded(4)), 50))).toEqual(new Set([300]));
  });

  it('logNormal draws are capped at MAX_DELAY_MS', () => {
    const values = draws(delaySampler({ logNormal: { medianMs: MAX_DELAY_MS, sigma: 4 } }, seeded(5)), 1000);
    expect(Math.max(...values)).toBe(MAX_DELAY_MS);
  });

  it('Box–Muller gives a standard normal: mean 0, standard deviation 1, finite even when random() is 0', () => {
    const random = seeded(7);
    const values = draws(() => standardNormal(random), 20_000);
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    const sd = Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / values.length);
    expect(mean).toBeCloseTo(0, 1);
    expect(sd).toBeCloseTo(1, 1);
    expect(Number.isFinite(standardNormal(() => 0))).toBe(true);
  });
});
