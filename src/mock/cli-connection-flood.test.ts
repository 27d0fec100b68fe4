import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { startMock, useBuiltCli, type RunningMock } from '../../test/support/built-cli.js';
import { startFlood, type Flood } from '../../test/support/connection-flood.js';
import { parseResponses, rawExchange } from '../../test/support/raw-http.js';

useBuiltCli();

const KEY = 'animal-store-dev-key';
const REQUEST = `GET /v1/pets?limit=1 HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer ${KEY}\r\n\r\n`;
const FLOOD = 2500;
// Opening 2,500 connections and holding them past the 5 s silent and keep-alive timeouts, twice, on two shared cores.
const TIMEOUT = 60_000;

const pidOf = (mock: RunningMock): number => mock.child.pid as number;
const rssBytes = (pid: number): number => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) * 1024;
const openFiles = (pid: number): number => readdirSync(`/proc/${pid}/fd`).length;

/** A normal client asking again and again for `ms`, each request on a new connection; the statuses it got. */
async function normalClient(port: number, ms: number, during: () => void): Promise<number[]> {
  const statuses: number[] = [];
  const end = Date.now() + ms;
  while (Date.now() < end) {
    // A generous wait: the point is whether it is served, not how fast, on a loaded machine.
    const answer = await rawExchange(port, REQUEST, { waitMs: 10_000 });
    statuses.push(parseResponses(answer.bytes)[0]?.status ?? 0);
    during();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return statuses;
}

describe('a normal client is served throughout a flood of connections that finish no request (one address)', () => {
  let flood: Flood | undefined;

  it('2,500 slowloris, silent and idle keep-alive connections with the defaults (4,096 open): every request answered 200, memory within the bound', { timeout: TIMEOUT }, async () => {
    const mock = await startMock(['--log-format', 'json', '--quiet']);
    const { port } = new URL(mock.url);
    const pid = pidOf(mock);
    const rssBefore = rssBytes(pid);
    let rssPeak = rssBefore;
    try {
      flood = await startFlood({ port: Number(port), count: FLOOD, request: REQUEST });
      const statuses = await normalClient(Number(port), 8000, () => (rssPeak = Math.max(rssPeak, rssBytes(pid))));
      expect(flood.peak()).toBeGreaterThanOrEqual(FLOOD * 0.95);
      expect(statuses.length).toBeGreaterThan(5);
      expect(statuses.filter((status) => status !== 200)).toEqual([]);
      // docs/reference.md, "Bounds": a connection costs at most 35 KB of heap (its RSS is less); the flood's are all that was added.
      expect(rssPeak - rssBefore).toBeLessThan(FLOOD * 35_000);
    } finally {
      flood?.stop();
    }
    // Silent and idle ones are closed after 5 s, and the flood opened them again.
    expect(flood.closedByServer()).toBeGreaterThan(FLOOD / 3);
    expect(mock.stderr()).toBe('');
    expect(mock.child.exitCode).toBe(null);
  });

  it('with --max-connections 64 (1,024 open), the flood is reclaimed, oldest first, and the client is still served', { timeout: TIMEOUT }, async () => {
    const mock = await startMock(['--log-format', 'json', '--quiet', '--max-connections', '64']);
    const { port } = new URL(mock.url);
    const pid = pidOf(mock);
    const baseFiles = openFiles(pid);
    let filesPeak = 0;
    try {
      flood = await startFlood({ port: Number(port), count: FLOOD, request: REQUEST });
      const statuses = await normalClient(Number(port), 6000, () => (filesPeak = Math.max(filesPeak, openFiles(pid))));
      expect(statuses.length).toBeGreaterThan(5);
      expect(statuses.filter((status) => status !== 200)).toEqual([]);
      // At most 1,024 connections open, and at most 64 reclaimed ones lingering with their 503, beside the files it had;
      // and the one just accepted, which exists (the kernel accepted it) while the one it takes the place of is closed.
      expect(filesPeak - baseFiles).toBeLessThanOrEqual(1024 + 64 + 1);
      expect(flood.closedByServer()).toBeGreaterThan(FLOOD - 1024);
    } finally {
      flood?.stop();
    }
    expect(mock.stderr()).toBe('');
    expect(mock.child.exitCode).toBe(null);
  });
});
