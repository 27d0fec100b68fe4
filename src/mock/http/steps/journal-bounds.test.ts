import { connect, type Socket } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { TEST_KEY, useMock } from '../../../../test/support/use-mock.js';

const ENTRIES = 1000;

/**
 * The largest JSON an entry may take (docs/reference.md, "Bounds"): the path cut at
 * 1,024 characters, the reason at 512, the request's headers at 2,048 in
 * all, its body at 1,024 and the answer's at 2,048, each at most doubled
 * by JSON's escapes here (quotes), with the short fields and the answer's headers.
 */
const LARGEST_ENTRY = 16 * 1024;

/** Sends `count` raw requests, 20 connections at a time, each closed by the mock after its answer; resolves when all are answered. */
async function sendRaw(port: number, request: (i: number) => string, count: number): Promise<void> {
  const one = (text: string) =>
    new Promise<void>((resolve, reject) => {
      const socket: Socket = connect(port, '127.0.0.1', () => socket.write(text));
      socket.on('error', reject);
      socket.on('data', () => undefined);
      socket.on('close', () => resolve());
    });
  for (let i = 0; i < count; i += 20) await Promise.all(Array.from({ length: Math.min(20, count - i) }, (_, j) => one(request(i + j))));
}

describe('journal entries are bounded in bytes whatever the request', () => {
  const mock = useMock({ journalSize: ENTRIES });
  const port = () => Number(new URL(mock.url).port);
  const entries = async () => (await mock.admin('/journal')).json.entries as Array<Record<string, unknown>>;

  it('clips long paths, and keeps nothing of huge headers, bodies or Prefer values', async () => {
    await mock.admin('/journal', { method: 'DELETE' });
    await mock.authed(`/pets?${'q'.repeat(12_000)}`);
    await mock.authed('/pets', { headers: { 'x-big': 'h'.repeat(12_000), prefer: `scenario=${'s'.repeat(3000)}` } });
    await mock.authed('/pets', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'n'.repeat(900_000), categoryId: 1 }) });
    await mock.request(`/pets/${'9'.repeat(12_000)}`);
    // The keyless one goes to the anonymous journal, clipped the same way.
    const anonymous = (await mock.admin('/journal/anonymous')).json.entries.at(-1);
    const kept = [...(await entries()), anonymous];
    expect(kept).toHaveLength(4);
    for (const entry of kept) expect(JSON.stringify(entry).length).toBeLessThanOrEqual(LARGEST_ENTRY);
    expect(kept.map((entry) => entry.status)).toEqual([200, 400, 201, 401]);
  });

  it('an entry keeps no more of the request alive than it shows: a 15 KiB Host header is not held by the path cut from the URL', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const heap = (): number => {
      gc();
      gc();
      return process.memoryUsage().heapUsed;
    };
    const get = (host: string) => (i: number) => `GET /v1/pets?limit=1&n=${i} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${TEST_KEY}\r\nConnection: close\r\n\r\n`;
    // Fill the journal first, so what is measured is what the same number of entries holds.
    await sendRaw(port(), get('localhost'), ENTRIES);
    const before = heap();
    await sendRaw(port(), get('h'.repeat(15_000)), ENTRIES);
    const grown = heap() - before;
    expect((await entries()).at(-1)?.path).toBe(`/v1/pets?limit=1&n=${ENTRIES - 1}`);
    // Holding each Host would take 1,000 × 15 KB = 15 MB; the entries themselves, the same as before.
    expect(grown).toBeLessThan(4 * 1024 * 1024);
  });
});
