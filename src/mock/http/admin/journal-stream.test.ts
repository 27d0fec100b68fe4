import { connect, type Socket } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { openStream, type OpenedStream } from '../../../../test/support/event-stream.js';
import { openRawStream, type RawStream } from '../../../../test/support/raw-stream.js';
import { parseResponses, rawExchange } from '../../../../test/support/raw-http.js';
import { TEST_KEY, useMock } from '../../../../test/support/use-mock.js';

const ADMIN_KEY = 'admin-key-for-streams';
const OTHER_KEY = 'second-key-456';

/** The journal stream (GET /__mock/journal/stream) over real HTTP, on either store. */
function streams(mock: ReturnType<typeof useMock>) {
  const origin = () => new URL(mock.url).origin;
  return {
    open: (path = '/journal/stream', init?: RequestInit): Promise<OpenedStream> => openStream(`${origin()}/__mock${path}`, init),
    /** The open streams' figures, from health. */
    stats: async (headers: Record<string, string> = {}) => (await mock.admin('/health', { headers })).json.streams as { open: number; max: number; queuedBytes: number; skippedTicks: number },
  };
}

describe('the journal stream', () => {
  const mock = useMock();
  const { open, stats } = streams(mock);

  it('says hello, sends the backlog, then a request made with fetch within a second', async () => {
    await mock.admin('/journal', { method: 'DELETE' });
    await mock.authed('/pets?limit=1');
    await mock.authed('/pets?limit=2');
    const stream = await open();
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(stream.headers.get('cache-control')).toBe('no-store');
    expect(stream.headers.get('x-accel-buffering')).toBe('no');
    const hello = await stream.next();
    const backlog = await stream.next();
    expect(hello.event).toBe('hello');
    const last = backlog.data.at(-1).seq;
    expect(hello.data).toEqual({ session: null, journal: expect.any(String), capacity: 500, intervalMs: 250, summaryAbove: 50, last, cleared: 1 });
    expect(backlog.event).toBe('entries');
    expect(backlog.data.map((entry: { path: string }) => entry.path)).toEqual(['/v1/pets?limit=1', '/v1/pets?limit=2']);
    await mock.authed('/pets?limit=3');
    const live = await stream.next(1000);
    expect(live.event).toBe('entries');
    expect(live.data).toMatchObject([{ seq: last + 1, path: '/v1/pets?limit=3', status: 200, operation: 'listPets' }]);
    stream.close();
  });

  it('sends the last 50 as the backlog, or the newest 50 after ?after=, and nothing before a seq past the last', async () => {
    for (let i = 0; i < 55; i++) await mock.authed(`/pets?limit=1&n=${i}`);
    const all = await open();
    const { last } = (await all.next()).data;
    const backlog = (await all.next()).data as Array<{ seq: number }>;
    expect(backlog.map((entry) => entry.seq)).toEqual(Array.from({ length: 50 }, (_, i) => last - 49 + i));
    all.close();
    const after = await open(`/journal/stream?after=${last - 3}`);
    await after.next();
    expect(((await after.next()).data as Array<{ seq: number }>).map((entry) => entry.seq)).toEqual([last - 2, last - 1, last]);
    after.close();
    // A seq from an earlier life of the journal counts as its last: the next request is sent, not held back.
    const future = await open(`/journal/stream?after=${last + 1000}`);
    await future.next();
    expect((await future.next()).data).toEqual([]);
    await mock.authed('/pets?limit=4');
    expect((await future.next()).data).toMatchObject([{ seq: last + 1, path: '/v1/pets?limit=4' }]);
    future.close();
  });

  it('sends a summary instead when more than 50 arrive in one tick (200 at once)', async () => {
    const stream = await open();
    await stream.next();
    await stream.next();
    // 200 requests pipelined in one write: node parses them in one go, so they reach the journal between two of the
    // stream's ticks however busy the machine (200 fetches at once could spread over several ticks on a loaded one).
    const paths = Array.from({ length: 200 }, (_, i) => (i % 2 === 0 ? '/pets/1' : '/pets?limit=1'));
    const batch = paths.map((path, i) => `GET /v1${path} HTTP/1.1\r\nHost: a\r\n${i % 4 === 0 ? '' : `Authorization: Bearer ${TEST_KEY}\r\n`}\r\n`).join('');
    const answered = parseResponses((await rawExchange(mock.port, batch, { waitMs: 30_000 })).bytes);
    expect(answered.map((response) => response.status)).toEqual(paths.map((_, i) => (i % 4 === 0 ? 401 : 200)));
    // Requests without a key go to the anonymous journal: this stream follows the shared default's.
    const keyed = paths.filter((_, i) => i % 4 !== 0).length;
    let counted = 0;
    const summaries: any[] = [];
    while (counted < keyed) {
      const event = await stream.next(2000);
      if (event.event === 'summary') summaries.push(event.data);
      counted += event.event === 'summary' ? event.data.count : event.data.length;
    }
    expect(counted).toBe(keyed);
    expect(summaries.length).toBeGreaterThan(0);
    for (const summary of summaries) {
      expect(summary.count).toBeGreaterThan(50);
      expect(summary.to - summary.from + 1).toBe(summary.count);
      expect(summary.sampled).toBe(summary.count);
      expect(summary.ms).toBeGreaterThan(0);
      const byStatus = Object.values(summary.byStatus as Record<string, number>).reduce((a, b) => a + b, 0);
      const byOperation = Object.values(summary.byOperation as Record<string, number>).reduce((a, b) => a + b, 0);
      expect([byStatus, byOperation]).toEqual([summary.sampled, summary.sampled]);
      expect(Object.keys(summary.byOperation).every((name) => ['getPet', 'listPets'].includes(name))).toBe(true);
      expect(Object.keys(summary.byStatus)).toEqual(['200']);
    }
    stream.close();
  });

  it('says cleared when the journal is emptied, then goes on with the next seqs', async () => {
    const stream = await open();
    const { last, cleared } = (await stream.next()).data;
    await stream.next();
    await mock.admin('/journal', { method: 'DELETE' });
    expect(await stream.next()).toEqual({ event: 'cleared', data: { cleared: cleared + 1 } });
    await mock.authed('/pets?limit=5');
    expect((await stream.next()).data).toMatchObject([{ seq: last + 1, path: '/v1/pets?limit=5' }]);
    stream.close();
  });

  it('follows the session X-Mock-Session names, and says ended, then closes, when it ends', async () => {
    const session = { 'x-mock-session': 'followed' };
    await mock.authed('/pets?limit=1', { headers: session });
    const stream = await open('/journal/stream', { headers: session });
    expect((await stream.next()).data).toMatchObject({ session: 'followed', last: 1 });
    expect((await stream.next()).data).toMatchObject([{ seq: 1, session: 'followed' }]);
    await mock.authed('/pets?limit=2');
    await mock.authed('/pets?limit=3', { headers: session });
    expect((await stream.next()).data).toMatchObject([{ seq: 2, path: '/v1/pets?limit=3' }]);
    expect((await mock.admin('/sessions/followed', { method: 'DELETE' })).status).toBe(200);
    const ended = await stream.next();
    expect(ended.event).toBe('ended');
    expect(ended.data.reason).toMatch(/DELETE \/__mock\/sessions/);
    await stream.ended;
    // The mock counts the stream closed once it has seen the close: an event, waited for however long the machine takes.
    await vi.waitFor(async () => expect((await stats()).open).toBe(0), { timeout: 10_000, interval: 50 });
  });

  it('refuses a session that is not running: 404 unknown_session', async () => {
    const res = await mock.admin('/journal/stream', { headers: { 'x-mock-session': 'never-started' } });
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ code: 'unknown_session', message: expect.stringContaining('never-started'), status: 404 });
  });

  it.each(['-1', 'abc', '1e309', '1e3', '1.5', '', '01', '+1', ' 1', '9007199254740992', '99999999999999999999999', `${'9'.repeat(400)}`])(
    'refuses ?after=%s with 400 invalid_parameter',
    async (after) => {
      const res = await mock.admin(`/journal/stream?after=${encodeURIComponent(after)}`);
      expect(res.status).toBe(400);
      expect(res.json).toEqual({ code: 'invalid_parameter', message: expect.stringContaining('after must be'), status: 400 });
    },
  );

  it('follows the anonymous journal: a request without a key, its credentials redacted', async () => {
    const stream = await open('/journal/anonymous/stream');
    expect((await stream.next()).data).toMatchObject({ session: null });
    await stream.next();
    await mock.request('/pets?limit=1', { headers: { authorization: 'Bearer not-a-key-1234' } });
    const [entry] = (await stream.next()).data;
    expect(entry).toMatchObject({ status: 401, request: { headers: { authorization: 'Bearer ***' } } });
    stream.close();
  });

  it('answers HEAD with the headers alone, and stops polling when the reader goes', async () => {
    // The streams the tests before closed, counted closed once the mock has seen each close.
    await vi.waitFor(async () => expect((await stats()).open).toBe(0), { timeout: 10_000, interval: 50 });
    const head = await fetch(`${new URL(mock.url).origin}/__mock/journal/stream`, { method: 'HEAD' });
    expect([head.status, head.headers.get('content-type')]).toEqual([200, 'text/event-stream; charset=utf-8']);
    const stream = await open();
    await stream.next();
    expect((await stats()).open).toBe(1);
    stream.close();
    await vi.waitFor(async () => expect((await stats()).open).toBe(0), { timeout: 10_000, interval: 50 });
  });
});

describe('at most 16 journal streams, 4 from one address', () => {
  const mock = useMock();
  const { open, stats } = streams(mock);
  /** `count` raw streams from each of `addresses`, whose readers never read. */
  const hold = (addresses: string[], count: number): Promise<RawStream[]> =>
    Promise.all(addresses.flatMap((address) => Array.from({ length: count }, () => openRawStream(mock.port, address))));
  const release = async (held: RawStream[]) => {
    for (const { socket } of held) socket.destroy();
    await vi.waitFor(async () => expect((await stats()).open).toBe(0));
  };

  it('refuses the 17th with 503 too_many_streams and Retry-After: 5; one closed makes room', async () => {
    const held = await hold(['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5'], 4);
    expect(held.map((stream) => stream.status)).toEqual(Array(16).fill(200));
    const refused = await mock.admin('/journal/anonymous/stream');
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(refused.json).toEqual({ code: 'too_many_streams', message: expect.stringContaining('16'), status: 503 });
    expect((await openRawStream(mock.port, '127.0.0.6')).status).toBe(503);
    expect(await stats()).toMatchObject({ open: 16, max: 16 });
    held[0]?.socket.destroy();
    await vi.waitFor(async () => expect((await stats()).open).toBe(15));
    const again = await openRawStream(mock.port, '127.0.0.6');
    expect(again.status).toBe(200);
    await release([...held, again]);
  });

  it('refuses a 5th stream from one address (503, saying why and what to do behind a proxy), while another address still gets one', async () => {
    const held = await hold(['127.0.0.1'], 4);
    expect(held.map((stream) => stream.status)).toEqual([200, 200, 200, 200]);
    const fifth = await mock.admin('/journal/stream');
    expect([fifth.status, fifth.headers.get('retry-after')]).toEqual([503, '5']);
    expect(fifth.json).toEqual({ code: 'too_many_streams', message: expect.stringMatching(/4 journal streams are open from 127\.0\.0\.1, .*--admin-key/), status: 503 });
    const other = await openRawStream(mock.port, '127.0.0.7');
    expect(other.status).toBe(200);
    held[0]?.socket.destroy();
    await vi.waitFor(async () => expect((await stats()).open).toBe(4));
    const room = await open();
    expect(room.status).toBe(200);
    room.close();
    await release([...held, other]);
  });

  it('opens 16 streams without a listener warning on the shutdown signal (one listener for all)', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
    process.on('warning', onWarning);
    try {
      const held = await hold(['127.0.0.8', '127.0.0.9', '127.0.0.10', '127.0.0.11'], 4);
      expect(held.every((stream) => stream.status === 200)).toBe(true);
      // process.emitWarning emits on the next tick.
      await new Promise((resolve) => setTimeout(resolve, 50));
      await release(held);
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.filter((warning) => warning.includes('MaxListenersExceeded'))).toEqual([]);
  });
});

describe('journal streams with --admin-key: the 16 shared by every key holder', () => {
  const adminKey = 'stream-admin-key-123';
  const mock = useMock({ adminKey });
  const bearer = `Bearer ${adminKey}`;

  it('opens 16 from one address (a team behind one proxy), and refuses the 17th with 503 too_many_streams', async () => {
    const held = await Promise.all(Array.from({ length: 16 }, () => openRawStream(mock.port, '127.0.0.1', '/__mock/journal/stream', bearer)));
    expect(held.map((stream) => stream.status)).toEqual(Array(16).fill(200));
    const refused = await openRawStream(mock.port, '127.0.0.1', '/__mock/journal/stream', bearer);
    expect(refused.status).toBe(503);
    await vi.waitFor(() => expect(refused.text()).toContain('"code":"too_many_streams"'));
    expect(refused.text()).toContain('16 journal streams are open on this mock');
    for (const { socket } of [...held, refused]) socket.destroy();
  });
});

describe('journal streams on a mock bound to :: (IPv4 clients seen as ::ffff:…)', () => {
  const mock = useMock({ host: '::' });

  it('counts an IPv4 client by its IPv4 address, whichever way the mock is bound: a 5th from it is refused, naming 127.0.0.1', async () => {
    const held = await Promise.all(Array.from({ length: 4 }, () => openRawStream(mock.port, '127.0.0.1')));
    expect(held.map((stream) => stream.status)).toEqual([200, 200, 200, 200]);
    const fifth = await openRawStream(mock.port, '127.0.0.1');
    expect(fifth.status).toBe(503);
    await vi.waitFor(() => expect(fifth.text()).toContain('"code":"too_many_streams"'));
    expect(fifth.text()).toContain('4 journal streams are open from 127.0.0.1,');
    for (const { socket } of [...held, fifth]) socket.destroy();
  });
});

describe('a stream that has lived its time', () => {
  const mock = useMock({ streamLifetimeMs: 1200 });
  const { open, stats } = streams(mock);

  it('ends with a reconnect event naming the seq to resume after, and frees its slot', async () => {
    const stream = await open();
    await stream.next();
    await stream.next();
    await mock.authed('/pets?limit=1');
    const [entry] = (await stream.next()).data;
    const planned = await stream.next(3000);
    expect(planned).toEqual({ event: 'reconnect', data: { reason: expect.stringContaining('at most 1 s'), after: entry.seq } });
    await stream.ended;
    // The mock counts the stream closed once it has seen the close: an event, waited for however long the machine takes.
    await vi.waitFor(async () => expect((await stats()).open).toBe(0), { timeout: 10_000, interval: 50 });
  });

  it('ends a stream whose reader never reads, too', async () => {
    const held = await openRawStream(mock.port, '127.0.0.12');
    expect(held.status).toBe(200);
    await vi.waitFor(async () => expect((await stats()).open).toBe(0), { timeout: 3000 });
    held.socket.destroy();
  });
});

describe('resuming, restarting and clearing, as the stream tells them', () => {
  const mock = useMock();
  const { open } = streams(mock);

  it('with ?after= far behind, sends a summary of the entries before the backlog, then the newest 50', async () => {
    const session = { 'x-mock-session': 'far-behind' };
    for (let i = 0; i < 120; i++) await mock.authed(i % 3 === 0 ? '/pets/999999' : '/pets?limit=1', { headers: session });
    const stream = await open('/journal/stream?after=1', { headers: session });
    expect((await stream.next()).data).toMatchObject({ last: 120 });
    const gap = await stream.next();
    expect(gap.event).toBe('summary');
    // Seqs 2 to 70: i = 1 to 69, of which i % 3 === 0 (a 404 getPet) for 23.
    expect(gap.data).toMatchObject({ from: 2, to: 70, count: 69, sampled: 69, before: true, byStatus: { 200: 46, 404: 23 }, byOperation: { listPets: 46, getPet: 23 } });
    expect(gap.data.ms).toBeGreaterThanOrEqual(0);
    const backlog = (await stream.next()).data as Array<{ seq: number }>;
    expect(backlog.map((entry) => entry.seq)).toEqual(Array.from({ length: 50 }, (_, i) => 71 + i));
    stream.close();
    // Not far behind: no summary.
    const near = await open('/journal/stream?after=100', { headers: session });
    expect((await near.until('entries')).map((event) => event.event)).toEqual(['hello', 'entries']);
    near.close();
  });

  it('says in hello how many times the journal was cleared, so a clear made while away is seen', async () => {
    const session = { 'x-mock-session': 'cleared-while-away' };
    await mock.authed('/pets?limit=1', { headers: session });
    const before = await open('/journal/stream', { headers: session });
    const { cleared, journal } = (await before.next()).data;
    before.close();
    await mock.admin('/journal', { method: 'DELETE', headers: session });
    const after = await open('/journal/stream?after=1', { headers: session });
    expect((await after.next()).data).toMatchObject({ cleared: cleared + 1, journal });
    after.close();
  });

  it('names the journal in hello: the same one again, another once the session started afresh, whatever its seqs', async () => {
    const session = { 'x-mock-session': 'started-twice' };
    const hello = async () => {
      const stream = await open('/journal/stream', { headers: session });
      const { data } = await stream.next();
      stream.close();
      return data as { journal: string; last: number };
    };
    await mock.authed('/pets?limit=1', { headers: session });
    const first = await hello();
    expect(first.journal).not.toBe('');
    expect((await hello()).journal).toBe(first.journal);
    await mock.admin('/sessions/started-twice', { method: 'DELETE' });
    await mock.authed('/pets?limit=1', { headers: session });
    const second = await hello();
    // As many requests as before: the seq alone cannot tell the two apart.
    expect(second.last).toBe(first.last);
    expect(second.journal).not.toBe(first.journal);
  });
});

describe('the journal stream obeys the admin API\'s access rules', () => {
  describe('with --admin-key', () => {
    const mock = useMock({ adminKey: ADMIN_KEY });
    const { open } = streams(mock);

    it('refuses a stream without the admin key (401), or with an API key, and opens one with it', async () => {
      const bare = await mock.adminAsIs('/journal/stream');
      expect([bare.status, bare.json.code]).toEqual([401, 'unauthorized']);
      const apiKey = await mock.adminAsIs('/journal/anonymous/stream', { headers: { authorization: `Bearer ${TEST_KEY}` } });
      expect([apiKey.status, apiKey.json.code]).toEqual([401, 'unauthorized']);
      const stream = await open('/journal/stream', { headers: { authorization: `Bearer ${ADMIN_KEY}` } });
      expect(stream.status).toBe(200);
      expect((await stream.next()).event).toBe('hello');
      stream.close();
    });
  });

  describe('with --cors-origin', () => {
    const allowed = 'http://console.example:3000';
    const mock = useMock({ corsOrigins: [allowed] });
    const { open } = streams(mock);

    it('refuses a page of another origin (403), and lets a named one read it with CORS headers', async () => {
      const foreign = await mock.adminAsIs('/journal/stream', { headers: { origin: 'http://evil.example' } });
      expect([foreign.status, foreign.json.code]).toEqual([403, 'origin_not_allowed']);
      const stream = await open('/journal/stream', { headers: { origin: allowed } });
      expect(stream.status).toBe(200);
      expect(stream.headers.get('access-control-allow-origin')).toBe(allowed);
      stream.close();
    });
  });

  describe('with --session-per-key', () => {
    const mock = useMock({ sessionPerKey: true, apiKeys: [TEST_KEY, OTHER_KEY] });
    const { open } = streams(mock);

    it('refuses another key\'s session (403 session_forbidden), and follows the key\'s own', async () => {
      const alice = { 'x-mock-session': 'alice' };
      expect((await mock.authed('/pets?limit=1', { headers: alice })).status).toBe(200);
      const other = await mock.adminAsIs('/journal/stream', { headers: { ...alice, authorization: `Bearer ${OTHER_KEY}` } });
      expect([other.status, other.json.code]).toEqual([403, 'session_forbidden']);
      const own = await open('/journal/stream', { headers: { ...alice, authorization: `Bearer ${TEST_KEY}` } });
      expect((await own.next()).data).toMatchObject({ session: 'alice', last: 1 });
      own.close();
    });
  });
});

describe('a reader that never reads', () => {
  const mock = useMock();
  const { stats } = streams(mock);
  /** The largest event: 50 entries of at most 16 KiB of JSON each (journal-bounds.test.ts). */
  const LARGEST_EVENT = 50 * 16 * 1024;

  it('is sent nothing more while its last event waits: the server holds one event for it, and the next summary counts the rest', async () => {
    const socket: Socket = connect(mock.port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write('GET /__mock/journal/stream HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    socket.pause();
    // Entries of about 8 KB of JSON (quoted headers escape to twice their length), 40 a tick: never a summary on their own.
    const headers = { authorization: `Bearer ${TEST_KEY}`, ...Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`x-pad-${i}`, '"'.repeat(240)])) };
    const round = () => Promise.all(Array.from({ length: 40 }, () => fetch(`${mock.url}/pets?limit=100&pad=${'a'.repeat(900)}`, { headers }).then((res) => res.arrayBuffer())));
    let figures = await stats();
    for (let rounds = 0; rounds < 80 && figures.skippedTicks < 4; rounds++) {
      await round();
      await new Promise((resolve) => setTimeout(resolve, 260));
      figures = await stats();
      expect(figures.queuedBytes).toBeLessThanOrEqual(LARGEST_EVENT);
    }
    expect(figures.skippedTicks).toBeGreaterThanOrEqual(4);
    const { entries } = (await mock.admin('/journal')).json;
    const last = entries.at(-1).seq as number;
    // Now it reads: what waited arrives, then one summary for everything since.
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    socket.resume();
    await vi.waitFor(() => expect(text).toMatch(new RegExp(`event: summary\\ndata: \\{"from":\\d+,"to":${last},`)), { timeout: 5000 });
    const summary = JSON.parse(/event: summary\ndata: (.*)\n/.exec(text)?.[1] ?? '{}');
    expect(summary.count).toBeGreaterThan(0);
    // Counted exactly, however many (the journal's counts, no entry read), over the ticks it skipped: 4 or more of 250 ms.
    expect([summary.sampled, summary.byStatus, summary.byOperation]).toEqual([summary.count, { 200: summary.count }, { listPets: summary.count }]);
    expect(summary.ms).toBeGreaterThanOrEqual(1000);
    socket.destroy();
  });
});

describe('stopping the mock with streams open', () => {
  const mock = useMock();
  const { open, stats } = streams(mock);

  it('ends every stream, and does not wait for them: close() returns before its 5 s grace', async () => {
    const reading = await open();
    await reading.next();
    // One whose reader does not read, with its answer still waiting in the process.
    const stalled = connect(mock.port, '127.0.0.1');
    stalled.on('error', () => undefined);
    stalled.write('GET /__mock/journal/stream HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    stalled.pause();
    await vi.waitFor(async () => expect((await stats()).open).toBe(2));
    const closed = mock.close().then(() => 'closed');
    const late = new Promise((resolve) => setTimeout(() => resolve('waited'), 2500));
    expect(await Promise.race([closed, late])).toBe('closed');
    await reading.ended;
    stalled.destroy();
  });
});

describe('a followed session that ends idle', () => {
  const mock = useMock({ sessionIdleMs: 500 });
  const { open } = streams(mock);

  it('ends the stream with the reason', async () => {
    const session = { 'x-mock-session': 'idle-one' };
    await mock.authed('/pets?limit=1', { headers: session });
    const stream = await open('/journal/stream', { headers: session });
    await stream.next();
    await stream.next();
    // The session ends after 0.5 s without a request (memory: the sweep; Redis: its keys' TTL).
    const ended = await stream.next(3000);
    expect(ended.event).toBe('ended');
    expect(ended.data.reason).toMatch(/idle/);
    await stream.ended;
  });
});
