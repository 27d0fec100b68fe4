import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DEFAULT_API_KEY } from '../shared/default-api-key.js';
import { startMock, useBuiltCli, type RunningMock } from '../../test/support/built-cli.js';
import { redisCommand } from '../../test/support/redis-command.js';
import { useRedisServer } from '../../test/support/redis-server.js';

/**
 * `--session-per-key` on one Redis after a FLUSHALL: the secret key
 * sessions' ids are made with is gone, and no connection dropped. Every
 * process, those running and one started after, must agree on one secret
 * again, or one key names different sessions on different processes. A
 * Redis of this file's own: FLUSHALL would empty the run's shared one.
 */
useBuiltCli();

const redis = useRedisServer();

const auth = { authorization: `Bearer ${DEFAULT_API_KEY}` };

const start = (prefix: string): Promise<RunningMock> => startMock(['--store', redis().url, '--store-prefix', prefix, '--session-per-key', '--no-watch']);

async function create(mock: RunningMock, name: string): Promise<{ status: number; id: number; session: string | null }> {
  const res = await fetch(`${mock.url}/pets`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ name, categoryId: 1 }) });
  return { status: res.status, id: ((await res.json()) as { id: number }).id, session: res.headers.get('x-mock-session') };
}

async function read(mock: RunningMock, id: number): Promise<{ status: number; session: string | null }> {
  const res = await fetch(`${mock.url}/pets/${id}`, { headers: auth });
  await res.arrayBuffer();
  return { status: res.status, session: res.headers.get('x-mock-session') };
}

describe('--session-per-key after FLUSHALL', () => {
  it.each([
    ['a process started after it', 'first'],
    ['a process started after it, the old ones asked first', 'old-first'],
  ] as const)('running processes and %s agree on one session per key', async (_, order) => {
    const prefix = `flush-${randomUUID()}`;
    const [one, two] = await Promise.all([start(prefix), start(prefix)]);
    const before = await create(one, 'Before');
    expect((await read(two, before.id)).status).toBe(200);

    expect(await redisCommand(redis().port, ['FLUSHALL'])).toBe('OK');
    if (order === 'old-first') expect((await read(two, before.id)).status).toBe(404);
    const three = await start(prefix);

    const made = [await create(one, 'After one'), await create(three, 'After three'), await create(two, 'After two')];
    expect(made.map((m) => m.status)).toEqual([201, 201, 201]);
    // One session for the key, whichever process answered.
    expect(new Set(made.map((m) => m.session)).size).toBe(1);
    for (const mock of [one, two, three]) {
      for (const { id } of made) expect(await read(mock, id)).toEqual({ status: 200, session: made[0]?.session });
    }
  });
});
