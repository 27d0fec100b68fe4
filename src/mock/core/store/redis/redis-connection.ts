import { createHash } from 'node:crypto';
import { createClient, type RedisClientType } from 'redis';
import { shownUrl } from '../shown-url.js';
import { StoreUnavailable } from '../store-unavailable.js';
import { LUA_KEYS } from './redis-keys.js';

/** What the scripts and commands get back from Redis (RESP2: strings, integers, nil, arrays). */
export type Reply = string | number | null | Reply[];

/** A Lua script, with the key prelude, and its SHA1 for EVALSHA. */
export interface Script {
  source: string;
  sha: string;
}

export function luaScript(body: string): Script {
  const source = `${LUA_KEYS}\n${body}`;
  return { source, sha: createHash('sha1').update(source).digest('hex') };
}

/** One Redis connection, every call bounded in time, every failure a StoreUnavailable. */
export interface RedisConnection {
  command(args: readonly string[]): Promise<Reply>;
  /** EVALSHA, and EVAL once when Redis does not know the script yet (after a restart or SCRIPT FLUSH). */
  script(script: Script, args: readonly string[]): Promise<Reply>;
  /** Called each time the connection is ready again after a loss (not the first time). */
  onReconnect(listener: () => void): void;
  close(): Promise<void>;
}

export interface ConnectOptions {
  url: string;
  /** How long a command may take before it is given up as StoreUnavailable (default 1,000 ms). */
  commandTimeoutMs?: number | undefined;
  /** How long the first connection is retried before createRedisStore gives up (default 5,000 ms). */
  connectTimeoutMs?: number | undefined;
}

export const DEFAULT_COMMAND_TIMEOUT_MS = 1000;
export const DEFAULT_CONNECT_TIMEOUT_MS = 5000;
/**
 * Commands waiting in the client for an answer: a Redis that stopped
 * answering without closing the connection keeps them queued until the
 * socket closes (each one's caller was told StoreUnavailable at its
 * timeout), so the queue is bounded and refuses beyond it.
 */
const MAX_QUEUED_COMMANDS = 10_000;
/** Reconnecting waits 50 ms, doubling up to this, so a Redis that comes back is found within about a second. */
const MAX_RECONNECT_DELAY_MS = 1000;

/**
 * Connects to Redis, retrying for up to connectTimeoutMs, then rejects
 * naming the URL (without its password) and the last error. Once
 * connected, a lost connection is retried by the client with a capped
 * backoff while every call fails at once (no offline queue: a request
 * must not wait for a Redis that is away) or at its timeout.
 */
export async function connectRedis(options: ConnectOptions): Promise<RedisConnection> {
  const commandTimeoutMs = options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS;
  const connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  const client: RedisClientType = createClient({
    url: options.url,
    disableOfflineQueue: true,
    commandsQueueMaxLength: MAX_QUEUED_COMMANDS,
    socket: {
      connectTimeout: Math.min(connectTimeoutMs, 2000),
      reconnectStrategy: (retries) => Math.min(50 * 2 ** Math.min(retries, 10), MAX_RECONNECT_DELAY_MS),
    },
  });
  // Without a listener an 'error' event throws and ends the process; the last one says why Redis is away.
  let lastError = '';
  client.on('error', (error: Error) => {
    lastError = error.message || error.name;
  });
  await connectWithin(client, connectTimeoutMs, () => lastError, options.url);
  // From here 'ready' means back after a loss; the error that loss left would be a stale reason for a later timeout.
  const reconnected: Array<() => void> = [];
  client.on('ready', () => {
    lastError = '';
    for (const listener of reconnected) listener();
  });

  const bounded = <T>(work: () => Promise<T>): Promise<T> => withTimeout(work, commandTimeoutMs, () => lastError);
  const command = (args: readonly string[]): Promise<Reply> => bounded(() => client.sendCommand<Reply>(args));
  return {
    command,
    script: (script, args) =>
      bounded(async () => {
        try {
          return await client.sendCommand<Reply>(['EVALSHA', script.sha, '0', ...args]);
        } catch (error) {
          if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
          return client.sendCommand<Reply>(['EVAL', script.source, '0', ...args]);
        }
      }),
    onReconnect: (listener) => reconnected.push(listener),
    async close() {
      if (client.isOpen) await client.close().catch(() => client.destroy());
    },
  };
}

async function connectWithin(client: RedisClientType, ms: number, lastError: () => string, url: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const gaveUp = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), ms)));
  try {
    const result = await Promise.race([client.connect().then(() => 'ready' as const), gaveUp]);
    if (result === 'ready') return;
  } catch (error) {
    // connect() rejects only when the reconnect strategy gives up, which ours never does; kept for safety.
    client.destroy();
    throw new Error(`cannot connect to Redis at ${shownUrl(url)}: ${(error as Error).message}`);
  } finally {
    clearTimeout(timer);
  }
  client.destroy();
  throw new Error(`cannot connect to Redis at ${shownUrl(url)} within ${ms} ms${lastError() ? `: ${lastError()}` : ''}`);
}

/** `work`, or StoreUnavailable when it fails or takes longer than `ms`. */
function withTimeout<T>(work: () => Promise<T>, ms: number, lastError: () => string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new StoreUnavailable(`Redis did not answer within ${ms} ms${lastError() ? ` (${lastError()})` : ''}`)), ms);
    work().then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof StoreUnavailable ? error : new StoreUnavailable(`Redis: ${(error as Error).message}`, { cause: error }));
      },
    );
  });
}
