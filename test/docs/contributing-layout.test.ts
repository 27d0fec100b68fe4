import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OPERATION_STEPS } from '../../src/mock/http/pipeline.js';
import { packageRoot } from '../../src/shared/package-root.js';
import { readDoc } from '../support/markdown.js';

/**
 * The project layout of docs/contributing.md is a map a newcomer follows:
 * every folder it lists exists, every file it names is in its folder, and
 * every folder of the source (src/, test/, bench/, scripts/) has its line,
 * so a folder added or moved fails here rather than in a reader's hands.
 */
const ROOT = packageRoot();

/** The lines of the layout block: a folder, then what it holds. */
function layoutLines(): Array<{ folder: string; text: string }> {
  const doc = readDoc('docs/contributing.md');
  const start = doc.indexOf('One line per folder:');
  const block = /```\n([\s\S]*?)\n```/.exec(doc.slice(start))?.[1] ?? '';
  return block.split('\n').map((line) => {
    const [folder = '', ...rest] = line.split(/\s+/);
    return { folder, text: rest.join(' ') };
  });
}

/** Every folder below `dir` (itself included), as paths from the root ending in `/`; node_modules and build output aside. */
function folders(dir: string): string[] {
  const here = `${relative(ROOT, join(ROOT, dir))}/`;
  const below = readdirSync(join(ROOT, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !['node_modules', 'dist', 'results'].includes(entry.name))
    .flatMap((entry) => folders(join(dir, entry.name)));
  return [here, ...below];
}

/** The file names a line mentions (`pipeline.ts`, `console.css`), not the build's output (dist/…). */
const namedFiles = (text: string): string[] =>
  [...text.matchAll(/(?<![\w/.-])((?:[\w-]+\/)*[\w.-]+\.(?:ts|js|cjs|json|yaml|yml|html|css|sh|md))\b/g)]
    .map((match) => match[1] as string)
    .filter((name) => !name.startsWith('dist/'));

/** Whether `name` (a file name, or a path within the folder) is a file somewhere below `folder`. */
function foundBelow(folder: string, name: string): boolean {
  if (existsSync(join(ROOT, folder, name))) return true;
  return readdirSync(join(ROOT, folder), { withFileTypes: true }).some((entry) => entry.isDirectory() && entry.name !== 'node_modules' && foundBelow(join(folder, entry.name), name));
}

describe("docs/contributing.md's project layout", () => {
  const lines = layoutLines();

  it('is found, a line a folder', () => {
    expect(lines.length).toBeGreaterThan(30);
    for (const { folder } of lines) expect(folder).toMatch(/^[\w./-]+\/$/);
  });

  it('lists only folders that exist', () => {
    const missing = lines.filter(({ folder }) => !existsSync(join(ROOT, folder)) || !statSync(join(ROOT, folder)).isDirectory()).map(({ folder }) => folder);
    expect(missing).toEqual([]);
  });

  it('names only files that are in the folder of their line (or at the root)', () => {
    const missing = lines.flatMap(({ folder, text }) => namedFiles(text).filter((name) => !foundBelow(folder, name) && !existsSync(join(ROOT, name))).map((name) => `${folder}: ${name}`));
    expect(missing).toEqual([]);
  });

  it('has a line for every folder of the source, the tests, the benchmarks and the scripts', () => {
    const listed = new Set(lines.map(({ folder }) => folder));
    const unlisted = ['src', 'test', 'bench', 'scripts'].flatMap(folders).filter((folder) => !listed.has(folder) && !['src/', 'test/'].includes(folder));
    expect(unlisted).toEqual([]);
  });
});

describe("docs/contributing.md's order of the steps", () => {
  it('is the order pipeline.ts builds an operation from', () => {
    const sentence = /in this order: ([^.]*?), then\s+the operation/.exec(readDoc('docs/contributing.md').replace(/\n/g, ' '))?.[1];
    expect(sentence?.split(', ')).toEqual([...OPERATION_STEPS]);
  });
});
