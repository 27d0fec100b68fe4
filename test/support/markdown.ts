import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../src/shared/package-root.js';

/**
 * The users' documentation as GitHub shows it: which files it is, their
 * headings' anchors, their links and their code blocks. Read by the tests
 * that hold the documentation to what the repository and the mock do.
 */

/** README.md and the guides (docs/*.md), as paths from the package root. docs/pending/ is a subfolder: not read. */
export function userDocs(): string[] {
  const guides = readdirSync(join(packageRoot(), 'docs')).filter((file) => file.endsWith('.md')).map((file) => `docs/${file}`);
  return ['README.md', ...guides.sort()];
}

export const readDoc = (path: string): string => readFileSync(join(packageRoot(), path), 'utf8');

interface DocLine {
  line: string;
  /** From 1. */
  number: number;
  /** Inside a fenced code block, its fences included. */
  fenced: boolean;
  /** On an opening fence: what follows it (`sh`, `yaml`, or ``). */
  opens?: string;
  /** On a closing fence. */
  closes?: boolean;
}

/** Each line, with where the fenced code blocks (``` or ~~~, closed by the same marker) open and close. */
function docLines(text: string): DocLine[] {
  let open: string | undefined;
  return text.split('\n').map((line, index) => {
    const number = index + 1;
    const fence = /^\s*(```|~~~)(.*)$/.exec(line);
    if (fence && open === undefined) {
      open = fence[1];
      return { line, number, fenced: true, opens: (fence[2] ?? '').trim() };
    }
    if (fence && fence[1] === open && (fence[2] ?? '').trim() === '') {
      open = undefined;
      return { line, number, fenced: true, closes: true };
    }
    return { line, number, fenced: open !== undefined };
  });
}

/**
 * GitHub's anchor for a heading (github-slugger): its text as rendered
 * (inline code and link text kept, markup dropped), lower-cased, every
 * character but letters, marks, numbers, `_`, `-` and spaces removed, spaces
 * as `-`; a repeated anchor gets `-1`, `-2`, … in order.
 */
export function headingAnchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const { line, fenced } of docLines(text)) {
    const heading = fenced ? null : /^#{1,6}\s+(.*?)(\s+#+)?\s*$/.exec(line);
    if (!heading) continue;
    const rendered = (heading[1] ?? '').replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1');
    const base = rendered.toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replaceAll(' ', '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

export interface DocLink {
  /** The line it is on, from 1. */
  line: number;
  /** As written: `docs/mock.md#the-command-line`, `#quick-start`, `https://…`. */
  target: string;
  image: boolean;
}

/** Every inline link and image outside code (fenced blocks and `code spans`). */
export function docLinks(text: string): DocLink[] {
  const links: DocLink[] = [];
  for (const { line, number, fenced } of docLines(text)) {
    if (fenced) continue;
    const prose = line.replace(/(`+)[^`]*?\1/g, '');
    for (const match of prose.matchAll(/(!?)\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      links.push({ line: number, target: match[2] as string, image: match[1] === '!' });
    }
  }
  return links;
}

export interface CodeBlock {
  /** The line of its opening fence, from 1. */
  line: number;
  /** What follows the opening fence: `sh`, `yaml`, `` (none). */
  info: string;
  text: string;
}

export function codeBlocks(text: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  let current: CodeBlock | undefined;
  for (const { line, number, opens, closes } of docLines(text)) {
    if (opens !== undefined) current = { line: number, info: opens, text: '' };
    else if (closes && current) {
      blocks.push(current);
      current = undefined;
    } else if (current) current.text += `${line}\n`;
  }
  return blocks;
}
