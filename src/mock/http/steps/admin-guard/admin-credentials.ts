import type { Step } from '../../exchange.js';
import { unauthorized } from '../../auth/bearer-credentials.js';
import { bearerKey } from '../bearer-key.js';

export interface AdminCredentialsOptions {
  /** `--admin-key` / MOCK_ADMIN_KEY: needed on every admin request when set. */
  adminKey: string | undefined;
  /** The API keys: without an admin key, one of them is needed to change state. */
  apiKeys: readonly string[];
}

// GET and HEAD read; OPTIONS never gets here (the origin step answers it). Anything else may change state.
const READS = new Set(['GET', 'HEAD']);

/**
 * Who may use the admin API. With an admin key, every request needs
 * `Authorization: Bearer <admin key>`, health included, so the key guards
 * the sessions' ids and journals as well as every change. Without one, reads
 * stay open (a local tool, as before) but a request that can change state
 * needs an accepted API key: otherwise any client that reaches the port
 * could end every session or evict others' by activating scenarios.
 * Both keys are checked as API keys are (bearer-key.ts: hashed,
 * compared in constant time, a repeated Authorization refused).
 */
export function adminCredentials({ adminKey, apiKeys }: AdminCredentialsOptions): Step {
  if (adminKey !== undefined) {
    return bearerKey({
      keys: [adminKey],
      refuse: unauthorized('Missing or invalid admin key: the mock was started with --admin-key (or MOCK_ADMIN_KEY), so every /__mock request (but the console\'s page and files) needs Authorization: Bearer <ADMIN_KEY>.', 'animal-store-mock admin'),
    });
  }
  const writer = bearerKey({
    keys: apiKeys,
    refuse: unauthorized(
      'Missing or invalid API key: a request that can change the admin API\'s state (PUT, POST, DELETE) needs Authorization: Bearer <API_KEY>; reads do not. Start the mock with --admin-key to require a key of its own instead.',
      'animal-store',
    ),
  });
  return (x, next) => (READS.has(x.c.req.method) ? next(x) : writer(x, next));
}
