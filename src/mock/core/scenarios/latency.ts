import type { LatencySpec } from './scenario.js';

/** The longest delay a scenario can ask for (10 minutes), also the cap on log-normal draws. */
export const MAX_DELAY_MS = 600_000;

/** A function giving the delay, in ms, before each answer of a stub. */
export type DelaySampler = () => number;

/**
 * Fixed, uniform (`[min, max]`) or log-normal delays. A log-normal delay is
 * `median × e^(σZ)` with Z standard normal, so its median is `medianMs` and
 * σ sets the tail (about 0.25 is a tight spread, 1 a heavy tail); draws are
 * capped at MAX_DELAY_MS, as setTimeout would misread huge values.
 */
export function delaySampler(spec: LatencySpec, random: () => number = Math.random): DelaySampler {
  if ('fixedMs' in spec) return () => spec.fixedMs;
  if ('uniformMs' in spec) {
    const [min, max] = spec.uniformMs;
    return () => min + (max - min) * random();
  }
  const { medianMs, sigma } = spec.logNormal;
  return () => Math.min(MAX_DELAY_MS, medianMs * Math.exp(sigma * standardNormal(random)));
}

/**
 * One draw of a standard normal variable by the Box–Muller transform:
 * √(−2 ln U₁) · cos(2πU₂) for U₁, U₂ uniform on (0, 1]. `1 - random()` keeps
 * U₁ away from 0, where the logarithm is infinite.
 */
export function standardNormal(random: () => number = Math.random): number {
  const u1 = 1 - random();
  const u2 = random();
  return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
