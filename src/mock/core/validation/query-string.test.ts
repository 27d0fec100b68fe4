import fc from 'fast-check';
import { getQueryParams } from 'hono/utils/url';
import { describe, expect, it } from 'vitest';
import { queryValues, searchOf } from './query-string.js';

// What listPets read before: Hono's c.req.queries(), every parameter with all its values.
const honoValues = (url: string, name: string): string[] => (getQueryParams(url) as Record<string, string[] | undefined>)[name] ?? [];

const names = ['limit', 'status', 'petId'];
const piece = fc.oneof(
  fc.constantFrom('limit', 'status', 'li%6Dit', 'st%61tus', 'lim+it', 'limit%', '%E0%A4%A', '%ff', '+', '%20', '=', '', '20', 'sold', 'a%2Bb', '#x', '?'),
  fc.string({ maxLength: 8 }),
);
const search = fc.array(fc.tuple(fc.array(piece, { maxLength: 3 }), fc.option(fc.array(piece, { maxLength: 3 }))), { maxLength: 6 }).map((pairs) =>
  pairs.map(([name, value]) => (value === null ? name.join('') : `${name.join('')}=${value.join('')}`)).join('&'),
);
const path = fc.constantFrom('/v1/pets', '/v1/pets/%E2%9C%93', '/v1/a+b');

describe('queryValues', () => {
  it('finds what Hono’s queries() finds for a name: how many values, the first and the last, whatever the query', () => {
    fc.assert(
      fc.property(path, search, fc.constantFrom(...names), (at, query, name) => {
        const url = `http://127.0.0.1:3000${at}${query === '' ? '' : `?${query}`}`;
        const expected = honoValues(url, name);
        expect(queryValues(searchOf(url), name)).toEqual({ count: expected.length, first: expected[0], last: expected.at(-1) });
      }),
      { numRuns: 2000 },
    );
  });

  it('reads no query from a URL without one, or from its fragment', () => {
    expect(searchOf('http://h/v1/pets')).toBe('');
    expect(searchOf('http://h/v1/pets#limit=5')).toBe('');
    expect(searchOf('http://h/v1/pets?limit=5#x&status=sold')).toBe('limit=5');
    expect(queryValues('limit=5&limit=6&status', 'status')).toEqual({ count: 1, first: '', last: '' });
    expect(queryValues('limit=5&status&limit=%36', 'limit')).toEqual({ count: 2, first: '5', last: '6' });
    expect(queryValues('limit=5&limit', 'limit')).toEqual({ count: 2, first: '5', last: '' });
  });
});
