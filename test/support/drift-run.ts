import { createResponseValidator } from '../../src/document/response-validator.js';
import { runDrift } from '../../src/contract-tests/drift/run-drift.js';
import type { DriftReport } from '../../src/verdict/drift-report.js';
/** A server a test starts: its base URL, and how to stop it. */
export interface StartedServer {
  url: string;
  close(): Promise<void>;
}

const validator = createResponseValidator();

export interface DriftRunOptions {
  seed: number;
  /** Each side's key. */
  keys: { a: string; b: string };
  /** `none`: a contract failure on either side throws (a drift proof needs two correct servers). */
  failures?: 'none' | 'allowed';
}

/** Starts both servers, runs the drift report between them in-process over real HTTP, then closes them. */
export async function driftBetween(a: () => Promise<StartedServer>, b: () => Promise<StartedServer>, { seed, keys, failures = 'none' }: DriftRunOptions): Promise<DriftReport> {
  const [sa, sb] = await Promise.all([a(), b()]);
  try {
    const run = await runDrift({ baseUrl: sa.url, apiKey: keys.a, seed, validator: await validator, compareWith: { baseUrl: sb.url, apiKey: keys.b } });
    if (!run.ok) throw new Error(run.error.message);
    const failed = [...run.report.results.filter((r) => r.status === 'failed').map((r) => `A ${r.id}`), ...run.report.drift.failedOnB.map((f) => `B ${f.id}`)];
    if (failed.length > 0 && failures === 'none') throw new Error(`seed ${seed}: contract failures ${failed.join(', ')}`);
    return run.report.drift;
  } finally {
    await Promise.all([sa.close(), sb.close()]);
  }
}
