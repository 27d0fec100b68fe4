import { describe, expect, it } from 'vitest';
import { generateCatalogue } from '../../core/fixtures/generate-catalogue.js';
import { useMock } from '../../../../test/support/use-mock.js';

// 120 pets, so both the default (20) and the maximum (100) limit show; given
// unsorted, to show the answer is ordered by id anyway.
const catalogue = generateCatalogue({ seed: 99, count: 120, withoutStatus: 0.1 }).reverse();
const byId = [...catalogue].sort((a, b) => a.id - b.id);

describe('listPets (GET /v1/pets)', () => {
  const mock = useMock({ pets: catalogue });

  it('returns 20 pets by default, ordered by id ascending', async () => {
    const res = await mock.authed('/pets');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.json).toEqual(byId.slice(0, 20));
  });

  it.each([1, 5, 99, 100])('returns at most limit=%i pets', async (limit) => {
    const res = await mock.authed(`/pets?limit=${limit}`);
    expect(res.status).toBe(200);
    expect(res.json).toEqual(byId.slice(0, limit));
  });

  it.each(['available', 'pending', 'sold'])('returns only %s pets with status=%s', async (status) => {
    const res = await mock.authed(`/pets?status=${status}&limit=100`);
    expect(res.status).toBe(200);
    const expected = byId.filter((p) => p.status === status).slice(0, 100);
    expect(expected.length).toBeGreaterThan(0);
    expect(res.json).toEqual(expected);
  });

  it('applies the limit after the status filter', async () => {
    const res = await mock.authed('/pets?status=available&limit=3');
    expect(res.json).toEqual(byId.filter((p) => p.status === 'available').slice(0, 3));
  });

  it('ignores query parameters the document does not describe', async () => {
    const res = await mock.authed('/pets?limit=2&page=3&sort=name&offset=10');
    expect(res.status).toBe(200);
    expect(res.json).toEqual(byId.slice(0, 2));
  });

  it('answers HEAD like GET, without a body', async () => {
    const res = await mock.authed('/pets', { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
  });

  // The bad values tried for limit: out of range, negative, not a number,
  // fractional, empty, exponent, hex, padded, huge, repeated.
  it.each([
    ['0'], ['101'], ['-1'], ['abc'], ['1.5'], [''], ['1e1'], ['0x10'], ['%205'], ['5%20'], ['99999999999999999999'], ['20&limit=30'],
  ])('answers 400 naming limit for limit=%s', async (value) => {
    const res = await mock.authed(`/pets?limit=${value}`);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.json).toMatchObject({ code: 'invalid_parameter', status: 400 });
    expect(res.json.message).toMatch(/\blimit\b/);
  });

  // The bad values tried for status: unknown, wrongly cased, padded, empty.
  it.each([['unknown'], ['Available'], ['SOLD'], ['%20sold'], ['']])(
    'answers 400 naming status for status=%s',
    async (value) => {
      const res = await mock.authed(`/pets?status=${value}`);
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ code: 'invalid_parameter', status: 400 });
      expect(res.json.message).toMatch(/\bstatus\b/);
      expect(res.json.message).toContain('available, pending, sold');
    },
  );

  it('refuses a status given twice, rather than picking one', async () => {
    const res = await mock.authed('/pets?status=sold&status=pending');
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ code: 'invalid_parameter', message: 'query parameter status must be given once, got 2 values', status: 400 });
  });

  it('says what the limit must be', async () => {
    const res = await mock.authed('/pets?limit=101');
    expect(res.json.message).toBe('query parameter limit must be an integer from 1 to 100 (got "101")');
  });
});
