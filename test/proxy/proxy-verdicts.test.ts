import { describe, expect, it } from 'vitest';
import { checkStatement } from '../../src/verdict/exchange-check-ids.js';
import { startMock, useBuiltCli } from '../support/built-cli.js';
import { sha, useEdgeUpstream } from './edge-upstream.js';
import { rawRequest } from './raw-get.js';

/**
 * The checks' verdicts stay the same however often an answer repeats:
 * proxy mode remembers answers it found clean, never broken ones, so the
 * same request answered clean, then broken, then clean again gets each
 * verdict anew, and every broken answer is counted.
 */
useBuiltCli();
const upstream = useEdgeUpstream();

describe('repeated answers', () => {
  it('the same request answered clean and broken in turn: each broken answer is a violation, each clean one none', async () => {
    const mock = await startMock(['--proxy', upstream().url]);
    const origin = new URL(mock.url).origin;
    const bodies: string[] = [];
    for (let i = 0; i < 8; i++) bodies.push(sha((await rawRequest(`${mock.url}/pets?limit=1`, { headers: { authorization: 'Bearer some-client-key' } })).body));
    // Two answers in turn, passed on as the target sent them.
    expect(new Set(bodies).size).toBe(2);
    const { entries } = (await (await fetch(`${origin}/__mock/journal`)).json()) as { entries: Array<{ path: string; violations?: Array<{ rule: string }> }> };
    const listed = entries.filter((entry) => entry.path.startsWith('/v1/pets'));
    expect(listed.map((entry) => (entry.violations ?? []).map((v) => v.rule).join())).toEqual([
      '', 'exchange-response-schema', '', 'exchange-response-schema', '', 'exchange-response-schema', '', 'exchange-response-schema',
    ]);
    const { violations } = (await (await fetch(`${origin}/__mock/violations`)).json()) as { violations: Array<{ statement: string; count: number }> };
    expect(violations).toEqual([expect.objectContaining({ statement: checkStatement('exchange-response-schema'), count: 4 })]);
  });
});
