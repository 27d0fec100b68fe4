import { afterEach, describe, expect, it } from 'vitest';
import { startMock, useBuiltCli } from '../support/built-cli.js';
import { startNoCorsUpstream, type NoCorsUpstream } from './no-cors-upstream.js';
import { endToEndHeaders, rawRequest } from './raw-get.js';

/**
 * The mock's own CORS on the target's answers, over real HTTP: a browser's
 * request (one with `Origin`) gets the policy the mock's preflight gave,
 * in place of the target's; any other request gets the target's fields
 * untouched. The body passes as sent either way.
 */
useBuiltCli();
const KEY = 'staging-key-for-cors';
const PAGE = 'http://localhost:5173';
let upstream: NoCorsUpstream | undefined;
afterEach(async () => upstream?.close());

const field = (raw: readonly string[], name: string): string[] => raw.flatMap((value, i) => (i % 2 === 0 && value.toLowerCase() === name ? [raw[i + 1] as string] : []));
const listed = (origin: string) => ({ headers: { authorization: `Bearer ${KEY}`, origin } });

describe('proxied answers to a browser carry the mock\'s CORS', () => {
  it('any origin by default: Allow-Origin *, the exposed fields, Vary merged, the target\'s own Access-Control-* dropped, the body as sent', async () => {
    upstream = await startNoCorsUpstream(KEY, { ownCors: true });
    const mock = await startMock(['--proxy', upstream.url, '--quiet']);
    const direct = await rawRequest(`${upstream.url}/pets`, listed(PAGE));
    const proxied = await rawRequest(`${mock.url}/pets`, listed(PAGE));
    expect(proxied.status).toBe(200);
    expect(proxied.body.equals(direct.body)).toBe(true);
    expect(field(proxied.rawHeaders, 'access-control-allow-origin')).toEqual(['*']);
    expect(field(proxied.rawHeaders, 'access-control-allow-credentials')).toEqual([]);
    expect(field(proxied.rawHeaders, 'access-control-expose-headers')[0]).toContain('Location');
    expect(field(proxied.rawHeaders, 'vary')).toEqual(['Accept-Encoding, Origin']);
    expect(field(proxied.rawHeaders, 'content-type')).toEqual(['application/json']);
  });

  it('with --cors-origin, the listed origin with credentials; an unlisted one gets no Allow-Origin, not even the target\'s', async () => {
    upstream = await startNoCorsUpstream(KEY, { ownCors: true });
    const mock = await startMock(['--proxy', upstream.url, '--quiet', '--cors-origin', PAGE]);
    const allowed = await rawRequest(`${mock.url}/pets`, listed(PAGE));
    expect(field(allowed.rawHeaders, 'access-control-allow-origin')).toEqual([PAGE]);
    expect(field(allowed.rawHeaders, 'access-control-allow-credentials')).toEqual(['true']);
    expect(field(allowed.rawHeaders, 'vary')).toEqual(['Accept-Encoding, Origin']);
    const other = await rawRequest(`${mock.url}/pets`, listed('https://staging.example'));
    expect(other.status).toBe(200);
    expect(field(other.rawHeaders, 'access-control-allow-origin')).toEqual([]);
    expect(field(other.rawHeaders, 'vary')).toEqual(['Accept-Encoding, Origin']);
  });

  it('a request without Origin gets the target\'s fields untouched', async () => {
    upstream = await startNoCorsUpstream(KEY, { ownCors: true });
    const mock = await startMock(['--proxy', upstream.url, '--quiet']);
    const headers = { authorization: `Bearer ${KEY}` };
    const direct = await rawRequest(`${upstream.url}/pets`, { headers });
    const proxied = await rawRequest(`${mock.url}/pets`, { headers });
    // The target's own Date passes on, one second later at most.
    const undated = (raw: readonly string[]): string[] => endToEndHeaders(raw).filter((line) => !line.startsWith('Date:'));
    expect(undated(proxied.rawHeaders)).toEqual(undated(direct.rawHeaders));
    expect(field(proxied.rawHeaders, 'access-control-allow-origin')).toEqual(['https://staging.example']);
  });

  it('the journal holds the answer as the client got it, the mock\'s CORS included', async () => {
    upstream = await startNoCorsUpstream(KEY);
    const mock = await startMock(['--proxy', upstream.url, '--quiet']);
    const created = await rawRequest(`${mock.url}/pets`, { method: 'POST', headers: { ...listed(PAGE).headers, 'content-type': 'application/json' }, body: '{"name":"Ada","categoryId":2}' });
    expect(created.status).toBe(201);
    const { entries } = (await (await fetch(`${new URL(mock.url).origin}/__mock/journal`)).json()) as { entries: Array<{ status: number; response: { headers: Record<string, string> } }> };
    expect(entries.map((entry) => [entry.status, entry.response.headers['access-control-allow-origin'], entry.response.headers.vary])).toEqual([[201, '*', 'Accept-Encoding, Origin']]);
  });
});
