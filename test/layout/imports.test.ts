import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/shared/package-root.js';
import { describeCycle, findCycles, importGraph, ruleViolations } from './import-graph.js';
import { LAYER_RULES } from './layer-rules.js';

/**
 * The layout of src/ as its imports show it: no cycle, and the layers of
 * layer-rules.ts. Only the code that ships is read: tests (`*.test.ts`,
 * `*.suite.ts`) may import across layers to set things up.
 */

const ROOT = packageRoot();
const files = new Map<string, string>(
  readdirSync(join(ROOT, 'src'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !/\.(test|suite)\.ts$/.test(file))
    .map((file) => [`src/${file.replaceAll('\\', '/')}`, readFileSync(join(ROOT, 'src', file), 'utf8')] as const),
);
const edges = importGraph(files);
const cycles = findCycles(edges);
// Each folder of src/ on its own, so a cycle in one does not hide a new one in another.
const areas = readdirSync(join(ROOT, 'src'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => `src/${entry.name}/`);

describe('the imports of src/', () => {
  it('are read from every file that ships, with their targets resolved', () => {
    expect(files.size).toBeGreaterThan(50);
    // Known imports of each kind, so that a rule cannot pass because nothing was read.
    expect(edges).toContainEqual({ from: 'src/mock/main.ts', to: 'src/document/load-contract.ts', typeOnly: false });
    expect(edges).toContainEqual({ from: 'src/document/schema-compiler.ts', to: 'ajv', typeOnly: true });
    expect(edges.filter((edge) => edge.to.startsWith('src/') && !files.has(edge.to))).toEqual([]);
  });

  it.each(areas)('form no cycle through %s, type-only imports included', (area) => {
    const through = cycles.filter((cycle) => cycle.some((file) => file.startsWith(area)));
    expect(through.map((cycle) => describeCycle(cycle, edges))).toEqual([]);
  });

  it.each(LAYER_RULES.map((rule) => [rule.name, rule] as const))('%s', (_, rule) => {
    expect(ruleViolations(edges, rule)).toEqual([]);
  });
});
