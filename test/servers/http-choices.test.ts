import pLimit from 'p-limit';
import { describe, it } from 'vitest';
import { createResponseValidator } from '../../src/document/response-validator.js';
import { startApiServer } from '../support/contract-cli.js';
import { runSuite } from '../../src/contract-tests/run-suite.js';
import { HTTP_CHOICES } from './http-choices.js';

/**
 * What HTTP leaves to a server, chosen otherwise than the mock (which sends
 * no Cache-Control and no validator, and answers CORS) and the reference
 * server (no CORS at all): each choice, a correct one, must pass every rule
 * on 20 seeds, a fresh server each. The mock and the reference server run
 * on their own 20 seeds in the drift proofs.
 */
const KEY = 'http-choices-key';
const SEEDS = Array.from({ length: 20 }, (_, i) => 3000 + i * 7919);
const validator = createResponseValidator();
const limit = pLimit(4);

describe.each(Object.keys(HTTP_CHOICES))('the mock with %s', (choice) => {
  it(`passes every rule on ${SEEDS.length} seeds`, { timeout: 240_000 }, async ({ expect }) => {
    const runs = await Promise.all(
      SEEDS.map((seed) =>
        limit(async () => {
          const server = await startApiServer({ apiKey: KEY, wrap: (HTTP_CHOICES[choice] as NonNullable<(typeof HTTP_CHOICES)[string]>)() });
          try {
            const run = await runSuite({ baseUrl: server.url, apiKey: KEY, seed, validator: await validator });
            if (!run.ok) throw new Error(`seed ${seed}: ${run.error.message}`);
            return run.report;
          } finally {
            await server.close();
          }
        }),
      ),
    );
    for (const report of runs) {
      const failed = report.results.filter((r) => r.status === 'failed' || (/^(method|cors|cache|revalidate)-/.test(r.id) && r.findings.some((f) => f.level === 'warning')));
      expect(failed.map((r) => `${r.id}: ${r.findings[0]?.message}`), `seed ${report.seed}`).toEqual([]);
      // A server with validators is revalidated with them: the silent section names them for both operations.
      const noted = report.silent.find((entry) => entry.point === 'validators')?.answers.map((a) => a.answer).sort();
      const kind = /weak/.test(choice) ? 'ETag (weak)' : /ETag/.test(choice) ? 'ETag (strong)' : /Last-Modified/.test(choice) ? 'Last-Modified' : 'none, so revalidation is not judged';
      expect(noted).toEqual([`getPet: ${kind}`, `listPets: ${kind}`]);
    }
  });
});
