import { describe, it } from 'vitest';
import { startApiServer } from '../../test/support/contract-cli.js';
import { useContractRun } from '../../test/support/contract-run-fixture.js';
import { runSuite } from './run-suite.js';

/**
 * Every name a run creates is one rule's. On a server that refuses a name
 * already taken, a name two rules send would be refused to whichever came
 * second, so their answers, and what a profile learns, would follow timing.
 * The empty name is the probe of names' alone.
 */
const KEY = 'names-by-rule-key';
const SEEDS = [1, 7001, 23397];
const { servers } = useContractRun('names-by-rule');

describe('the names a run creates', () => {
  it.for(SEEDS)('seed %i: each is sent by one rule; the empty name by the probe of names only', { timeout: 120_000 }, async (seed, { expect }) => {
    const server = await startApiServer({ apiKey: KEY });
    servers.push(server);
    const rulesByName = new Map<string, Set<string>>();
    const creates: Array<Promise<unknown>> = [];
    const tap = {
      probe(ruleId: string, request: { method: string }, probed: Promise<{ exchange: { response?: { status: number; json?: unknown } } }>) {
        if (request.method !== 'POST') return;
        creates.push(
          probed.then(({ exchange }) => {
            const name = (exchange.response?.json as { name?: unknown } | undefined)?.name;
            if (exchange.response?.status === 201 && typeof name === 'string') rulesByName.set(name, (rulesByName.get(name) ?? new Set()).add(ruleId));
          }),
        );
      },
      observe() {},
    };
    const run = await runSuite({ baseUrl: server.url, apiKey: KEY, seed, tap });
    await Promise.all(creates);
    expect(run.ok && run.report.ok).toBe(true);
    expect(rulesByName.size).toBeGreaterThan(100);
    expect([...rulesByName].filter(([, rules]) => rules.size > 1).map(([name, rules]) => `${JSON.stringify(name)}: ${[...rules].join(', ')}`)).toEqual([]);
    expect([...(rulesByName.get('') ?? [])]).toEqual(['create-silent-choices']);
  });
});
