import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { FAULTY_SERVER_KEY } from '../faulty-servers/defect.js';
import { EDGE_CORRECT, EDGE_FAULTY, type EdgeSpellingServer } from './edge-spellings.js';
import { bothCurlLinesReproduce, runSpelling, type SpellingRunResult } from './run-spelling.js';

/**
 * Each server of edge-spellings.ts run through the built CLI with --seed 1
 * over real HTTP. A faulty one must fail a contract
 * rule whose report carries a curl line of the spelled request beside one of
 * the plain request; for a key bypass, the keyless lines pasted into bash
 * must show a 401 (plain) and a 2xx (spelled). The correct ones must pass.
 * Each run's report is kept for reading in a temporary folder of its own (`edge-spellings-*` under the system's).
 */

const OUT = mkdtempSync(join(tmpdir(), 'edge-spellings-'));

interface Found {
  /** A failed rule whose replay block shows the spelled request. */
  rule?: string;
  /** That block also shows a plain request (a line without the spelling). */
  plainToo: boolean;
  /** For a bypass: pasted, the keyless lines show 401 and a 2xx. */
  reproduces: boolean;
}

function find(server: EdgeSpellingServer, result: SpellingRunResult): Found {
  const spelled = server.spelled as RegExp;
  const candidates = result.failed.filter((rule) => (result.replays.get(rule) ?? []).some((line) => spelled.test(line)));
  const score = (rule: string) => {
    const lines = result.replays.get(rule) ?? [];
    const plain = lines.some((line) => !spelled.test(line));
    return { rule, plainToo: plain, reproduces: server.kind === 'bypass' ? bothCurlLinesReproduce(result, rule) : plain };
  };
  const scored = candidates.map(score);
  return scored.find((s) => s.reproduces && s.plainToo) ?? scored[0] ?? { plainToo: false, reproduces: false };
}

function keep(server: EdgeSpellingServer, result: SpellingRunResult, found?: Found): void {
  const replays = [...result.replays].map(([rule, lines]) => `  ${rule}:\n${lines.map((l) => `    ${l}`).join('\n')}`).join('\n');
  const pasted = [...result.pasted].map(([rule, lines]) => `  ${rule}: ${lines.map((l) => l.status).join(', ')}`).join('\n');
  writeFileSync(
    join(OUT, `${server.id}.txt`),
    `${server.name}\nexit ${result.exitCode}\nfailed: ${result.failed.join(', ')}\nfound: ${JSON.stringify(found)}\nreplays:\n${replays}\npasted:\n${pasted}\n\n${result.pretty}`,
  );
}

describe('spellings of edges and clients: faulty servers are named with both curl lines', () => {
  it.for(EDGE_FAULTY)('$id ($kind) $spelling', { timeout: 120_000 }, async (server, { expect, annotate }) => {
    const result = await runSpelling(server);
    const found = find(server, result);
    keep(server, result, found);
    await annotate(`${server.id}: failed ${result.failed.join(', ') || 'no contract rule'}; spelled line under ${found.rule ?? 'none'}; plain too ${found.plainToo}; reproduces ${found.reproduces}`);
    expect(result.pretty).not.toContain(FAULTY_SERVER_KEY);
    expect(result.exitCode, 'the run fails').toBe(1);
    expect(result.failed.length, 'a contract rule fails').toBeGreaterThan(0);
    expect(found.rule, `a failed rule whose replay shows the spelled request ${server.spelled}; failed: ${JSON.stringify(result.failed)}`).toBeDefined();
    expect(found.plainToo, `the replay of ${found.rule} shows the plain request too: ${JSON.stringify(result.replays.get(found.rule as string))}`).toBe(true);
    if (server.kind === 'bypass') expect(found.reproduces, `keyless lines of ${found.rule} pasted: 401 and a 2xx: ${JSON.stringify(result.pasted.get(found.rule as string))}`).toBe(true);
  });
});

describe('spellings of edges and clients: correct servers pass', () => {
  it.for(EDGE_CORRECT)('$id passes', { timeout: 120_000 }, async (server, { expect, annotate }) => {
    const result = await runSpelling(server);
    keep(server, result);
    await annotate(`${server.id}: failed ${result.failed.join(', ') || 'nothing'}`);
    expect(result.failed).toEqual([]);
    expect(result.exitCode).toBe(0);
  });
});
