// @ts-check
/**
 * The admin API as the page calls it: every request with the key the user
 * typed (Authorization: Bearer) and the chosen session (X-Mock-Session),
 * under the admin API's own rules; the page has no other way in.
 */

const KEY = 'animal-store-mock.key';
const SESSION = 'animal-store-mock.session';
/** The session chooser's value for the anonymous journal: `@` is no session id's character. */
export const ANONYMOUS = '@anonymous';
export const BASE = '/__mock';

/**
 * @typedef {{ code: string, message: string, status: number }} ErrorBody
 * @typedef {{ ok: true, status: number, body: any } | { ok: false, status: number, error: ErrorBody, retryAfter: number | undefined }} Answer
 */

/**
 * The key lives in sessionStorage: it survives a reload, not the tab, and
 * no other page (or origin) can read it.
 */
export const settings = {
  get key() {
    return sessionStorage.getItem(KEY) ?? '';
  },
  set key(value) {
    if (value === '') sessionStorage.removeItem(KEY);
    else sessionStorage.setItem(KEY, value);
  },
  /** '' for the shared default, ANONYMOUS, or a session id. */
  get session() {
    return sessionStorage.getItem(SESSION) ?? '';
  },
  set session(value) {
    if (value === '') sessionStorage.removeItem(SESSION);
    else sessionStorage.setItem(SESSION, value);
  },
};

/**
 * The headers every admin request carries: the key when one was given, and
 * the chosen session (none for the shared default or the anonymous journal).
 * @returns {Record<string, string>}
 */
export function adminHeaders() {
  /** @type {Record<string, string>} */
  const headers = {};
  const { key, session } = settings;
  if (key !== '') headers.authorization = `Bearer ${key}`;
  if (session !== '' && session !== ANONYMOUS) headers['x-mock-session'] = session;
  return headers;
}

/**
 * One admin request; a refusal comes back as its Error body, never thrown.
 * @param {'GET' | 'PUT' | 'POST' | 'DELETE'} method
 * @param {string} path below /__mock
 * @param {unknown} [body] sent as JSON
 * @returns {Promise<Answer>}
 */
export async function call(method, path, body) {
  /** @type {Record<string, string>} */
  const headers = adminHeaders();
  if (body !== undefined) headers['content-type'] = 'application/json';
  let res;
  try {
    res = await fetch(BASE + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), cache: 'no-store' });
  } catch (error) {
    return { ok: false, status: 0, error: { code: 'unreachable', message: `The mock did not answer (${String(error)}): is it still running?`, status: 0 }, retryAfter: undefined };
  }
  const parsed = await res.json().catch(() => undefined);
  if (res.ok) return { ok: true, status: res.status, body: parsed };
  return { ok: false, status: res.status, error: errorOf(res.status, parsed), retryAfter: retryAfter(res) };
}

/**
 * The Error body of a refusal, or one made up when the body is not one.
 * @param {number} status
 * @param {unknown} body
 * @returns {ErrorBody}
 */
export function errorOf(status, body) {
  if (typeof body === 'object' && body !== null && 'message' in body && typeof body.message === 'string') {
    const code = 'code' in body && typeof body.code === 'string' ? body.code : 'error';
    return { code, message: body.message, status };
  }
  return { code: 'error', message: `The mock answered ${status} without an Error body.`, status };
}

/**
 * @param {Response} res
 * @returns {number | undefined} seconds
 */
export function retryAfter(res) {
  const value = Number(res.headers.get('retry-after'));
  return Number.isFinite(value) && value > 0 ? value : undefined;
}
