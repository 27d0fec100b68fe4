import type { Exchange, Step } from '../exchange.js';
import { keyChecker, repeatsAuthorization, sendUnauthorized } from '../auth/bearer-credentials.js';

export interface BearerKeyOptions {
  /** The accepted keys. At least one. */
  keys: readonly string[];
  /** The answer to a request without one of them (default: the API's 401, sendUnauthorized). */
  refuse?: (x: Exchange) => Response;
}

/**
 * Checks `Authorization: Bearer <key>` against the accepted keys.
 *
 * Hono's own `bearerAuth` cost far more a request (BENCHMARKS.md), so this one keeps
 * the request path to one regex and one SHA-256: the presented key is hashed
 * and compared with every accepted key's hash by `timingSafeEqual`, so the
 * time taken does not depend on how much of a key matched, nor on its length.
 * A request with more than one Authorization header is refused too (see
 * repeatsAuthorization, auth/bearer-credentials.ts).
 */
export function bearerKey({ keys, refuse = sendUnauthorized }: BearerKeyOptions): Step {
  const accepts = keyChecker(keys);
  return function bearerKeyCheck(x, next) {
    if (accepts(x.c.req.header('authorization')) && !repeatsAuthorization(x.c)) return next(x);
    return refuse(x);
  };
}
