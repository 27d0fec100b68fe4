import type autocannon from 'autocannon';
import { API_KEY } from './config.js';
import { JOURNAL_PATH_CLIP, MAX_BODY_BYTES, MAX_SESSIONS } from './soak-config.js';

/** One kind of traffic of the soak: autocannon cycles each connection through `requests`. */
export interface Stream {
  name: string;
  /** What it sends, for the report. */
  label: string;
  connections: number;
  requests: autocannon.Request[];
}

type Headers = Record<string, string>;
type Setup = (request: autocannon.Request) => autocannon.Request;
const KEYED: Headers = { authorization: `Bearer ${API_KEY}` };
const JSON_BODY: Headers = { 'content-type': 'application/json' };

/** `${prefix}-0` … `${prefix}-${count - 1}`. */
export const sessionIds = (prefix: string, count: number): string[] => Array.from({ length: count }, (_, i) => `${prefix}-${i}`);

/**
 * A `setupRequest` that sends the next id of `ids` in turn as X-Mock-Session
 * (`undefined`: none, the shared default), and lets `more` change the
 * request further with the same turn number.
 */
export function rotate(ids: readonly (string | undefined)[], more?: (request: autocannon.Request, turn: number) => void): Setup {
  let turn = 0;
  return (request) => {
    const id = ids[turn % ids.length];
    if (id !== undefined) request.headers = { ...request.headers, 'x-mock-session': id };
    more?.(request, turn);
    turn++;
    return request;
  };
}

/** A fresh session id on every request: `${prefix}-0`, `${prefix}-1`, … */
const fresh = (prefix: string): Setup => {
  let n = 0;
  return (request) => {
    request.headers = { ...request.headers, 'x-mock-session': `${prefix}-${n++}` };
    return request;
  };
};

/** `nth` on every n-th request, `usual` on the others. */
function everyNth(n: number, usual: Setup, nth: Setup): Setup {
  let count = 0;
  return (request) => (++count % n === 0 ? nth(request) : usual(request));
}

const newPet = (name: string): string => JSON.stringify({ name, categoryId: 1, status: 'available' });
/** The largest createPet body the default limit accepts, give or take 64 bytes: a name of almost 1 MiB. */
const LARGE_BODY = newPet('x'.repeat(MAX_BODY_BYTES - 64));
const SMALL_BODY = newPet('Rex');
/** A path just under the journal's clip, and one far over it (node's own limit for a request head is 16 KiB). */
const NEAR_CLIP = `/v1/pets?limit=1&pad=${'n'.repeat(JOURNAL_PATH_CLIP - 40)}`;
const FAR_OVER_CLIP = `/v1/pets?limit=1&pad=${'f'.repeat(8 * JOURNAL_PATH_CLIP)}`;

/** Sessions the soak fills; more of them than --max-sessions where the point is eviction. */
export const LARGE_SESSIONS = [undefined, ...sessionIds('soak-large', MAX_SESSIONS)];
export const SMALL_SESSIONS = [undefined, ...sessionIds('soak-small', 20)];
const LONG_PATH_SESSIONS = [undefined, ...sessionIds('soak-long', MAX_SESSIONS)];
const ADMIN_SESSIONS = sessionIds('soak-admin', MAX_SESSIONS + 20);
/** Sessions with animals in them, which keyless and wrong-key requests name. */
const VICTIMS = [...SMALL_SESSIONS, ...LARGE_SESSIONS.slice(1, 21)];

/** The mixed load, abuse included; `scenarios` are the shipped scenario names the admin stream activates. */
export const soakStreams = (scenarios: readonly string[]): Stream[] => [...writes(), ...reads(), ...abuse(), ...admin(scenarios)];

/** Creates, large and small. */
const writes = (): Stream[] => [
  {
    // The shared default is never evicted: what it keeps, it keeps for the whole run.
    name: 'create-large',
    label: 'createPet with a name of almost 1 MiB, keyed, into the shared default',
    connections: 1,
    requests: [{ method: 'POST', path: '/v1/pets', headers: { ...KEYED, ...JSON_BODY }, body: LARGE_BODY }],
  },
  {
    name: 'create-large-sessions',
    label: `createPet with a name of almost 1 MiB, keyed, into ${MAX_SESSIONS} sessions in turn`,
    connections: 1,
    requests: [{ method: 'POST', path: '/v1/pets', headers: { ...KEYED, ...JSON_BODY }, body: LARGE_BODY, setupRequest: rotate(LARGE_SESSIONS.slice(1)) }],
  },
  {
    name: 'create-small',
    label: 'createPet, small, keyed, into the shared default and 20 sessions',
    connections: 3,
    requests: [{ method: 'POST', path: '/v1/pets', headers: { ...KEYED, ...JSON_BODY }, body: SMALL_BODY, setupRequest: rotate(SMALL_SESSIONS) }],
  },
];

/** Keyed reads. */
const reads = (): Stream[] => [
  {
    name: 'read',
    label: 'listPets (limit 100; status and limit 20) and getPet (ids 1-30 and one unknown), keyed, in the small-create sessions',
    connections: 3,
    requests: [
      { method: 'GET', path: '/v1/pets?limit=100', headers: KEYED, setupRequest: rotate(SMALL_SESSIONS) },
      { method: 'GET', path: '/v1/pets?status=available&limit=20', headers: KEYED, setupRequest: rotate(SMALL_SESSIONS) },
      { method: 'GET', path: '/v1/pets/1', headers: KEYED, setupRequest: rotate(SMALL_SESSIONS, (r, turn) => (r.path = `/v1/pets/${turn % 31 || 999_999}`)) },
    ],
  },
  {
    name: 'read-large',
    label: 'listPets (limit 100) in the large-create sessions: pages of up to 100 names of almost 1 MiB',
    connections: 1,
    requests: [{ method: 'GET', path: '/v1/pets?limit=100', headers: KEYED, setupRequest: rotate(LARGE_SESSIONS) }],
  },
];

/** Keyed but hostile: a session per request, long paths; and no key or a wrong one. */
const abuse = (): Stream[] => [
  {
    name: 'fresh-session',
    label: `listPets (limit 1), keyed, a new X-Mock-Session each time (past --max-sessions ${MAX_SESSIONS})`,
    connections: 2,
    requests: [{ method: 'GET', path: '/v1/pets?limit=1', headers: KEYED, setupRequest: fresh('soak-fresh') }],
  },
  {
    name: 'long-path',
    label: `listPets with paths of ${NEAR_CLIP.length} and ${FAR_OVER_CLIP.length} characters (journal clip ${JOURNAL_PATH_CLIP}), keyed, in 100 sessions`,
    connections: 2,
    requests: [
      { method: 'GET', path: NEAR_CLIP, headers: KEYED, setupRequest: rotate(LONG_PATH_SESSIONS) },
      { method: 'GET', path: FAR_OVER_CLIP, headers: KEYED, setupRequest: rotate(LONG_PATH_SESSIONS) },
    ],
  },
  {
    name: 'no-key',
    label: 'no key or a wrong key, naming running sessions or new ones: listPets, long paths, createPet',
    connections: 2,
    requests: [
      { method: 'GET', path: '/v1/pets', headers: {}, setupRequest: rotate(VICTIMS) },
      { method: 'GET', path: FAR_OVER_CLIP, headers: {}, setupRequest: rotate(VICTIMS) },
      { method: 'POST', path: '/v1/pets', headers: JSON_BODY, body: SMALL_BODY, setupRequest: rotate(VICTIMS) },
      { method: 'GET', path: '/v1/pets', headers: {}, setupRequest: rotate(VICTIMS, (r, turn) => (r.headers = { ...r.headers, authorization: `Bearer wrong-key-${turn}` })) },
      { method: 'GET', path: '/v1/pets', headers: {}, setupRequest: fresh('soak-keyless') },
    ],
  },
];

/** The admin API, keyed and not. */
const admin = (scenarios: readonly string[]): Stream[] => [
  {
    name: 'admin',
    label: `admin calls, keyed: activate each shipped scenario in ${ADMIN_SESSIONS.length} sessions in turn, reset, read journals and sessions`,
    connections: 1,
    requests: [
      {
        method: 'PUT',
        path: '/__mock/scenarios/active',
        headers: { ...KEYED, ...JSON_BODY },
        body: '{}',
        setupRequest: rotate(ADMIN_SESSIONS, (r, turn) => (r.body = JSON.stringify({ name: scenarios[turn % scenarios.length] }))),
      },
      { method: 'GET', path: '/__mock/journal', headers: KEYED, setupRequest: rotate(LONG_PATH_SESSIONS) },
      { method: 'POST', path: '/__mock/reset', headers: KEYED, setupRequest: rotate(SMALL_SESSIONS.slice(1)) },
      { method: 'GET', path: '/__mock/sessions', headers: KEYED },
      { method: 'GET', path: '/__mock/journal', headers: KEYED },
    ],
  },
  {
    name: 'keyless-admin',
    label: 'admin calls without a key: activations in new sessions (to evict others), and every 500th call DELETE /__mock/sessions',
    connections: 1,
    requests: [
      {
        method: 'PUT',
        path: '/__mock/scenarios/active',
        headers: JSON_BODY,
        body: '{"name":"default"}',
        setupRequest: everyNth(500, fresh('soak-evict'), (r) => ({ ...r, method: 'DELETE', path: '/__mock/sessions', body: '', headers: {} })),
      },
    ],
  },
];
