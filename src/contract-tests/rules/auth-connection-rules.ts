import type { Rule, RuleContext } from '../types.js';
import { finding, recordFailure, verdictOf } from './generated.js';
import { cite, STATEMENTS } from './statements.js';
import { BAD_CREDENTIALS } from './variation-key.js';

/**
 * RFC 9112 §9.3: each request on a persistent connection stands alone. A
 * key check remembered per connection (the NTLM habit: "this socket has
 * authenticated") lets in the next request on it without the key, and a
 * proxy that puts different clients' requests on one connection to the
 * server (HAProxy http-reuse, Envoy, nginx keepalive upstreams) hands that
 * to another client. Each request here goes on a connection that has just
 * carried a GET with the key (http-client.ts `sendAfterKey`): it must get
 * 401. Its curl line sends both on one connection (`--next`) when the
 * server kept it; beside it, the same request on a fresh connection.
 */
/** What the rules of the key across requests share: they read listPets and getPet, and hold the Authentication section. */
export const ACROSS_REQUESTS = { operation: 'listPets', writes: false, severity: 'contract', statement: STATEMENTS.authRequired } as const;

export const authConnectionRule: Rule = {
  id: 'auth-key-per-request',
  title: 'listPets and getPet without the key or with a wrong one, on a connection that has just carried a request with the key: 401 (RFC 9112 §9.3)',
  ...ACROSS_REQUESTS,
  async run(context) {
    let tried = 0;
    for (const path of await readPaths(context)) {
      for (const credentials of BAD_CREDENTIALS) {
        tried++;
        const after = await context.probe({ method: 'GET', path, auth: credentials.auth, connection: 'after-key' });
        const status = after.exchange.response?.status;
        if (status === undefined || status === 401) continue;
        const fresh = await context.probe({ method: 'GET', path, auth: credentials.auth });
        const reused = after.exchange.request.follows !== undefined ? 'on the connection that had just carried a GET with the key' : 'on a connection of its own (the server did not keep the one that carried the key)';
        const verdict = verdictOf([fresh, after], [finding(after.exchange, `answered ${status} to GET ${path} with ${credentials.what} ${reused}, where on a fresh connection it got ${fresh.exchange.response?.status}`, `401 (${cite(STATEMENTS.authRequired)}): each request on a persistent connection stands alone (RFC 9112 §9.3)`, '$.status')]);
        if (!verdict.ok) recordFailure(context, verdict.failure, { case: `GET ${path} with ${credentials.what}, after a GET with the key on the same connection`, tried, shrinks: 0 });
      }
    }
    return { cases: tried };
  },
};

/** The two reads a key opens: listPets, and getPet of an animal it lists (1 when none is known). */
export async function readPaths(context: RuleContext): Promise<string[]> {
  const pet = await context.existingPet();
  return ['/pets', `/pets/${String(pet?.id ?? 1)}`];
}
