import type { OperationSpec } from '../../../document/operations.js';
import { clip, profiledError } from '../../core/errors.js';
import type { ActiveProfile } from '../../core/profile/active-profile.js';
import { decodePart, searchOf } from '../../core/validation/query-string.js';
import type { Step } from '../exchange.js';
import { sendError } from '../respond.js';

/**
 * Refuses a query parameter the document does not name, when the active
 * profile says so: the mock's own choice is to ignore one, as most HTTP
 * services do; the interface does not say. Right after the key check,
 * before the body is looked at (a chunked body, its size) and before
 * `Prefer` and stubs: a server that refuses what it does not know reads
 * the request line before the body.
 */
export function profiledUnknownQuery(operation: OperationSpec, profile: ActiveProfile): Step {
  const documented = new Set(operation.query.map((spec) => spec.name));
  return function refuseUnknownQuery(x, next) {
    const choice = profile.choices['unknown-query-parameter'];
    if (choice === 'ignored') return next(x);
    const unknown = firstUnknown(searchOf(x.c.req.url), documented);
    return unknown === undefined ? next(x) : sendError(x, profiledError(choice, `query parameter ${JSON.stringify(clip(unknown))} is not one ${operation.operationId} reads`));
  };
}

/** The first parameter name in `search` not in `documented`; empty names are skipped, as query-string.ts reads them. */
function firstUnknown(search: string, documented: ReadonlySet<string>): string | undefined {
  for (const pair of search.split('&')) {
    const equals = pair.indexOf('=');
    const name = decodePart(equals === -1 ? pair : pair.slice(0, equals));
    if (name !== '' && !documented.has(name)) return name;
  }
  return undefined;
}
