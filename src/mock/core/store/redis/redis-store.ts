import { randomBytes } from 'node:crypto';
import { failed, ok } from '../../result.js';
import type { ScenarioLibrary } from '../../scenarios/scenario-library.js';
import type { MockStore, ScenarioStart, Session, SessionEndReason, SessionSummary } from '../mock-store.js';
import type { StoreLimits } from '../store-limits.js';
import { connectRedis, type RedisConnection } from './redis-connection.js';
import { shownUrl } from '../shown-url.js';
import { redisControl, type ControlContext } from './redis-control.js';
import { redisJournal } from './redis-journal.js';
import { anonymousKey, sessionKeys, sharedKeys } from './redis-keys.js';
import { optional } from './redis-pick.js';
import { START_TOKEN, type SessionRef } from './redis-state.js';
import { scenarioVersions } from './scenario-versions.js';
import { policyRisk, policyWarning, readEvictionPolicy, shownPolicy, type EvictionPolicy } from './eviction-policy.js';
import { END, LIST, OPEN } from './session-scripts.js';
import { redisSessionStubs, stubsCache } from './redis-session-stubs.js';

export interface RedisStoreOptions {
  /** `redis://[user:password@]host:port[/db]` or `rediss://…`. */
  url: string;
  /** Every key starts with `prefix:`. */
  prefix: string;
  library: ScenarioLibrary;
  /** What the shared default and every new session start with. */
  start: ScenarioStart;
  /** Checked by storeLimits (open-store.ts opens this store with them). */
  limits: StoreLimits;
  connectTimeoutMs?: number | undefined;
  commandTimeoutMs?: number | undefined;
  /** Told of what the start-up found worth a warning (an eviction policy that may lose data, or one it could not read). */
  onWarning?: ((message: string) => void) | undefined;
  /** Told of sessions ended to make room (idle ones end by their keys' TTL, unseen). */
  onEnd?: ((id: string, why: SessionEndReason) => void) | undefined;
}

/** Tells a Session's owner as stored ('-' none, '=' then it) back. */
const ownerOf = (stored: string): string | undefined => (stored.startsWith('=') ? stored.slice(1) : undefined);

/**
 * The store on Redis (see redis-keys.ts for what lives where): every
 * process started with the same URL and prefix serves the same sessions,
 * states, catalogues and journals. Connects first (retrying for
 * connectTimeoutMs), then rejects with a message naming the URL.
 *
 * A Session that `open` or `find` gives is one request's view: it knows
 * the session's generation and active scenario as they were at that call
 * (one round trip fewer per request), so a caller opens the session anew
 * for each request, as the HTTP layer does. `shared` reads them at each call.
 *
 * What Redis holds, bounded: per session (maxSessions, plus the shared
 * default) its additions' JSON twice (in id order and by status), at most
 * 2 × --max-catalogue-bytes plus about 60 bytes an animal of list overhead
 * (measured: 10,000 small animals took 1.3 MiB), and its journal (measured
 * without headers and bodies: 500 entries with a 1 KiB path, 0.7 MiB; an entry
 * also keeps its request's and answer's headers and body start, at most
 * about 7 KB of JSON, so up to about 3.5 MiB) and its counters; the
 * anonymous journal; keys a
 * request wrote to a session that had just ended, until their TTL.
 */
export async function createRedisStore(options: RedisStoreOptions): Promise<MockStore> {
  const { prefix, library } = options;
  const { maxSessions, idleMs, protectMs, journalSize } = options.limits;
  const ttl = String(Math.ceil(idleMs));
  const { redis, secret, policy } = await connectChecked(options);
  const versions = scenarioVersions(library, options.start);
  const context: ControlContext = { redis, library, versions, tickets: new Map() };

  const cache = stubsCache();
  const session = (id: string, gen: string, owner: string | undefined, active: string, stubs: string | undefined): Session => {
    const ref: SessionRef = { id, keys: sessionKeys(prefix, id, gen), gen, ttl };
    const journal = redisJournal(redis, ref.keys.journal, journalSize, ttl, ref.keys);
    return { id, owner, control: redisControl(context, ref, active), journal, stubs: redisSessionStubs(redis, cache, { id, meta: ref.keys.meta }, stubs) };
  };
  const sharedRef: SessionRef = { id: null, keys: sharedKeys(prefix), gen: '0', ttl: '0' };
  const shared: Session = {
    id: null,
    owner: undefined,
    control: redisControl(context, sharedRef, undefined),
    journal: redisJournal(redis, sharedRef.keys.journal, journalSize, '0'),
    stubs: redisSessionStubs(redis, cache, { id: null, meta: sharedRef.keys.meta }, undefined),
  };

  return {
    kind: 'redis',
    secret,
    evictionPolicy: shownPolicy(policy),
    shared,
    anonymous: redisJournal(redis, anonymousKey(prefix), journalSize, '0'),
    maxSessions,
    idleMs,
    async open(id, owner) {
      const args = [prefix, id, optional(owner), ttl, String(protectMs), String(maxSessions), START_TOKEN, secret.toString('hex')];
      const reply = (await redis.script(OPEN, args)) as string[];
      if (reply[0] === 'full') return failed({ retryAfterMs: Number(reply[1]), protectMs });
      if (reply[0] === 'secret') {
        takeSecret(secret, String(reply[1]));
        return failed({ secretChanged: true as const });
      }
      const [, gen, storedOwner, active, stubs, ...evicted] = reply as [string, string, string, string, string, ...string[]];
      for (const ended of evicted) options.onEnd?.(ended, 'evicted');
      return ok(session(id, gen, ownerOf(storedOwner), active, stubs));
    },
    async find(id) {
      const [gen, owner, active] = (await redis.command(['HMGET', sessionKeys(prefix, id, '').meta, 'gen', 'owner', 'active'])) as Array<string | null>;
      // Its stubs are read when asked for: the admin routes that find a session rarely need them.
      return gen === null || gen === undefined ? undefined : session(id, gen, ownerOf(owner ?? '-'), active ?? START_TOKEN, undefined);
    },
    // Generation '-' is never started: its keys are empty, so it reads as a fresh session.
    preview: (id) => session(id, '-', undefined, START_TOKEN, ''),
    list: () => listSessions(redis, prefix, idleMs, versions),
    end: async (id) => (await redis.script(END, [prefix, id])) === 1,
    replace: (loaded) => versions.replace(loaded),
    paths: () => new Set(versions.paths()),
    // A write, not a PING: a Redis that answers but refuses writes (a replica after a failover, a full
    // one under noeviction) must take the mock out of a load balancer's rotation too.
    async health() {
      try {
        await redis.command(['SET', `${prefix}:health`, String(Date.now()), 'PX', '60000']);
        // Read anew: someone may have changed it since start-up.
        return ok({ evictionPolicy: shownPolicy(await readEvictionPolicy(redis)) });
      } catch (error) {
        return failed((error as Error).message);
      }
    },
    close: () => redis.close(),
  };
}

/**
 * Connects, then makes the first write and reads the eviction policy: a
 * Redis that takes the connection but refuses the mock's work, or that may
 * evict any key, stops the start here, with the connection closed.
 */
async function connectChecked(options: RedisStoreOptions): Promise<{ redis: RedisConnection; secret: Buffer; policy: EvictionPolicy }> {
  const redis: RedisConnection = await connectRedis(options);
  let secret: Buffer;
  try {
    // The first command: a Redis that takes the connection but refuses its work (NOAUTH, NOPERM, read-only) stops the start here.
    secret = await sharedSecret(redis, options.prefix);
  } catch (error) {
    await redis.close();
    throw new Error(`Redis at ${shownUrl(options.url)} refused the mock's first write: ${(error as Error).message}`);
  }
  const policy = await readEvictionPolicy(redis);
  const warning = policyWarning(policy, shownUrl(options.url));
  // Under allkeys-* anything may go, even the shared default's animals: refused, as every answer would be in doubt.
  if (policyRisk(policy) === 'any-key') {
    await redis.close();
    throw new Error(warning);
  }
  if (warning !== undefined) options.onWarning?.(warning);
  // Redis lost its data: restarted without persistence, every process sets the one it has again on reconnecting; a FLUSHALL
  // drops no connection, so every session's open (the OPEN script) checks the secret too, putting it back or taking the one there.
  redis.onReconnect(() => void adoptSecret(redis, options.prefix, secret).catch(() => undefined));
  return { redis, secret, policy };
}

/**
 * The secret key sessions' ids are made with: the first process on this
 * prefix makes it (SET NX, no TTL), every later one reads that one, so a
 * bearer key names the same session on every process.
 */
async function sharedSecret(redis: RedisConnection, prefix: string): Promise<Buffer> {
  const secret = randomBytes(32);
  await adoptSecret(redis, prefix, secret);
  return secret;
}

/** Sets `secret` on Redis unless one is there, then takes the one there (in place: the steps hold this Buffer). */
async function adoptSecret(redis: RedisConnection, prefix: string, secret: Buffer): Promise<void> {
  const key = `${prefix}:secret`;
  await redis.command(['SET', key, secret.toString('hex'), 'NX']);
  takeSecret(secret, String(await redis.command(['GET', key])));
}

/** Copies the secret stored as hex into `secret`, in place: the steps hold this Buffer. */
function takeSecret(secret: Buffer, hex: string): void {
  const stored = Buffer.from(hex, 'hex');
  if (stored.length === secret.length) stored.copy(secret);
}

async function listSessions(redis: RedisConnection, prefix: string, idleMs: number, versions: ReturnType<typeof scenarioVersions>): Promise<SessionSummary[]> {
  const reply = (await redis.script(LIST, [prefix, String(idleMs)])) as Array<string | number>;
  const now = Number(reply[0]);
  const sessions: SessionSummary[] = [];
  for (let i = 1; i < reply.length; i += 6) {
    const [id, lastUse, owner, active, journal, added] = reply.slice(i, i + 6) as [string, string, string, string, number, number];
    const source = await versions.sourceOf(active);
    const start = source.ok ? source.value : undefined;
    sessions.push({
      id,
      owner: ownerOf(owner),
      scenario: start?.scenario?.name ?? null,
      pets: (start?.pets.length ?? 0) + Number(added),
      idleSeconds: Math.max(0, Math.round((now - Number(lastUse)) / 1000)),
      journal: Number(journal),
    });
  }
  return sessions;
}
