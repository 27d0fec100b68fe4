import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_API_KEY } from '../shared/default-api-key.js';
import { bearer, startMock, statusWith, useBuiltCli, type RunningMock } from '../../test/support/built-cli.js';

/** The built CLI's admin API: --admin-key and MOCK_ADMIN_KEY, and the start-up warnings (an admin API open to the network, flags past the heap). */
useBuiltCli();

describe('the admin API', () => {
  const adminStatus = async (mock: RunningMock, key?: string): Promise<number> => {
    const response = await fetch(`${mock.url.replace(/\/v1$/, '')}/__mock/health`, key === undefined ? {} : bearer(key));
    await response.arrayBuffer();
    return response.status;
  };
  const OPEN_ADMIN = /admin API \(\/__mock\) has no admin key: anyone who can reach port \d+ can/;

  it('--admin-key requires that key on /__mock, and is no API key', async () => {
    const mock = await startMock(['--admin-key', 'admin-1']);
    expect(await adminStatus(mock)).toBe(401);
    expect(await adminStatus(mock, 'wrong')).toBe(401);
    expect(await adminStatus(mock, DEFAULT_API_KEY)).toBe(401);
    expect(await adminStatus(mock, 'admin-1')).toBe(200);
    expect(await statusWith(mock, 'admin-1')).toBe(401);
  });

  it('takes the key from MOCK_ADMIN_KEY; --admin-key wins over it', async () => {
    const fromEnv = await startMock([], { MOCK_ADMIN_KEY: 'env-admin' });
    expect(await adminStatus(fromEnv)).toBe(401);
    expect(await adminStatus(fromEnv, 'env-admin')).toBe(200);
    const fromFlag = await startMock(['--admin-key', 'flag-admin'], { MOCK_ADMIN_KEY: 'env-admin' });
    expect(await adminStatus(fromFlag, 'env-admin')).toBe(401);
    expect(await adminStatus(fromFlag, 'flag-admin')).toBe(200);
  });

  it('warns once at start-up when bound beyond loopback without an admin key, naming how to set one', async () => {
    const mock = await startMock(['--host', '0.0.0.0']);
    await vi.waitFor(() => expect(mock.stdout()).toMatch(OPEN_ADMIN), { timeout: 5000, interval: 20 });
    const warnings = mock.stdout().split('\n').filter((line) => OPEN_ADMIN.test(line));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('WARN');
    expect(warnings[0]).toContain('Set MOCK_ADMIN_KEY (or --admin-key KEY)');
    expect(warnings[0]).toContain('0.0.0.0');
  });

  it('writes that warning as a JSON line with --log-format json, every line JSON', async () => {
    const mock = await startMock(['--host', '0.0.0.0', '--log-format', 'json']);
    await vi.waitFor(() => expect(mock.stdout()).toMatch(OPEN_ADMIN), { timeout: 5000, interval: 20 });
    const lines = mock.stdout().split('\n').filter(Boolean).map((line) => JSON.parse(line) as { level: number; msg: string });
    expect(lines.filter((line) => OPEN_ADMIN.test(line.msg))).toEqual([expect.objectContaining({ level: 40, host: '0.0.0.0' })]);
  });

  it('gives no such warning on loopback, nor with an admin key', async () => {
    const loopback = await startMock(['--log-format', 'json']);
    const keyed = await startMock(['--host', '0.0.0.0', '--admin-key', 'admin-2', '--log-format', 'json']);
    // A request line after start-up: anything written at start-up is written by then.
    for (const mock of [loopback, keyed]) {
      await statusWith(mock, DEFAULT_API_KEY);
      await vi.waitFor(() => expect(mock.stdout()).toContain('"method":"GET"'), { timeout: 5000, interval: 20 });
      expect(mock.stdout()).not.toMatch(/admin key/);
      expect(mock.stdout()).not.toMatch(/heap limit/);
    }
  });

  it('warns once when the flags let clients make it hold more than node\'s heap, naming the largest part', async () => {
    const mock = await startMock(['--journal-size', '10000', '--max-sessions', '100000', '--log-format', 'json']);
    await vi.waitFor(() => expect(mock.stdout()).toMatch(/heap limit/), { timeout: 5000, interval: 20 });
    const lines = mock.stdout().split('\n').filter(Boolean).map((line) => JSON.parse(line) as { level: number; msg: string; ceilingBytes?: number; heapLimitBytes?: number });
    const [warning, ...more] = lines.filter((line) => /heap limit/.test(line.msg));
    expect(more).toEqual([]);
    expect(warning).toMatchObject({ level: 40 });
    expect(warning?.ceilingBytes).toBeGreaterThan(warning?.heapLimitBytes ?? Infinity);
    expect(warning?.msg).toContain('--journal-size');
    expect(warning?.msg).toContain('--max-old-space-size');
  });
});
