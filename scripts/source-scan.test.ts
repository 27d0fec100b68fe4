import { describe, expect, it } from 'vitest';
import { functionSpans } from './function-spans.js';
import { maskSource } from './source-scan.js';

/** A function of `bodyLines` lines between its header and its closing brace. */
const fn = (header: string, bodyLines: number): string => [header, ...Array.from({ length: bodyLines }, (_, n) => `  const v${n} = ${n};`), '}'].join('\n');

describe('maskSource', () => {
  it('blanks comments, and the insides of strings, templates and regular expressions, keeping every offset', () => {
    const text = "const a = '{'; // {\nconst b = /[}]/; /* { */ const c = `x{${ { d: 1 } }y}`;\nconst q = 4 / 2 / 1;";
    const { codeOnly, withoutComments } = maskSource(text);
    expect([codeOnly.length, withoutComments.length]).toEqual([text.length, text.length]);
    expect(codeOnly.split('\n').length).toBe(3);
    // Left: the template expression's own braces, and its `${`.
    expect(codeOnly.replace(/[^{}]/g, '')).toBe('{{}}');
    expect(withoutComments).toContain("'{'");
    expect(withoutComments).not.toContain('/*');
    expect(codeOnly).toContain('4 / 2 / 1');
  });
});

describe('functionSpans', () => {
  it('counts a function from its header line to its closing brace', () => {
    const spans = functionSpans(`${fn('export function long(a: number): Promise<{ ok: boolean }> {', 59)}\n${fn('function short() {', 58)}`);
    expect(spans.map((s) => [s.name, s.startLine, s.lines])).toEqual([
      ['export function long(a: number): Promise<{ ok: boolean }> {', 1, 61],
      ['function short() {', 62, 60],
    ]);
  });

  it('finds methods, arrow functions, and functions returning functions or object types', () => {
    const text = [
      'class A {',
      '  constructor(readonly x: number) {}',
      '  async run(context: C): Promise<void> {',
      '  }',
      '}',
      'const f = (x: number) => {',
      '};',
      'function g(keys: string[]): (value: string) => boolean {',
      '}',
      'function h(): { ok: true } {',
      '}',
      "it('x', async () => {",
      '});',
    ].join('\n');
    expect(functionSpans(text).map((s) => s.startLine)).toEqual([2, 3, 6, 8, 10, 12]);
  });

  it('takes no control block, object literal, type, signature or template expression for a function', () => {
    const text = [
      'interface I {',
      '  stats(): { n: number };',
      '}',
      'if (a) {',
      '} else if (b) {',
      '} else {',
      '}',
      'for (const x of y) {',
      '}',
      'switch (k) {',
      "  case 'a': {",
      '  }',
      '}',
      'try {',
      '} catch (error) {',
      '}',
      'const o = { a: 1 };',
      'expect(x).toEqual({ a: 1 });',
      'const t = a ? f(1) : `${b}`;',
      "const s = '{ not a block }';",
    ].join('\n');
    expect(functionSpans(text)).toEqual([]);
  });
});
