import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpServer } from './create-http-server.js';

/**
 * An error the app lets escape (its steps catch what they throw, so this is
 * a bug of the mock) reaches @hono/node-server's errorHandler: over a real
 * port, with an app that fails on purpose, it must be a 500 Error body and a
 * log line, not a 400 that blames the client.
 */
describe('the transport\'s answer to an app that fails', () => {
  const seen: unknown[] = [];
  const server = createHttpServer(() => Promise.reject(new Error('boom')), { anyOrigin: true, onInternalError: (error) => seen.push(error) });
  let base = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('answers 500 internal_error with the Error body, and reports the error', async () => {
    const res = await fetch(`${base}/v1/pets`);
    expect(res.status).toBe(500);
    expect(await res.json()).toMatchObject({ code: 'internal_error', status: 500 });
    expect(seen).toHaveLength(1);
    expect((seen[0] as Error).message).toBe('boom');
  });
});
