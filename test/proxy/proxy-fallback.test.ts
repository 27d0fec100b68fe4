import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:net';
import { startMock, useBuiltCli, type RunningMock } from '../support/built-cli.js';
import { adminDocumentChecker } from '../support/admin-document.js';
import { startEdgeUpstream } from './edge-upstream.js';
import { endToEndHeaders, rawRequest, type RawGot } from './raw-get.js';

/**
 * `--proxy-fallback mock` over real HTTP: while the target cannot be
 * reached or is too slow, the mock answers a bodiless request from its own
 * catalogue, says so in `X-Mock-Fallback` and in the journal, and answers
 * exactly what the mock alone answers; a request whose body already went
 * toward the target gets the target's failure as without the flag.
 */
useBuiltCli();
const KEY = 'Bearer animal-store-dev-key';
const admin = adminDocumentChecker();
const closing: Array<() => void> = [];
afterEach(() => closing.splice(0).forEach((close) => close()));

async function closedTarget(): Promise<string> {
  const edge = await startEdgeUpstream();
  await edge.close();
  return edge.url;
}

/** A target that takes connections and never answers. */
async function silentTarget(): Promise<string> {
  const server: Server = createServer(() => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closing.push(() => server.close());
  const { port } = server.address() as { port: number };
  return `http://127.0.0.1:${port}/v1`;
}

const header = (answer: RawGot, name: string): string | undefined => {
  const at = answer.rawHeaders.findIndex((field, i) => i % 2 === 0 && field.toLowerCase() === name);
  return at === -1 ? undefined : answer.rawHeaders[at + 1];
};

async function lastEntry(mock: RunningMock): Promise<Record<string, unknown>> {
  const response = await fetch(`${new URL(mock.url).origin}/__mock/journal`);
  const body = (await response.json()) as { entries: Array<Record<string, unknown>> };
  expect(admin('GET', '/__mock/journal', response.status, body)).toBeUndefined();
  return body.entries.at(-1) as Record<string, unknown>;
}

describe('--proxy-fallback mock', () => {
  it.each([
    ['unreachable', closedTarget, [] as string[], 'upstream_unavailable', 'unavailable'],
    ['too slow', silentTarget, ['--proxy-timeout', '300'], 'upstream_timeout', 'timeout'],
  ] as const)('a target %s: the mock answers as it would alone, marked in a header and the journal', async (_name, target, flags, code, upstream) => {
    const alone = await startMock([]);
    const mock = await startMock(['--proxy', await target(), '--proxy-fallback', 'mock', ...flags]);
    for (const path of ['/pets?limit=3', '/pets/1', '/pets/999999']) {
      const expected = await rawRequest(`${alone.url}${path}`, { headers: { authorization: KEY } });
      const answer = await rawRequest(`${mock.url}${path}`, { headers: { authorization: KEY } });
      expect(answer.status).toBe(expected.status);
      expect(answer.body.toString()).toBe(expected.body.toString());
      expect(header(answer, 'x-mock-fallback')).toBe(code);
      expect(header(expected, 'x-mock-fallback')).toBeUndefined();
      expect(await lastEntry(mock)).toMatchObject({ status: expected.status, upstream, fallback: 'mock' });
    }
    // A browser app may read it.
    const fromPage = await rawRequest(`${mock.url}/pets/1`, { headers: { authorization: KEY, origin: 'http://app.test' } });
    expect(header(fromPage, 'access-control-expose-headers')?.toLowerCase()).toContain('x-mock-fallback');
  });

  it('a request whose body went toward the target gets 502, not the mock\'s answer', async () => {
    const mock = await startMock(['--proxy', await closedTarget(), '--proxy-fallback', 'mock']);
    const body = JSON.stringify({ name: 'Rex', categoryId: 1 });
    const answer = await rawRequest(`${mock.url}/pets`, { method: 'POST', headers: { authorization: KEY, 'content-type': 'application/json' }, body });
    expect(answer.status).toBe(502);
    expect(JSON.parse(answer.body.toString())).toMatchObject({ code: 'upstream_unavailable', status: 502 });
    expect(header(answer, 'x-mock-fallback')).toBeUndefined();
    const entry = await lastEntry(mock);
    expect(entry).toMatchObject({ status: 502, upstream: 'unavailable' });
    expect(entry.fallback).toBeUndefined();
  });

  it('a reachable target answers as without the flag: no header added', async () => {
    const edge = await startEdgeUpstream();
    closing.push(() => void edge.close());
    const mock = await startMock(['--proxy', edge.url, '--proxy-fallback', 'mock']);
    const direct = await rawRequest(`${edge.url}/text`);
    const answer = await rawRequest(`${mock.url}/text`);
    expect(endToEndHeaders(answer.rawHeaders)).toEqual(endToEndHeaders(direct.rawHeaders));
    expect(answer.body.toString()).toBe('hello\n');
    expect((await lastEntry(mock)).fallback).toBeUndefined();
  });
});
