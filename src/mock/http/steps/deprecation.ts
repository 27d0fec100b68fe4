import type { OperationSpec } from '../../../document/operations.js';
import { addResponseHeaders, type Step } from '../exchange.js';

export interface DeprecationOptions {
  operation: OperationSpec;
  /** Where the replacement operation is served, e.g. `/v1/pets`. */
  replacementUrl: string | undefined;
  /** Called once, on the first request to the operation. */
  onFirstUse: (message: string) => void;
}

/**
 * Adds the deprecation signals to every response of a deprecated operation,
 * errors included, since a client may only ever see its 401s:
 * - `Deprecation` (RFC 9745 §2): a structured-field date, `@<unix seconds>`;
 * - `Sunset` (RFC 8594 §3): the removal date as an HTTP-date;
 * - `Link` to the replacement, `rel="successor-version"` (RFC 5829).
 * All three are taken from the contract document.
 */
export function deprecation({ operation, replacementUrl, onFirstUse }: DeprecationOptions): Step {
  const headers: Record<string, string> = {};
  if (operation.deprecatedSince) headers.deprecation = `@${Math.floor(operation.deprecatedSince.getTime() / 1000)}`;
  if (operation.sunset) headers.sunset = operation.sunset.toUTCString();
  if (replacementUrl) headers.link = `<${replacementUrl}>; rel="successor-version"`;
  // Frozen: merged with the CORS headers once, not per request (shared-headers.ts).
  Object.freeze(headers);
  const warning =
    `${operation.operationId} (${operation.method} ${operation.path}) is deprecated` +
    (operation.sunset ? ` and will be removed on ${operation.sunset.toISOString().slice(0, 10)}` : '') +
    (replacementUrl ? `; use ${replacementUrl} instead` : '');
  let warned = false;

  return function deprecationSignals(x, next) {
    if (!warned) {
      warned = true;
      onFirstUse(warning);
    }
    addResponseHeaders(x, headers);
    return next(x);
  };
}
