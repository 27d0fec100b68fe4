import { afterEach, describe, expect, it } from 'vitest';
import { startMock, useBuiltCli, type RunningMock } from '../support/built-cli.js';
import { startEdgeUpstream } from './edge-upstream.js';
import { rawRequest } from './raw-get.js';

/**
 * A client's key of thousands of characters, echoed by the target in an
 * answer longer than the journal's excerpt: the excerpt is redacted as a
 * cut text (it may end in the key's first characters). The mock answers,
 * stays up, and keeps nothing of the key.
 */
useBuiltCli();
const closing: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  await Promise.all(closing.splice(0).map((close) => close()));
});

/** 7,000 characters, all different in every stretch of 24: a slice of it found anywhere is a leak. */
const LONG_KEY = Array.from({ length: 1_400 }, (_, i) => `k${i.toString(36).padStart(3, '0')}x`).join('');

async function adminGet(mock: RunningMock, path: string): Promise<unknown> {
  const response = await fetch(`${new URL(mock.url).origin}/__mock${path}`);
  expect(response.status).toBe(200);
  return response.json();
}

describe('a very long client key in proxy mode', () => {
  it('an echo of it past the excerpt is answered, the mock stays up, and no part of the key is kept', async () => {
    const upstream = await startEdgeUpstream();
    closing.push(() => upstream.close());
    const mock = await startMock(['--proxy', upstream.url, '--log-format', 'json']);
    // getPet's path: the echo is no Pet, so a violation with its curl line is kept too.
    const echoed = await rawRequest(`${mock.url}/pets/echo`, { headers: { authorization: `Bearer ${LONG_KEY}` } });
    expect(echoed.status).toBe(200);
    expect(echoed.body.toString()).toContain(LONG_KEY);
    expect((await rawRequest(`${mock.url}/pets/many`, { headers: { authorization: 'Bearer short-client-key' } })).status).toBe(200);
    const kept = JSON.stringify([await adminGet(mock, '/journal'), await adminGet(mock, '/violations')]) + mock.stdout() + mock.stderr();
    expect(kept).toContain('/pets/echo');
    for (const at of [0, 2_000, 6_000]) {
      expect(kept).not.toContain(LONG_KEY.slice(at, at + 24));
      expect(kept).not.toContain(Buffer.from(LONG_KEY).toString('base64').slice(at, at + 24));
    }
  }, 60_000);
});
