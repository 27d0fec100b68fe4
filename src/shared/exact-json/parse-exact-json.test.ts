import { describe, expect, it } from 'vitest';
import { JsonTooLarge, MAX_JSON_DEPTH, parseExactJson, RepeatedMember, repeatedMember } from './parse-exact-json.js';
import { stringifyExactJson } from './stringify-exact-json.js';

describe('parseExactJson', () => {
  it.each([
    ['9007199254740993', 9007199254740993n, Number.MAX_SAFE_INTEGER],
    ['-9223372036854775808', -(2n ** 63n), -Number.MAX_SAFE_INTEGER],
    ['9223372036854775808', 2n ** 63n, 2 ** 53],
    ['92233720368547758070e-1', 2n ** 63n - 1n, Number.MAX_SAFE_INTEGER],
    ['1.0e16', 10n ** 16n, Number.MAX_SAFE_INTEGER],
    ['9007199254740991.000', Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
    // Not an integer, though its double is one: the view refuses it as an integer.
    ['4503599627370497.5', 4503599627370498, Number.NaN],
    ['1e-400', 0, Number.NaN],
    ['1e400', Infinity, Infinity],
  ])('reads %s exactly, and shows a validator %s', (literal, value, view) => {
    const read = parseExactJson(`{"n":${literal}}`);
    expect((read.value as { n: unknown }).n).toBe(value);
    expect((read.view as { n: unknown }).n).toBe(view);
  });

  it('reads what JSON.parse reads, on either path: the last duplicate wins, __proto__ stays a member', () => {
    for (const number of ['1', '12345678901234567']) {
      const text = `{"a":1,"a":${number},"__proto__":{"x":1},"s":"\\u00e9","l":[true,null,-0]}`;
      const { value } = parseExactJson(text);
      expect(stringifyExactJson(value)).toBe(`{"a":${number},"__proto__":{"x":1},"s":"é","l":[true,null,0]}`);
      expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    }
  });

  it('refuses what JSON.parse refuses', () => {
    for (const text of ['{"a":12345678901234567,}', '{"a":012345678901234567}', '[12345678901234567', '{"a":"\u0001"} 12345678901234567']) expect(() => parseExactJson(text)).toThrow();
  });

  it.each([['', 'without'], ['"n":1e0,', 'with']])('reads %s512 levels and refuses 513 (%s an exponent) as too deep, counting no bracket in a string', (prefix) => {
    const nested = (depth: number): string => `{${prefix}"s":"[[{\\\"[","v":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;
    expect(() => parseExactJson(nested(MAX_JSON_DEPTH))).not.toThrow();
    expect(() => parseExactJson(nested(MAX_JSON_DEPTH + 1))).toThrow(JsonTooLarge);
    expect(() => parseExactJson(`[${'['.repeat(400_000)}${']'.repeat(400_000)}]`)).toThrow(/more than 512 levels deep/);
  });

  it('counts values outside strings when asked for a bound: objects, arrays and what they hold, an empty one holding none', () => {
    // 1 (the array) + 3 members + 1 (the object's one value) = 5; the string's brackets and commas are not counted.
    const text = `[ {"a": "x,[{"} , [ ], 7 ]`.padEnd(2000, ' ');
    expect(() => parseExactJson(text, { values: 5 })).not.toThrow();
    expect(() => parseExactJson(text, { values: 4 })).toThrow(/holds more than 4 JSON values/);
    const wide = `[${Array.from({ length: 20_000 }, () => '[]').join(',')}]`;
    expect(() => parseExactJson(wide)).not.toThrow();
    expect(() => parseExactJson(wide, { values: 20_001 })).not.toThrow();
    expect(() => parseExactJson(wide, { values: 20_000 })).toThrow(JsonTooLarge);
  });

  it('reads a member named twice as asked: the last by default, the first, or not at all', () => {
    const text = '{"a":1,"b":{"c":9007199254740993,"c":2},"a":"x"}';
    expect(parseExactJson(text).value).toEqual({ a: 'x', b: { c: 2 } });
    expect(parseExactJson(text, { duplicates: 'first-wins' }).value).toEqual({ a: 1, b: { c: 9007199254740993n } });
    expect(() => parseExactJson(text, { duplicates: 'refused' })).toThrow(RepeatedMember);
    // Malformed first: a text both malformed and repeating is not refused for the member.
    expect(() => parseExactJson('{"a":1,"a":2', { duplicates: 'refused' })).toThrow(SyntaxError);
    expect(parseExactJson('{"a":1,"b":[{"a":2}]}', { duplicates: 'refused' }).value).toEqual({ a: 1, b: [{ a: 2 }] });
  });
});

describe('repeatedMember', () => {
  it.each([
    ['{"a":1,"a":1}', 'a'],
    ['{"name":"x","n\\u0061me":"y"}', 'name'],
    ['[{"a":1},{"a":1}]', undefined],
    ['{"a":{"b":1},"b":2}', undefined],
    ['{"a":"b","b":"a:"}', undefined],
    ['{"a":[1,{"a":2}],"c":{"d":1,"d":2}}', 'd'],
    ['{"a\\"":1,"a\\"":2}', 'a"'],
    ['{"__proto__":1,"__proto__":2}', '__proto__'],
  ])('%s: %s', (text, member) => {
    expect(repeatedMember(text)).toBe(member);
  });
});
