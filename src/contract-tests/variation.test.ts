import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, it } from 'vitest';
import fc from 'fast-check';
import { startApiServer, type AppFetch } from '../../test/support/contract-cli.js';
import { createResponseValidator } from '../document/response-validator.js';
import { jsonSpellingArbitrary, spellJson } from './generate/json-spelling.js';
import { DIMENSIONS } from './generate/variations.js';
import { runSuite } from './run-suite.js';

/**
 * Requests written another way, over real HTTP: a server that refuses one
 * spelling fails with a case shrunk to that spelling alone, a curl line
 * that shows it and, pasted into bash, gets the same refusal, and a seed
 * that replays it; every JSON spelling parses to the value it spells.
 */
const KEY = 'variation-test-key';
const validator = createResponseValidator();

/** The mock, except that an Accept of wildcards only (`*` + `/` + `*`, `application/*`) gets 406. */
const refusesWildcards = (fetch: AppFetch): AppFetch => async (request) =>
  /^\s*(\*\/\*|application\/\*)\s*$/.test(request.headers.get('accept') ?? '')
    ? Response.json({ code: 'not_acceptable', message: 'name application/json', status: 406 }, { status: 406 })
    : fetch(request);

async function failureOf(seed: number, wrap: (fetch: AppFetch) => AppFetch, rule: string) {
  const server = await startApiServer({ apiKey: KEY, wrap });
  try {
    const run = await runSuite({ baseUrl: server.url, apiKey: KEY, seed, only: [rule], validator: await validator });
    if (!run.ok) throw new Error(run.error.message);
    const result = run.report.results.find((r) => r.id === rule);
    return { result, finding: result?.findings.find((f) => f.level === 'error'), url: server.url };
  } finally {
    await server.close();
  }
}

describe('a server that refuses one way of writing Accept', () => {
  it('fails vary-get-pet with the case shrunk to that Accept alone, a curl line that replays it, and the seed', { timeout: 60_000 }, async ({ expect }) => {
    const { result, finding } = await failureOf(7, refusesWildcards, 'vary-get-pet');
    expect(result?.status).toBe('failed');
    expect(finding?.message).toMatch(/^answered 406 where the same request written as the harness always writes it got 200$/);
    expect(finding?.expected).toMatch(/RFC 9110 §12\.5\.1/);
    // Every other dimension shrank back to the request the harness always sends.
    expect(finding?.reproduce?.case).toMatch(/^getPet \d+, Accept "(\*\/\*|application\/\*)"$/);
    const curl = finding?.reproduce?.curl.split('\n')[1] ?? '';
    expect(curl).toMatch(/ -H 'accept: (\*\/\*|application\/\*)' /);
    // The other fields are the ones fetch sends of its own (Accept-Language *, Accept-Encoding gzip, deflate, User-Agent node), sent as they are.
    expect(curl).toMatch(/^curl -sS -i 'http:\/\/127\.0\.0\.1:\d+\/v1\/pets\/\d+' -H 'accept: [^']+' -H 'accept-language: \*' -H 'accept-encoding: gzip, deflate' -H 'user-agent: node' -H 'authorization: Bearer <API key>' --compressed$/);

    const server = await startApiServer({ apiKey: KEY, wrap: refusesWildcards });
    try {
      const pasted = curl.replace(/'http:\/\/127\.0\.0\.1:\d+\/v1/, `'${server.url}`).replace('<API key>', KEY);
      const { stdout } = await promisify(execFile)('bash', ['-c', pasted], { encoding: 'utf8' });
      expect(stdout).toMatch(/^HTTP\/1\.1 406/);
    } finally {
      await server.close();
    }

    const again = await failureOf(7, refusesWildcards, 'vary-get-pet');
    expect(again.finding?.reproduce?.case).toBe(finding?.reproduce?.case);
  });

  it('passes against the mock itself', { timeout: 60_000 }, async ({ expect }) => {
    const { result } = await failureOf(7, (fetch) => fetch, 'vary-get-pet');
    expect(result?.status).toBe('passed');
    expect(result?.cases).toBeGreaterThan(DIMENSIONS.accept.length);
  });
});

describe('a server that reads escapes past ASCII as "?"', () => {
  const mangles = (fetch: AppFetch): AppFetch => async (request) => {
    if (request.method !== 'POST') return fetch(request);
    const text = (await request.text()).replace(/\\u([0-9a-fA-F]{4})/g, (escape, hex: string) => (parseInt(hex, 16) > 0x7f ? '?' : escape));
    return fetch(new Request(request.url, { method: 'POST', headers: request.headers, body: text }));
  };

  it('fails vary-create-pet with the case shrunk to the escapes, the body as sent in its curl line', { timeout: 60_000 }, async ({ expect }) => {
    const { finding } = await failureOf(11, mangles, 'vary-create-pet');
    expect(finding?.message).toMatch(/^name is /);
    expect(finding?.reproduce?.case).toMatch(/, the JSON text spelled another way RFC 8259 allows: whitespace, member order, escapes \(as the body sent shows\)$/);
    expect(finding?.reproduce?.curl).toMatch(/--data-raw '\{.*\\u[0-9a-fA-F]{4}/);
  });
});

describe('every JSON spelling', () => {
  it('parses to the value it spells', ({ expect }) => {
    const spellings = jsonSpellingArbitrary();
    fc.assert(
      fc.property(fc.jsonValue({ stringUnit: 'binary' }), spellings, (value, spelling) => {
        // Numbers compare as numbers: 1.0 and 1e0 parse to 1.
        expect(JSON.parse(spellJson(value, spelling))).toEqual(JSON.parse(JSON.stringify(value)));
      }),
      { seed: 42, numRuns: 100 },
    );
  });
});
