import { describe, expect, it } from 'vitest';
import { useMock } from '../../../../test/support/use-mock.js';

const JSON_HEADERS = { 'content-type': 'application/json' };

// 2^62, held as a bigint: JavaScript's numbers stop at 2^53.
const START_CATEGORY = 4611686018427387904n;

describe('int64 categoryId end to end', () => {
  const mock = useMock({ pets: [{ id: 1, name: 'Atlas', categoryId: START_CATEGORY, status: 'sold' }] });
  const post = (text: string) => mock.authed('/pets', { method: 'POST', headers: JSON_HEADERS, body: text });

  // The literal sent, and the digits the mock must answer (a literal may spell an integer another way).
  it.each([
    ['9007199254740993', '9007199254740993'],
    ['-9007199254740993', '-9007199254740993'],
    ['4611686018427387904', '4611686018427387904'],
    ['9223372036854775807', '9223372036854775807'],
    ['-9223372036854775808', '-9223372036854775808'],
    ['9.223372036854775807e18', '9223372036854775807'],
    ['1e18', '1000000000000000000'],
  ])('stores, answers, serves and lists categoryId %s exactly', async (literal, digits) => {
    const created = await post(`{"name":"Big","categoryId":${literal},"status":"pending"}`);
    expect(created.status).toBe(201);
    expect(created.text).toContain(`"categoryId":${digits}`);
    const id = /"id":(\d+)/.exec(created.text)?.[1];
    const fetched = await mock.authed(`/pets/${id}`);
    expect(fetched.text).toBe(created.text);
    const listed = await mock.authed('/pets?status=pending&limit=100');
    expect(listed.text).toContain(created.text);
  });

  it('serves a start catalogue holding an int64 past 2^53 exactly', async () => {
    expect((await mock.authed('/pets/1')).text).toBe(`{"id":1,"name":"Atlas","categoryId":${START_CATEGORY},"status":"sold"}`);
    expect((await mock.authed('/pets?status=sold')).text).toContain(`"categoryId":${START_CATEGORY}`);
  });

  it.each(['9223372036854775807', '9007199254740993', '92233720368547758070'])('answers 404 for petId %s: the mock assigns only safe integer ids', async (petId) => {
    const res = await mock.authed(`/pets/${petId}`);
    expect(res.status).toBe(404);
    expect(res.json).toMatchObject({ code: 'pet_not_found', status: 404 });
  });

  it('answers a dynamic create (Prefer) with the exact categoryId', async () => {
    const res = await mock.authed('/pets', { method: 'POST', headers: { ...JSON_HEADERS, prefer: 'dynamic=true' }, body: '{"name":"Big","categoryId":9223372036854775807}' });
    expect(res.status).toBe(201);
    expect(res.text).toContain('"categoryId":9223372036854775807');
  });
});
