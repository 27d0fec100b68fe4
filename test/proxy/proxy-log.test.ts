import { describe, expect, it } from 'vitest';
import { checkStatement } from '../../src/verdict/exchange-check-ids.js';
import { startMock, stop, useBuiltCli, type RunningMock } from '../support/built-cli.js';
import { useEdgeUpstream } from './edge-upstream.js';
import { rawRequest } from './raw-get.js';

/**
 * Proxy mode's terminal log, from the built mock over real HTTP: each
 * violation the target's answer broke is one line of the same log as the
 * request's own, with its check id, statement and request line, and no key
 * or query credential; `--quiet` leaves them out as it leaves out the
 * request's line. The mock is stopped before its output is read, so every
 * line it wrote is there.
 */
useBuiltCli();
const upstream = useEdgeUpstream();
const CLIENT_KEY = 'client-key-of-staging';
const QUERY_SECRET = 'query-secret-123';
const key = { authorization: `Bearer ${CLIENT_KEY}` };

/** The journal's entries, oldest first. */
async function journal(mock: RunningMock): Promise<Array<{ path: string; violations?: unknown[] }>> {
  return ((await (await fetch(`${new URL(mock.url).origin}/__mock/journal`)).json()) as { entries: Array<{ path: string; violations?: unknown[] }> }).entries;
}

/** Every JSON line the mock wrote, once it has stopped. */
async function linesAfterStop(mock: RunningMock): Promise<Array<Record<string, unknown>>> {
  await stop(mock);
  return mock
    .stdout()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('a violation in the terminal log', () => {
  it('is one line per violation, with its check id, statement and request line, and no key or query credential', async () => {
    const mock = await startMock(['--proxy', upstream().url, '--log-format', 'json']);
    // text/plain: one violation; a getPet answered with what it was sent: three (no id, name, categoryId); a JSON page elsewhere: none.
    await rawRequest(`${mock.url}/text?api_key=${QUERY_SECRET}`, { headers: key });
    await rawRequest(`${mock.url}/pets/echo?token=${QUERY_SECRET}`, { headers: key });
    await rawRequest(`${mock.url}/chunked`, { headers: key });
    const entries = await journal(mock);
    const lines = await linesAfterStop(mock);
    const broke = lines.filter((line) => line.rule !== undefined);

    const text = broke.filter((line) => line.path === '/v1/text');
    expect(text).toEqual([
      expect.objectContaining({ level: 30, method: 'GET', path: '/v1/text', status: 200, rule: 'exchange-media-type', statement: checkStatement('exchange-media-type') }),
    ]);
    expect(text[0]?.msg).toMatch(/^GET \/v1\/text 200 broke exchange-media-type \(.+\); seen: .*text\/plain/);
    const echo = broke.filter((line) => line.path === '/v1/pets/echo');
    expect(echo.length).toBe(entries.find((entry) => entry.path.startsWith('/v1/pets/echo'))?.violations?.length);
    expect(echo.length).toBe(3);
    for (const line of echo) expect(line).toMatchObject({ rule: 'exchange-response-schema', statement: checkStatement('exchange-response-schema') });
    expect(broke.filter((line) => line.path === '/v1/chunked')).toEqual([]);
    // The request's own line comes first, from the same logger.
    const requestLine = lines.findIndex((line) => line.path === '/v1/text' && line.ms !== undefined);
    expect(requestLine).toBeGreaterThanOrEqual(0);
    expect(lines.indexOf(text[0] as Record<string, unknown>)).toBe(requestLine + 1);
    expect(mock.stdout()).not.toContain(CLIENT_KEY);
    expect(mock.stdout()).not.toContain(QUERY_SECRET);
  });

  it('is left out with --quiet, as the request line is', async () => {
    const mock = await startMock(['--proxy', upstream().url, '--log-format', 'json', '--quiet']);
    await rawRequest(`${mock.url}/text`, { headers: key });
    expect((await journal(mock)).at(-1)?.violations).toHaveLength(1);
    const lines = await linesAfterStop(mock);
    // The stop's own warning shows: --quiet keeps warnings.
    expect(lines.some((line) => line.level === 40)).toBe(true);
    expect(lines.filter((line) => line.rule !== undefined || line.path !== undefined)).toEqual([]);
  });

  it('is readable on one line in the pretty log, the request line before it', async () => {
    const mock = await startMock(['--proxy', upstream().url]);
    await rawRequest(`${mock.url}/text`, { headers: key });
    await stop(mock);
    const shown = mock.stdout().split('\n').filter((line) => line.includes('/v1/text'));
    expect(shown).toHaveLength(2);
    expect(shown[0]).toMatch(/INFO: GET \/v1\/text 200 [\d.]+ms$/);
    expect(shown[1]).toMatch(/INFO: GET \/v1\/text 200 broke exchange-media-type \(What the service does: .*\); seen: \$\.headers\.content-type: .*text\/plain[^{]*$/);
  });
});
