import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { DEFAULT_API_KEY } from '../../src/shared/default-api-key.js';
import { startMock, useBuiltCli, type RunningMock } from '../support/built-cli.js';
import { startEdgeUpstream, useEdgeUpstream } from './edge-upstream.js';
import { rawRequest } from './raw-get.js';

/**
 * The start-up banner in proxy mode, from the built mock, and what it says
 * tried over real HTTP: it names the target and who answers, not a
 * catalogue nothing answers from nor a key the mock does not check; its
 * curl line reaches the target; the key it names does what it says.
 */
useBuiltCli();
const upstream = useEdgeUpstream();
const run = promisify(execFile);

/** A banner line's text after its label (`Target`, `API key`…), or undefined when the banner has none. */
const line = (mock: RunningMock, label: string): string | undefined => new RegExp(`^  ${label}: +(.*)$`, 'm').exec(mock.banner)?.[1];

/** Pastes the banner's curl line into bash as written, `<TARGET_KEY>` replaced by `key`: the status it got. */
async function tryLine(mock: RunningMock, key: string): Promise<number> {
  const curl = (line(mock, 'Try') ?? '').replace('<TARGET_KEY>', key);
  const { stdout } = await run('bash', ['-c', `${curl} -s -o /dev/null -w '%{http_code}'`]);
  return Number(stdout);
}

describe('the banner in proxy mode', () => {
  it('names the target and who answers, no catalogue, and the key only for the admin API it serves; its curl line reaches the target', async () => {
    const mock = await startMock(['--proxy', upstream().url]);
    expect(line(mock, 'Target')).toBe(`${upstream().url} (every answer checked: its violations in ${new URL(mock.url).origin}/__mock/violations, the console and the log)`);
    expect(line(mock, 'Answers')).toMatch(/^the target, for every request under \/v1 that no stub or Prefer answers; .* the mock's 502 or 504$/);
    expect(line(mock, 'CORS')).toMatch(/^the mock's own \(--cors-origin \*\), on the target's answers too/);
    expect(line(mock, 'Catalogue')).toBeUndefined();
    expect(mock.banner).not.toMatch(/\d+ pets from/);
    expect(line(mock, 'Scenario')).toBe('default (scenarios/default.yaml): no stub');
    expect(line(mock, 'Try')).toBe(`curl -H 'Authorization: Bearer <TARGET_KEY>' '${mock.url}/pets?limit=5'`);
    expect(line(mock, 'API key')).toBe(`${DEFAULT_API_KEY} (the default; set --api-key or MOCK_API_KEYS): for the admin API's changes (the console) only; requests under /v1 carry the target's key, which the target judges`);

    // The curl line goes to the target, with the key as given.
    const seen = upstream().seen.length;
    expect(await tryLine(mock, 'staging-key')).toBe(200);
    expect(upstream().seen.slice(seen)).toEqual(['GET /v1/pets?limit=5']);
    // The mock's key is not checked under /v1: none at all is forwarded too.
    expect((await rawRequest(`${mock.url}/pets?limit=1`)).status).toBe(200);
    // It is for the admin API's changes.
    const forget = (key?: string) => fetch(`${new URL(mock.url).origin}/__mock/violations`, { method: 'DELETE', headers: key ? { authorization: `Bearer ${key}` } : {} });
    expect((await forget()).status).toBe(401);
    expect((await forget(DEFAULT_API_KEY)).status).toBe(200);
  });

  it('with --proxy-fallback mock, names the catalogue as what answers while the target is away, as it does', async () => {
    const away = await startEdgeUpstream();
    await away.close();
    const mock = await startMock(['--proxy', away.url, '--proxy-fallback', 'mock']);
    expect(line(mock, 'Answers')).toMatch(/while the target cannot be reached or is too slow, the mock's own catalogue \(--proxy-fallback mock, marked X-Mock-Fallback\)$/);
    expect(line(mock, 'Catalogue')).toMatch(/^30 pets from .*pets\.json \(loaded in \d+ ms\), answering only while the target is away$/);
    const answer = await rawRequest(`${mock.url}/pets/1`, { headers: { authorization: 'Bearer any' } });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body.toString())).toMatchObject({ id: 1 });
  });

  it('with --upstream-key, names the key clients send, never the target\'s, and its curl line works as written', async () => {
    const upstreamKey = 'upstream-secret-4711';
    const mock = await startMock(['--proxy', upstream().url, '--upstream-key', upstreamKey, '--cors-origin', 'http://localhost:5173']);
    expect(line(mock, 'API key')).toBe(`${DEFAULT_API_KEY} (the default; set --api-key or MOCK_API_KEYS): clients send it, and the target gets --upstream-key's key instead (never printed)`);
    expect(line(mock, 'CORS')).toMatch(/^the mock's own \(--cors-origin http:\/\/localhost:5173\), on the target's answers too/);
    expect(mock.banner).not.toContain(upstreamKey);
    expect(await tryLine(mock, 'unused')).toBe(200);
    // What it says: the mock's key is checked.
    expect((await rawRequest(`${mock.url}/pets?limit=1`, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
  });

  it('with --admin-key, names no API key, in the JSON start-up line too', async () => {
    const mock = await startMock(['--proxy', upstream().url, '--admin-key', 'admin-secret-0815', '--log-format', 'json']);
    const started = JSON.parse(mock.banner.split('\n')[0] as string) as Record<string, unknown>;
    expect(started).toMatchObject({ proxy: expect.stringContaining(upstream().url), answers: expect.stringMatching(/^the target/), cors: expect.stringMatching(/^the mock's own/), scenarioStubs: 0 });
    expect(started.apiKeyUse).toBe("none used: requests under /v1 carry the target's key, which the target judges, and the admin API takes --admin-key");
    expect(started.apiKey).toBeUndefined();
    expect(started.catalogue).toBeUndefined();
    expect(started.curl).toBe(`curl -H 'Authorization: Bearer <TARGET_KEY>' '${mock.url}/pets?limit=5'`);
    expect(mock.banner).not.toContain(DEFAULT_API_KEY);
  });
});
