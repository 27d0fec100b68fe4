import type { OperationSpec } from '../../../document/operations.js';
import { addResponseHeaders, type Step } from '../exchange.js';
import type { DeprecationChoice } from '../../../shared/profile/profile-choice-types.js';

export interface DeprecationOptions {
  operation: OperationSpec;
  /** Where the replacement operation is served, e.g. `/v1/pets`. */
  replacementUrl: string | undefined;
  /** Called once, on the first request to the operation. */
  onFirstUse: (message: string) => void;
  /** Which answers carry the signals, and whether `Link` goes with them: read per request, as a profile may change. */
  choice: () => DeprecationChoice;
}

/**
 * Adds the deprecation signals to the responses of a deprecated operation,
 * by default every one, errors included, since a client may only ever see
 * its 401s (a profile may say 2xx answers only, or none, and no `Link`):
 * - `Deprecation` (RFC 9745 §2): a structured-field date, `@<unix seconds>`;
 * - `Sunset` (RFC 8594 §3): the removal date as an HTTP-date;
 * - `Link` to the replacement, `rel="successor-version"` (RFC 5829).
 * All three are taken from the contract document.
 */
export function deprecation({ operation, replacementUrl, onFirstUse, choice }: DeprecationOptions): Step {
  const dated: Record<string, string> = {};
  if (operation.deprecatedSince) dated.deprecation = `@${Math.floor(operation.deprecatedSince.getTime() / 1000)}`;
  if (operation.sunset) dated.sunset = operation.sunset.toUTCString();
  // Frozen: merged with the CORS headers once, not per request (shared-headers.ts).
  const withoutLink = Object.freeze({ ...dated });
  const withLink = replacementUrl ? Object.freeze({ ...dated, link: `<${replacementUrl}>; rel="successor-version"` }) : withoutLink;
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
    const { answers, link } = choice();
    const headers = link === 'sent' ? withLink : withoutLink;
    if (answers === 'every') addResponseHeaders(x, headers);
    else if (answers === 'success') x.successHeaders = headers;
    return next(x);
  };
}
