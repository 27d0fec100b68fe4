import { describe, it } from 'vitest';
import { readDoc, userDocs } from '../support/markdown.js';

/**
 * A guide a reader can hold in mind: past about 600 lines, a guide is
 * split by what its readers come for, not left to grow. The README is the
 * front page, under the same bound.
 */
const MAX_LINES = 600;

describe('the guides', () => {
  it(`each stay within ${MAX_LINES} lines`, ({ expect }) => {
    const long = userDocs()
      .map((doc) => ({ doc, lines: readDoc(doc).replace(/\n$/, '').split('\n').length })) // as `wc -l` counts them: the last line's newline ends it
      .filter(({ lines }) => lines > MAX_LINES)
      .map(({ doc, lines }) => `${doc}: ${lines} lines`);
    expect(long).toEqual([]);
    expect(userDocs().length).toBeGreaterThan(5);
  });
});
