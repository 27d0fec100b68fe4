import type { ActiveProfile } from './active-profile.js';
import { profiledError, type ErrorBody } from '../errors.js';

/** A body limit and the Error past it: fixed, or read at each request (the API's follows the active profile). */
export interface BodyLimit {
  maxBytes: number;
  error: ErrorBody;
}

/**
 * The API's body limit: the active profile's largest body and its answer
 * past it, never past `maxBytes`, the most the mock reads (1 MiB). Kept
 * while the profile's choice stays the same, so a request builds nothing.
 */
export function profiledBodyLimit(profile: ActiveProfile, maxBytes: number): () => BodyLimit {
  let seen: ActiveProfile['choices']['body-size'] | undefined;
  let limit: BodyLimit | undefined;
  return () => {
    const choice = profile.choices['body-size'];
    if (choice !== seen || !limit) {
      seen = choice;
      const max = Math.min(choice.max, maxBytes);
      limit = { maxBytes: max, error: profiledError(choice.refused, `the request body is larger than ${max} bytes`) };
    }
    return limit;
  };
}
