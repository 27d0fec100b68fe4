import { existsSync, statSync } from 'node:fs';
import { join, posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/shared/package-root.js';
import { docLinks, headingAnchors, readDoc, userDocs } from '../support/markdown.js';

/**
 * Every relative link and image in README.md and the guides leads to a file
 * of the repository, and every `#anchor` to a heading of the file it names,
 * as GitHub makes anchors: a link that leads nowhere is found here, not by a
 * reader.
 */
const ROOT = packageRoot();

/** `path` as a path from the package root, or null when it leaves the repository. */
function fromRoot(doc: string, path: string): string | null {
  const joined = posix.normalize(posix.join(posix.dirname(doc), decodeURIComponent(path)));
  return joined.startsWith('../') || joined === '..' ? null : joined;
}

describe('the links of README.md and docs/*.md', () => {
  const docs = userDocs();

  it('are found: the README and every guide have some', () => {
    expect(docs).toEqual(expect.arrayContaining(['README.md', 'docs/animal-store-interface.md', 'docs/mock.md', 'docs/harness.md', 'docs/reference.md']));
    for (const doc of docs.filter((path) => path !== 'docs/animal-store-interface.md')) expect(docLinks(readDoc(doc)).length, doc).toBeGreaterThan(0);
  });

  it('lead to files of the repository, and anchors to headings', () => {
    const broken: string[] = [];
    for (const doc of docs) {
      for (const { line, target } of docLinks(readDoc(doc))) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto: …: not a file of the repository
        const [path = '', anchor] = target.split('#', 2);
        const file = path === '' ? doc : fromRoot(doc, path);
        const where = `${doc}:${line} ${target}`;
        if (file === null) broken.push(`${where}: leaves the repository`);
        else if (!existsSync(join(ROOT, file))) broken.push(`${where}: no file ${file}`);
        else if (anchor !== undefined) {
          if (statSync(join(ROOT, file)).isDirectory() || !file.endsWith('.md')) broken.push(`${where}: an anchor into ${file}, which has no headings`);
          else if (!headingAnchors(readDoc(file)).has(anchor)) broken.push(`${where}: ${file} has no heading #${anchor}`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it('show every picture from docs/screenshots/, whose files exist', () => {
    const images = docs.flatMap((doc) => docLinks(readDoc(doc)).filter((link) => link.image).map((link) => fromRoot(doc, link.target)));
    expect(images.length).toBeGreaterThan(0);
    for (const image of images) {
      expect(image).toMatch(/^docs\/screenshots\/[a-z-]+\.png$/);
      expect(existsSync(join(ROOT, image as string))).toBe(true);
    }
  });
});

describe('the anchors GitHub makes', () => {
  it('drop punctuation and markup, keep letters, digits, - and _, and number repeats', () => {
    const anchors = headingAnchors(
      ['# The API reference: `/docs`', '## Per request: Prefer', '```sh', '# not a heading', '```', '## Drift between two targets (`--compare-with`)', '## int64, exactly', '## Faults', '### Faults', '## Café au lait_2'].join('\n'),
    );
    expect([...anchors]).toEqual(['the-api-reference-docs', 'per-request-prefer', 'drift-between-two-targets---compare-with', 'int64-exactly', 'faults', 'faults-1', 'café-au-lait_2']);
  });

  it('are checked against the file a link names, from that document\'s folder', () => {
    expect(fromRoot('docs/mock.md', '../README.md')).toBe('README.md');
    expect(fromRoot('docs/mock.md', 'screenshots/docs.png')).toBe('docs/screenshots/docs.png');
    expect(fromRoot('README.md', '../shared/seed/x.md')).toBeNull();
  });
});
