import type { OperationSpec } from '../../../document/operations.js';
import { clip, profiledError } from '../../core/errors.js';
import type { ActiveProfile } from '../../core/profile/active-profile.js';
import { failed } from '../../core/result.js';
import { decodePart, searchOf } from '../../core/validation/query-string.js';
import type { ServedOperation } from './served-operation.js';

/**
 * An operation that refuses a query parameter the document does not name,
 * when the active profile says so. The mock's own choice is to ignore one,
 * as most HTTP services do; the interface does not say.
 */
export function withUnknownQueryChoice<Input>(operation: OperationSpec, profile: ActiveProfile, served: ServedOperation<Input>): ServedOperation<Input> {
  const documented = new Set(operation.query.map((spec) => spec.name));
  return {
    ...served,
    read(x) {
      const choice = profile.choices['unknown-query-parameter'];
      if (choice === 'ignored') return served.read(x);
      const unknown = firstUnknown(searchOf(x.c.req.url), documented);
      return unknown === undefined ? served.read(x) : failed(profiledError(choice, `query parameter ${JSON.stringify(clip(unknown))} is not one ${operation.operationId} reads`));
    },
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
