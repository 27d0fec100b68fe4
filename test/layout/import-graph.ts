/**
 * The import graph of a set of TypeScript files, read as text (no type
 * information needed): which file imports which, whether only for types,
 * the cycles, and the imports a layering rule forbids. Pure functions over
 * in-memory files, so each can be shown to fail on a small made-up set.
 */
import { posix } from 'node:path';
import { maskSource } from '../../scripts/source-scan.js';

export interface ImportSite {
  specifier: string;
  /** `import type … from` or `export type … from`: erased from the JavaScript, still a dependency of the design. */
  typeOnly: boolean;
}

export interface ImportEdge {
  from: string;
  /** A repository path (`src/mock/app.ts`) for a relative import; the specifier as written for a package (`hono/cors`). */
  to: string;
  typeOnly: boolean;
}

// Matched on the code with comments and literal contents masked, so an import written in a string or a comment is not one.
const STATIC = /\b(import|export)\s+(type\s+)?[\w$*{}\s,]*?\bfrom\s*(['"])/g;
const SIDE_EFFECT = /\bimport\s*(['"])/g;
const CALL = /\b(?:import|require)\s*\(\s*(['"])/g;

/** Every import of `text`: static, type-only, re-exports, side-effect, dynamic `import('…')` and `require('…')` with a literal. */
export function parseImports(text: string): ImportSite[] {
  const { codeOnly, withoutComments } = maskSource(text);
  const sites: Array<ImportSite & { at: number }> = [];
  const literalAt = (quoteAt: number): string => withoutComments.slice(quoteAt + 1, codeOnly.indexOf(codeOnly[quoteAt] as string, quoteAt + 1));
  for (const match of codeOnly.matchAll(STATIC)) {
    const quoteAt = match.index + match[0].length - 1;
    sites.push({ at: match.index, specifier: literalAt(quoteAt), typeOnly: match[2] !== undefined });
  }
  for (const pattern of [SIDE_EFFECT, CALL]) {
    for (const match of codeOnly.matchAll(pattern)) {
      sites.push({ at: match.index, specifier: literalAt(match.index + match[0].length - 1), typeOnly: false });
    }
  }
  return sites.sort((a, b) => a.at - b.at).map(({ specifier, typeOnly }) => ({ specifier, typeOnly }));
}

/** Where `specifier`, imported by `from`, leads: a relative one to the file of `files` it names (`./x.js` is `./x.ts`), a package's as written. */
export function resolveImport(from: string, specifier: string, files: ReadonlySet<string>): string {
  if (!specifier.startsWith('.')) return specifier;
  const path = posix.normalize(posix.join(posix.dirname(from), specifier));
  const candidates = [path.replace(/\.js$/, '.ts'), path, `${path}.ts`, `${path}/index.ts`];
  return candidates.find((candidate) => files.has(candidate)) ?? path;
}

/** The edges of `files` (repository path to text). */
export function importGraph(files: ReadonlyMap<string, string>): ImportEdge[] {
  const paths = new Set(files.keys());
  return [...files].flatMap(([from, text]) => parseImports(text).map(({ specifier, typeOnly }) => ({ from, to: resolveImport(from, specifier, paths), typeOnly })));
}

/**
 * The elementary cycles among the files (edges to packages play no part),
 * each as a chain that ends where it starts, at most `limit` of them. Each
 * cycle is listed once, from its first file in sorted order.
 */
export function findCycles(edges: readonly ImportEdge[], limit = 100): string[][] {
  const files = new Set(edges.map((edge) => edge.from));
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) {
    if (!files.has(to)) continue;
    const targets = next.get(from) ?? [];
    if (!targets.includes(to)) targets.push(to);
    next.set(from, targets.sort());
  }
  const order = [...files].sort();
  const rank = new Map(order.map((file, index) => [file, index]));
  const component = stronglyConnected(order, next);
  const cycles: string[][] = [];
  // From each file, the paths back to it through files after it in order, within its component (no cycle leaves one):
  // each cycle is found from its first file only.
  for (const start of order) {
    const walk = (file: string, path: string[]): void => {
      for (const to of next.get(file) ?? []) {
        if (cycles.length >= limit) return;
        if (to === start) cycles.push([...path, start]);
        else if (component.get(to) === component.get(start) && (rank.get(to) as number) > (rank.get(start) as number) && !path.includes(to)) walk(to, [...path, to]);
      }
    };
    walk(start, [start]);
  }
  return cycles;
}

/** Tarjan's strongly connected components: each file's component number. */
function stronglyConnected(files: readonly string[], next: ReadonlyMap<string, readonly string[]>): Map<string, number> {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const component = new Map<string, number>();
  const stack: string[] = [];
  let components = 0;
  const visit = (file: string): void => {
    index.set(file, index.size);
    low.set(file, index.get(file) as number);
    stack.push(file);
    for (const to of next.get(file) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(file, Math.min(low.get(file) as number, low.get(to) as number));
      } else if (!component.has(to)) {
        low.set(file, Math.min(low.get(file) as number, index.get(to) as number));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const id = components++;
    let member: string | undefined;
    do {
      member = stack.pop() as string;
      component.set(member, id);
    } while (member !== file);
  };
  for (const file of files) if (!index.has(file)) visit(file);
  return component;
}

/** A cycle as one line: `a.ts → b.ts (type-only) → a.ts`, marking the steps made by type-only imports alone. */
export function describeCycle(cycle: readonly string[], edges: readonly ImportEdge[]): string {
  return cycle
    .map((file, index) => {
      if (index === 0) return file;
      const from = cycle[index - 1];
      const steps = edges.filter((edge) => edge.from === from && edge.to === file);
      return `→ ${file}${steps.every((edge) => edge.typeOnly) ? ' (type-only)' : ''}`;
    })
    .join(' ');
}

export interface LayerRule {
  name: string;
  /** The importing files the rule is about. */
  appliesTo: (file: string) => boolean;
  /** The targets (repository paths, or package specifiers) they must not import. */
  forbids: (target: string) => boolean;
}

/** The imports that break `rule`, as `importer → imported` lines. */
export function ruleViolations(edges: readonly ImportEdge[], rule: LayerRule): string[] {
  return edges.filter((edge) => rule.appliesTo(edge.from) && rule.forbids(edge.to)).map((edge) => `${edge.from} → ${edge.to}${edge.typeOnly ? ' (type-only)' : ''}`);
}
