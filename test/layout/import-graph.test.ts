import { describe, expect, it } from 'vitest';
import { describeCycle, findCycles, importGraph, parseImports, resolveImport, ruleViolations } from './import-graph.js';
import { LAYER_RULES } from './layer-rules.js';

/** The graph functions on small made-up trees: each rule of imports.test.ts shown to fail where it should. */

const graph = (files: Record<string, string>) => importGraph(new Map(Object.entries(files)));

describe('parseImports', () => {
  it('reads every form of import and re-export, and which are type-only', () => {
    const text = [
      "import { a } from './a.js';",
      "import type { B } from './b.js';",
      'import {',
      '  c,',
      '  type C,',
      "} from './c.js';",
      "import * as d from 'd-package';",
      "export { e } from './e.js';",
      "export type { F } from './f.js';",
      "export * from './g.js';",
      "import './h.js';",
      "const i = await import('./i.js');",
      "const j = require('j/sub');",
    ].join('\n');
    expect(parseImports(text)).toEqual([
      { specifier: './a.js', typeOnly: false },
      { specifier: './b.js', typeOnly: true },
      { specifier: './c.js', typeOnly: false },
      { specifier: 'd-package', typeOnly: false },
      { specifier: './e.js', typeOnly: false },
      { specifier: './f.js', typeOnly: true },
      { specifier: './g.js', typeOnly: false },
      { specifier: './h.js', typeOnly: false },
      { specifier: './i.js', typeOnly: false },
      { specifier: 'j/sub', typeOnly: false },
    ]);
  });

  it('ignores imports written in comments and strings', () => {
    const text = "// import { a } from './a.js';\n/* import('./b.js') */\nconst help = \"import c from './c.js'\";\nconst t = `export * from './d.js'`;";
    expect(parseImports(text)).toEqual([]);
  });
});

describe('resolveImport', () => {
  const files = new Set(['src/mock/app.ts', 'src/mock/http/listen.ts', 'src/mock/store/index.ts']);
  it('resolves relative specifiers to the .ts files they name, and keeps packages as written', () => {
    expect(resolveImport('src/mock/http/node-bindings.ts', './listen.js', files)).toBe('src/mock/http/listen.ts');
    expect(resolveImport('src/mock/http/listen.ts', '../app.js', files)).toBe('src/mock/app.ts');
    expect(resolveImport('src/mock/app.ts', './store', files)).toBe('src/mock/store/index.ts');
    expect(resolveImport('src/mock/app.ts', './missing.js', files)).toBe('src/mock/missing.js');
    expect(resolveImport('src/mock/app.ts', '@hono/node-server', files)).toBe('@hono/node-server');
  });
});

describe('findCycles', () => {
  it('finds a cycle closed by a type-only import, and prints it as a chain', () => {
    const edges = graph({
      'src/a.ts': "import { b } from './b.js';",
      'src/b.ts': "import { c } from './c.js';",
      'src/c.ts': "import type { A } from './a.js';",
    });
    const cycles = findCycles(edges);
    expect(cycles).toEqual([['src/a.ts', 'src/b.ts', 'src/c.ts', 'src/a.ts']]);
    expect(describeCycle(cycles[0]!, edges)).toBe('src/a.ts → src/b.ts → src/c.ts → src/a.ts (type-only)');
  });

  it('lists each cycle once, finds cycles sharing a file, and none in a graph without one', () => {
    const cyclic = graph({
      'src/a.ts': "import './b.js'; import './c.js';",
      'src/b.ts': "import './a.js';",
      'src/c.ts': "export * from './a.js';",
      'src/d.ts': "import './a.js';",
    });
    expect(findCycles(cyclic)).toEqual([
      ['src/a.ts', 'src/b.ts', 'src/a.ts'],
      ['src/a.ts', 'src/c.ts', 'src/a.ts'],
    ]);
    const acyclic = graph({ 'src/a.ts': "import './b.js'; import './c.js';", 'src/b.ts': "import './c.js';", 'src/c.ts': "import 'hono';" });
    expect(findCycles(acyclic)).toEqual([]);
  });

  it('stops at the limit', () => {
    const edges = graph({ 'src/a.ts': "import './b.js'; import './c.js';", 'src/b.ts': "import './a.js';", 'src/c.ts': "import './a.js';" });
    expect(findCycles(edges, 1)).toHaveLength(1);
  });
});

describe('the layer rules', () => {
  const rule = (name: string) => LAYER_RULES.find((candidate) => candidate.name.startsWith(name))!;
  const edges = graph({
    'src/mock/core/store.ts': "import { Hono } from 'hono';\nimport { cors } from 'hono/cors';\nimport type { HttpBindings } from '@hono/node-server';\nimport { listen } from '../http/listen.js';\nimport 'honorific';",
    'src/mock/http/listen.ts': "import { serve } from '@hono/node-server';",
    'src/document/load.ts': "import { a } from '../mock/app.js';\nimport type { R } from '../contract-tests/run-suite.js';\nimport { b } from './other.js';",
    'src/document/other.ts': '',
    'src/contract-tests/run-suite.ts': "const app = await import('../mock/app.js');\nimport { load } from '../document/load.js';",
    'src/mock/app.ts': "import { load } from '../document/load.js';",
  });

  it('catch Hono and the HTTP layer in the mock core, and nothing outside it', () => {
    expect(ruleViolations(edges, rule('src/mock/core/ imports no Hono'))).toEqual([
      'src/mock/core/store.ts → hono',
      'src/mock/core/store.ts → hono/cors',
      'src/mock/core/store.ts → @hono/node-server (type-only)',
    ]);
    expect(ruleViolations(edges, rule('src/mock/core/ imports nothing under src/mock/http/'))).toEqual(['src/mock/core/store.ts → src/mock/http/listen.ts']);
  });

  it('catch the contract importing the mock or the harness, and the harness importing the mock', () => {
    expect(ruleViolations(edges, rule('src/document/'))).toEqual(['src/document/load.ts → src/mock/app.ts', 'src/document/load.ts → src/contract-tests/run-suite.ts (type-only)']);
    expect(ruleViolations(edges, rule('src/contract-tests/'))).toEqual(['src/contract-tests/run-suite.ts → src/mock/app.ts']);
  });
});
