import type { Rule } from '../types.js';
import { ACROSS_REQUESTS, readPaths } from './auth-connection-rules.js';
import { finding, recordFailure, verdictOf } from './generated.js';
import { cite, STATEMENTS } from './statements.js';
import { BAD_CREDENTIALS } from './variation-key.js';

/**
 * A browser keeps the cookies a server sets and sends them back with every
 * request to it, whatever page makes the request (`credentials: 'include'`,
 * a form, an image; RFC 6265 §5.4). A server that sets a session cookie
 * once the key was shown and takes that cookie for the key lets in requests
 * that never carried the key. The interface authenticates each request by
 * its key; a cookie the server set is not the key. After a GET with the
 * key, the cookies its answer set go back as a browser sends them, on
 * listPets and getPet without the key and with a wrong one: each must get
 * 401. A server that sets no cookie has nothing to replay, and passes:
 * its requests are fixed, so it counts no generated cases.
 */
export const authCookieRule: Rule = {
  id: 'auth-cookie-per-request',
  title: 'listPets and getPet without the key or with a wrong one, carrying the cookies an answer to the key set: 401 (RFC 6265 §5.4)',
  ...ACROSS_REQUESTS,
  async run(context) {
    for (const path of await readPaths(context)) {
      const keyed = await context.probe({ method: 'GET', path });
      const cookie = cookieField(keyed.exchange.response?.headers['set-cookie']);
      if (cookie === undefined) continue;
      for (const credentials of BAD_CREDENTIALS) {
        const replayed = await context.probe({ method: 'GET', path, auth: credentials.auth, headers: { cookie } });
        const status = replayed.exchange.response?.status;
        if (status === undefined || status === 401) continue;
        const verdict = verdictOf([keyed, replayed], [finding(replayed.exchange, `answered ${status} to GET ${path} with ${credentials.what}, carrying the cookies the answer to the key set (${cookieNames(cookie)})`, `401 (${cite(STATEMENTS.authRequired)}): a cookie the server set is not the key, and a browser sends it back with every request`, '$.status')]);
        if (!verdict.ok) recordFailure(context, verdict.failure, { case: `GET ${path} with ${credentials.what} and the cookies set by the answer to a GET with the key`, tried: 1, shrinks: 0 });
      }
    }
  },
};

/**
 * The Cookie field a browser sends back for the Set-Cookie fields of one
 * answer (RFC 6265 §4.2.1, §5.4): each cookie's name=value, joined by
 * `; `. The client joins several Set-Cookie lines with `, `, which an
 * Expires date holds too (`Wed, 21 Oct 2026`): a new cookie starts only
 * where a name and `=` follow.
 */
function cookieField(setCookie: string | undefined): string | undefined {
  if (!setCookie) return undefined;
  const pairs = setCookie
    .split(/,\s*(?=[^;,=\s]+=)/)
    .map((line) => (line.split(';')[0] ?? '').trim())
    .filter((pair) => /^[^=\s]+=/.test(pair));
  return pairs.length ? pairs.join('; ') : undefined;
}

const cookieNames = (cookie: string): string => cookie.split('; ').map((pair) => pair.slice(0, pair.indexOf('='))).join(', ');
