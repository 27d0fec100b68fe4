import { gzipSync } from 'node:zlib';
import { describe, it } from 'vitest';
import { createResponseValidator } from '../../src/document/response-validator.js';
import { runSuite } from '../../src/contract-tests/run-suite.js';
import { startApiServer, type AppFetch } from '../support/contract-cli.js';
import { errorResponse } from './http.js';

/**
 * The advisory rules of what HTTP defines for every resource, proven able
 * to warn: the mock made to answer otherwise where the RFC says SHOULD, or
 * where the interface is silent. A warning does not fail the run (only a
 * contract rule does, test/faulty-servers/faulty-servers.test.ts), so each
 * is run alone and its warning read.
 */
const KEY = 'advisory-http-key';
const validator = createResponseValidator();

const withHeaders = (response: Response, change: (headers: Headers) => void, body: ReadableStream<Uint8Array> | Uint8Array | null = response.body): Response => {
  const headers = new Headers(response.headers);
  change(headers);
  return new Response(body, { status: response.status, headers });
};

const SERVERS: Record<string, { rule: string; warning: RegExp; wrap: (fetch: AppFetch) => AppFetch }> = {
  'a preflight answered 401 without the key': {
    rule: 'cors-preflight',
    warning: /^the preflight for GET \/pets answered 401, not an ok status$/,
    wrap: (fetch) => (request) => (request.method === 'OPTIONS' && !request.headers.has('authorization') ? errorResponse(401, 'unauthorized', 'no key') : fetch(request)),
  },
  "HEAD without GET's Deprecation": {
    rule: 'method-head-fields',
    warning: /^HEAD \/pets\/\d+ leaves out deprecation, which GET sends$/,
    wrap: (fetch) => async (request) => {
      const response = await fetch(request);
      return request.method === 'HEAD' ? withHeaders(response, (headers) => headers.delete('deprecation')) : response;
    },
  },
  'createPet under a content coding answered 422': {
    rule: 'create-unknown-content-coding',
    warning: /^answered 422$/,
    // Neither read as it is nor refused as RFC 9110 §8.4 and the interface allow (415, or createPet's 400).
    wrap: (fetch) => (request) => (request.method === 'POST' && request.headers.has('content-encoding') ? errorResponse(422, 'unprocessable_coding', 'no') : fetch(request)),
  },
  'listPets gzipped on request, without Vary': {
    rule: 'cache-vary',
    warning: /^the answer depends on accept-encoding, and its Vary \(none\) does not name it$/,
    wrap: (fetch) => async (request) => {
      const response = await fetch(request);
      if (request.method !== 'GET' || !/gzip/.test(request.headers.get('accept-encoding') ?? '') || !new URL(request.url).pathname.endsWith('/pets')) return response;
      const body = gzipSync(Buffer.from(await response.text()));
      return withHeaders(response, (headers) => headers.set('content-encoding', 'gzip'), body);
    },
  },
};

async function warningsOf(rule: string, wrap?: (fetch: AppFetch) => AppFetch): Promise<{ status: string | undefined; warnings: string[] }> {
  const server = await startApiServer({ apiKey: KEY, ...(wrap ? { wrap } : {}) });
  try {
    const run = await runSuite({ baseUrl: server.url, apiKey: KEY, seed: 1, only: [rule], validator: await validator });
    if (!run.ok) throw new Error(run.error.message);
    const result = run.report.results.find((r) => r.id === rule);
    return { status: result?.status, warnings: result?.findings.filter((f) => f.level === 'warning').map((f) => f.message) ?? [] };
  } finally {
    await server.close();
  }
}

describe.each(Object.entries(SERVERS))('the mock with %s', (_, { rule, warning, wrap }) => {
  it(`warns ${rule}, and the mock as it is does not`, async ({ expect }) => {
    const warned = await warningsOf(rule, wrap);
    expect(warned.status).toBe('passed');
    expect(warned.warnings.some((message) => warning.test(message)), warned.warnings.join('\n')).toBe(true);
    expect(await warningsOf(rule)).toEqual({ status: 'passed', warnings: [] });
  });
});
