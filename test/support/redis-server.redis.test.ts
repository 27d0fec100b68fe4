import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { freePort } from '../../bench/free-port.js';
import { Processes } from './processes.js';
import { redisCommand } from './redis-command.js';
import { startRedisServer, type RedisServer } from './redis-server.js';

// The helper itself, over real TCP: each test starts its own redis-server(s).
const servers: RedisServer[] = [];
const processes = new Processes();
/** Ports of servers a child process started: shut down here if the child failed to take them along. */
const orphanPorts: number[] = [];

async function start(options: Parameters<typeof startRedisServer>[0] = {}): Promise<RedisServer> {
  const server = await startRedisServer(options);
  servers.push(server);
  return server;
}

afterEach(async () => {
  await processes.killAll();
  await Promise.all(servers.splice(0).map((server) => server.stop()));
  // SHUTDOWN closes the connection without a reply: the rejection is the expected outcome.
  await Promise.all(orphanPorts.splice(0).map((port) => redisCommand(port, ['SHUTDOWN', 'NOSAVE']).catch(() => undefined)));
});

/** Resolves once nothing accepts connections on `port` (a server's exit is seen a moment after the signal). */
async function refusedOn(port: number): Promise<void> {
  await vi.waitFor(async () => expect(await redisCommand(port, ['PING']).then(() => 'answered', (error: NodeJS.ErrnoException) => error.code)).toBe('ECONNREFUSED'), {
    timeout: 5_000,
    interval: 50,
  });
}

describe('startRedisServer', () => {
  it('starts a redis-server that answers on the port its url names', async () => {
    const server = await start();
    expect(server.url).toBe(`redis://127.0.0.1:${server.port}`);
    expect(await redisCommand(server.port, ['SET', 'greeting', 'héllo'])).toBe('OK');
    expect(await redisCommand(server.port, ['GET', 'greeting'])).toBe('héllo');
    expect(existsSync(server.dir)).toBe(true);
  });

  it('gives two servers different ports and separate data', async () => {
    const [first, second] = await Promise.all([start(), start()]);
    expect(first!.port).not.toBe(second!.port);
    expect(first!.dir).not.toBe(second!.dir);
    await redisCommand(first!.port, ['SET', 'only-here', '1']);
    expect(await redisCommand(second!.port, ['GET', 'only-here'])).toBeNull();
  });

  it('keeps a value written before kill() when appendonly is on (appendfsync always)', async () => {
    const server = await start({ appendonly: true });
    await redisCommand(server.port, ['SET', 'acknowledged', 'kept']);
    await server.kill();
    await refusedOn(server.port);
    expect(existsSync(server.dir)).toBe(true);
    await server.start();
    expect(await redisCommand(server.port, ['GET', 'acknowledged'])).toBe('kept');
  });

  it('loses a value written before kill() when appendonly is off', async () => {
    const server = await start();
    await redisCommand(server.port, ['SET', 'acknowledged', 'lost']);
    await server.kill();
    await server.start();
    expect(await redisCommand(server.port, ['GET', 'acknowledged'])).toBeNull();
  });

  it('refuses start() while the server is running', async () => {
    const server = await start();
    await expect(server.start()).rejects.toThrow(/already running/);
  });

  it('stop() removes the folder and frees the port, and may be called again', async () => {
    const server = await start({ appendonly: true });
    await server.stop();
    expect(existsSync(server.dir)).toBe(false);
    await expect(redisCommand(server.port, ['PING'])).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    const listener = createServer();
    await new Promise<void>((resolve, reject) => listener.once('error', reject).listen(server.port, '127.0.0.1', resolve));
    await new Promise((resolve) => listener.close(resolve));
    await server.stop();
  });
});

describe('startRedisServer when the picked port is taken before redis binds it', () => {
  it('tries another port when another redis-server holds it, and never takes that one for its own', async () => {
    const holder = await start();
    const picks = [holder.port];
    const server = await start({ pickPort: async () => picks.shift() ?? (await freePort()) });
    expect(server.port).not.toBe(holder.port);
    await redisCommand(server.port, ['SET', 'mine', 'yes']);
    expect(await redisCommand(holder.port, ['GET', 'mine'])).toBeNull();
  });

  it('gives up after a few attempts, naming the port', async () => {
    const holder = await listenOnFreePort();
    try {
      const port = (holder.address() as { port: number }).port;
      const failed = await startRedisServer({ pickPort: async () => port }).then(() => undefined, (error: Error) => error);
      expect(failed?.message).toMatch(new RegExp(`port ${port} was taken`));
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });
});

describe('no redis-server outlives the process that started it', () => {
  const helper = fileURLToPath(new URL('./redis-server.ts', import.meta.url));
  // The helper is TypeScript: the child loads it through vite (vitest's own loader), as a test file would.
  const child = (then: string): string[] => [
    '--input-type=module',
    '-e',
    `import { runnerImport } from 'vite';
     const { module } = await runnerImport(${JSON.stringify(helper)}, { configFile: false, logLevel: 'silent' });
     const server = await module.startRedisServer({ appendonly: true });
     console.log(JSON.stringify({ port: server.port, dir: server.dir }));
     ${then}`,
  ];

  it('ends it when that process exits without stop()', async () => {
    const run = await processes.node(child('process.exit(0);'));
    const { port, dir } = JSON.parse(run.stdout) as { port: number; dir: string };
    orphanPorts.push(port);
    await refusedOn(port);
    await vi.waitFor(() => expect(existsSync(dir)).toBe(false), { timeout: 5_000, interval: 50 });
  });

  it('ends it when that process is killed with SIGKILL', async () => {
    const [line] = await processes.start(child('setInterval(() => undefined, 60_000);'), /\{.*\}\n/);
    const { port, dir } = JSON.parse(line) as { port: number; dir: string };
    orphanPorts.push(port);
    expect(await redisCommand(port, ['PING'])).toBe('PONG');
    await processes.killAll();
    await refusedOn(port);
    await vi.waitFor(() => expect(existsSync(dir)).toBe(false), { timeout: 5_000, interval: 50 });
  });
});

/** A listener that hangs up on every connection, as a port taken by some other program. */
function listenOnFreePort(): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer((socket) => socket.destroy());
    server.once('error', reject).listen(0, '127.0.0.1', () => resolve(server));
  });
}
