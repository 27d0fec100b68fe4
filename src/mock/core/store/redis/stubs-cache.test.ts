import { describe, expect, it } from 'vitest';
import { stubsCache } from './redis-session-stubs.js';

const stubsJson = (id: string): string => JSON.stringify([{ id, match: { operation: 'getPet' }, fault: { then: { status: 500 } } }]);

describe('the compiled session stubs kept per process (Redis store)', () => {
  it('gives the same compilation for the same JSON, and compiles what it holds', () => {
    const cache = stubsCache();
    const json = stubsJson('a');
    const first = cache.compiled(json);
    expect(cache.compiled(json)).toBe(first);
    expect(first.stubsFor('getPet').map((s) => s.label)).toEqual(['a']);
    expect(first.stubsFor('listPets')).toEqual([]);
  });

  it('keeps at most its budget of JSON characters, dropping the oldest first, and never keeps one larger than it', () => {
    const a = stubsJson('a');
    const b = stubsJson('b');
    const cache = stubsCache(a.length + b.length);
    const keptA = cache.compiled(a);
    const keptB = cache.compiled(b);
    expect([cache.compiled(a), cache.compiled(b)]).toEqual([keptA, keptB]);
    expect(cache.compiled(a)).toBe(keptA);
    cache.compiled(stubsJson('c'));
    expect(cache.compiled(a)).not.toBe(keptA);
    const small = stubsCache(10);
    const big = small.compiled(a);
    expect(small.compiled(a)).not.toBe(big);
  });
});
