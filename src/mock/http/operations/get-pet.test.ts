import { describe, expect, it } from 'vitest';
import { useMock } from '../../../../test/support/use-mock.js';

const pets = [
  { id: 1, name: 'Milo', categoryId: 3, status: 'available' as const },
  { id: 2, name: 'Bruno', categoryId: 2 },
];

describe('getPet (GET /v1/pets/{petId})', () => {
  const mock = useMock({ pets });

  it('answers 200 with the stored Pet for a known id', async () => {
    const res = await mock.authed('/pets/1');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.json).toEqual(pets[0]);
  });

  it('keeps an absent status absent', async () => {
    const res = await mock.authed('/pets/2');
    expect(res.json).toEqual({ id: 2, name: 'Bruno', categoryId: 2 });
    expect(res.json).not.toHaveProperty('status');
  });

  // Each names no animal: unknown, not an integer, negative, zero, fractional,
  // beyond int64, leading plus, exponent, hex.
  it.each(['999', 'abc', '-1', '0', '1.5', '9223372036854775808', '99999999999999999999', '+1', '1e0', '0x1', '%20'])(
    'answers 404 with an Error body for petId %s',
    async (petId) => {
      const res = await mock.authed(`/pets/${petId}`);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.json).toMatchObject({ code: 'pet_not_found', status: 404 });
      expect(res.json.message).toContain('No animal has the id');
    },
  );

  it('carries Deprecation, Sunset and Link on every response, errors included', async () => {
    for (const [path, init, status] of [
      ['/pets/1', undefined, 200],
      ['/pets/999', undefined, 404],
    ] as const) {
      const res = await mock.authed(path, init);
      expect(res.status).toBe(status);
      expectDeprecationHeaders(res.headers);
    }
    const unauthorized = await mock.request('/pets/1');
    expect(unauthorized.status).toBe(401);
    expectDeprecationHeaders(unauthorized.headers);
  });

  it('does not mark the operations that are not deprecated', async () => {
    const res = await mock.authed('/pets');
    expect(res.headers.get('deprecation')).toBeNull();
    expect(res.headers.get('sunset')).toBeNull();
  });

  it('logs a one-line deprecation warning the first time only', async () => {
    await mock.authed('/pets/1');
    await mock.authed('/pets/2');
    const warnings = mock.logs.filter((line) => line.level === 40);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.msg).toMatch(/getPet .* is deprecated and will be removed on 2030-12-05; use \/v1\/pets instead/);
  });
});

function expectDeprecationHeaders(headers: Headers): void {
  // RFC 9745: a structured-field date; the document records 2026-11-22.
  expect(headers.get('deprecation')).toBe(`@${Date.UTC(2026, 10, 22) / 1000}`);
  // RFC 8594: an HTTP-date.
  expect(headers.get('sunset')).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
  expect(headers.get('link')).toBe('</v1/pets>; rel="successor-version"');
}
