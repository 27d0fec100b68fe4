import { expect } from 'vitest';

/**
 * Checks over real HTTP that `url` is served with a strong ETag and that a
 * client holding it is answered 304 with no body (RFC 9110 §13.1.2,
 * §15.4.5), in every form of If-None-Match that names it, while a tag
 * that does not match gets the whole file again. Returns the ETag.
 */
export async function expectRevalidation(url: string): Promise<string> {
  const first = await fetch(url);
  expect(first.status, url).toBe(200);
  const body = await first.arrayBuffer();
  const etag = first.headers.get('etag') as string;
  // Strong: quoted, no W/ (a weak one cannot serve range requests, §8.8.1).
  expect(etag, url).toMatch(/^"[\x21\x23-\x7e]+"$/);
  for (const field of [etag, `W/${etag}`, `"stale", ${etag}`, '*']) {
    for (const method of ['GET', 'HEAD']) {
      const again = await fetch(url, { method, headers: { 'if-none-match': field } });
      expect([url, field, method, again.status]).toEqual([url, field, method, 304]);
      expect(again.headers.get('etag')).toBe(etag);
      expect(again.headers.get('cache-control')).toBe(first.headers.get('cache-control'));
      expect(await again.text()).toBe('');
    }
  }
  for (const field of ['"stale"', etag.slice(0, -2) + '"', 'not-a-tag']) {
    const changed = await fetch(url, { headers: { 'if-none-match': field } });
    expect([url, field, changed.status]).toEqual([url, field, 200]);
    expect((await changed.arrayBuffer()).byteLength).toBe(body.byteLength);
  }
  return etag;
}
