import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TEST_KEY, useMock } from '../../../../test/support/use-mock.js';
import { parseResponses, rawExchange, type ParsedResponse } from '../../../../test/support/raw-http.js';
import { rawRequestMutations } from '../../../../test/support/raw-request-mutations.js';

/**
 * The raw-HTTP fuzz: valid requests mutated as rawRequestMutations lists
 * (byte flips, insertions, deletions and truncations anywhere; Host, length
 * and transfer-coding faults; bad chunks; bare LF; pipelined garbage; other
 * targets, methods and versions; control characters; oversize headers;
 * Expect; the HTTP/2 preface), sent over raw sockets. Bounded: COUNT
 * requests, CONCURRENCY at a time, from a fixed seed (RAW_FUZZ_SEED to try
 * another), each answer waited for at most 5 s.
 */
const SEED = Number(process.env.RAW_FUZZ_SEED ?? 11_2026);
const COUNT = 2000;
const CONCURRENCY = 8;

/** What is wrong with the answers to one request, or undefined: every problem the fuzz looks for. */
function problemWith(request: Buffer, responses: ParsedResponse[], closed: boolean): string | undefined {
  if (!closed) return 'the server did not close the connection after the client half-closed';
  // Empty lines before a request are ignored (RFC 9112 §2.2): CR and LF alone, then the close, are no request.
  if (responses.length === 0 && !/^[\r\n]*$/.test(request.toString('latin1'))) return 'no answer';
  for (const response of responses) {
    const { status } = response;
    // 501 is a deliberate answer (CONNECT, a transfer coding the mock does not implement), not a failure of the mock.
    if (status >= 500 && status !== 501) return `a ${status}`;
    if (status < 200 && status !== 100) return `an informational ${status}`;
    // Stricter than "a body, if any, is the Error body": node's own refusals have none, and every refusal must carry one.
    if (status < 400) continue;
    if (!/^application\/json/.test(response.headers['content-type'] ?? '')) return `a ${status} of type ${response.headers['content-type']}`;
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(response.body.toString('utf8')) as Record<string, unknown>;
    } catch {
      return `a ${status} whose body is not JSON: ${JSON.stringify(response.body.toString('latin1').slice(0, 200))}`;
    }
    const keys = Object.keys(body).sort().join(',');
    if (keys !== 'code,message,status' || typeof body.code !== 'string' || typeof body.message !== 'string' || body.status !== status) {
      return `a ${status} whose body is not the Error body: ${response.body.toString('utf8').slice(0, 200)}`;
    }
  }
  return undefined;
}

describe('the raw-HTTP fuzz', () => {
  const mock = useMock({ transport: { headersTimeoutMs: 1000, requestTimeoutMs: 2000, connectionsCheckingIntervalMs: 100 } });

  it(`answers ${COUNT} mutated requests (seed ${SEED}) with well-formed HTTP, Error bodies, no 5xx, and keeps serving`, { timeout: 60_000 }, async () => {
    const requests = fc.sample(rawRequestMutations(TEST_KEY), { seed: SEED, numRuns: COUNT });
    const failures: string[] = [];
    for (let start = 0; start < requests.length; start += CONCURRENCY) {
      await Promise.all(
        requests.slice(start, start + CONCURRENCY).map(async (request, offset) => {
          const answer = await rawExchange(mock.port, request, { waitMs: 5000 });
          let problem: string | undefined;
          try {
            problem = problemWith(request, parseResponses(answer.bytes), answer.closed);
          } catch (error) {
            problem = `an answer that is not HTTP: ${(error as Error).message}`;
          }
          if (problem) failures.push(`seed ${SEED}, request ${start + offset}: ${problem}\n  sent ${JSON.stringify(request.toString('latin1').slice(0, 300))}`);
        }),
      );
    }
    expect(failures.slice(0, 10), `${failures.length} of ${COUNT} requests got a bad answer (RAW_FUZZ_SEED=${SEED} repeats the run)`).toEqual([]);
    expect((await mock.authed('/pets?limit=1')).status).toBe(200);
  });
});

