import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { utf8Length } from './utf8-length.js';

describe('utf8Length', () => {
  it("is node's Buffer.byteLength, lone surrogates included", () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (text) => utf8Length(text) === Buffer.byteLength(text)));
    fc.assert(fc.property(fc.string({ unit: fc.integer({ min: 0xd7f0, max: 0xe010 }).map((code) => String.fromCharCode(code)) }), (text) => utf8Length(text) === Buffer.byteLength(text)));
  });

  it.each(['', 'a', 'é', '€', '😀', '\ud83d', '\ude00a', 'a\ud83d\ude00b'])('%j', (text) => {
    expect(utf8Length(text)).toBe(Buffer.byteLength(text));
  });
});
