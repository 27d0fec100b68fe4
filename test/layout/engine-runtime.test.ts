import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { maskSource } from '../../scripts/source-scan.js';
import { packageRoot } from '../../src/shared/package-root.js';
import { importGraph, type ImportEdge } from './import-graph.js';

/**
 * The engine runs in any runtime: from its entry (`animal-store-mock/fetch`)
 * no file reaches a `node:` module, a package that needs node, or a global
 * only node has, through imports that stay in the JavaScript (type-only
 * ones are erased). A dynamic `import()` counts: a bundler follows it too.
 * A use that asks first (`globalThis.process?.getBuiltinModule?.(…)`, with
 * a way on without it) is not one: ajv-instances.ts requires ajv so in the
 * node server, and is handed it by static-ajv.ts elsewhere.
 */
const ROOT = packageRoot();
const ENTRY = 'src/entries/fetch.ts';
const NODE_ONLY_PACKAGES = ['pino', 'pino-pretty', 'redis', '@hono/node-server', 'dredd-transactions', '@stoplight/prism-http', 'p-limit'];
const NODE_GLOBALS = /\b(Buffer|process|require|__dirname|__filename|setImmediate)\b(?=\s*[.(])/g;

const files = new Map<string, string>(
  readdirSync(join(ROOT, 'src'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !/\.(test|suite)\.ts$/.test(file))
    .map((file) => [`src/${file.replaceAll('\\', '/')}`, readFileSync(join(ROOT, 'src', file), 'utf8')] as const),
);

/** Every file `entry` reaches through value imports, with the chain that reaches it. */
function reached(edges: readonly ImportEdge[], entry: string): Map<string, string[]> {
  const chains = new Map<string, string[]>([[entry, [entry]]]);
  const queue = [entry];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    for (const edge of edges) {
      if (edge.from !== file || edge.typeOnly || chains.has(edge.to)) continue;
      chains.set(edge.to, [...(chains.get(file) as string[]), edge.to]);
      if (files.has(edge.to)) queue.push(edge.to);
    }
  }
  return chains;
}

const nodeOnly = (target: string): boolean => target.startsWith('node:') || NODE_ONLY_PACKAGES.some((name) => target === name || target.startsWith(`${name}/`));

describe('the engine', () => {
  const chains = reached(importGraph(files), ENTRY);

  it('is read whole: its entry reaches the app, the store and the steps', () => {
    expect(chains.has('src/mock/http/app.ts')).toBe(true);
    expect(chains.has('src/mock/core/store/memory/memory-store.ts')).toBe(true);
    expect(chains.has('src/mock/http/steps/session.ts')).toBe(true);
    // Where there is no require, ajv comes imported.
    expect(chains.has('src/document/static-ajv.ts')).toBe(true);
  });

  it('reaches no node: module and no package that needs node', () => {
    expect([...chains].filter(([target]) => nodeOnly(target)).map(([, chain]) => chain.join(' > '))).toEqual([]);
  });

  it('uses no global only node has', () => {
    const uses = [...chains.keys()].filter((file) => files.has(file)).flatMap((file) => {
      const { codeOnly } = maskSource(files.get(file) as string);
      return [...codeOnly.matchAll(NODE_GLOBALS)].map((match) => `${file}: ${match[1]}`);
    });
    expect(uses).toEqual([]);
  });

  it('would be caught reaching one: the node server does', () => {
    const server = reached(importGraph(files), 'src/mock/http/server.ts');
    expect([...server.keys()].filter(nodeOnly)).toContain('node:http');
  });
});
