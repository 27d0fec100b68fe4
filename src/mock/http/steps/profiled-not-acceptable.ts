import { clip, profiledError } from '../../core/errors.js';
import type { ActiveProfile } from '../../core/profile/active-profile.js';
import { splitOutsideQuotes } from '../../../shared/split-outside-quotes.js';
import type { Step } from '../exchange.js';
import { sendError } from '../respond.js';

/**
 * Refuses a request whose `Accept` does not accept application/json, when
 * the active profile says so (406 Not Acceptable, RFC 9110 §15.5.7): the
 * mock's own choice is to answer in JSON all the same, as §12.5.1 allows
 * and most HTTP services do; the interface does not say. Every answer here
 * is application/json, so only an Accept that leaves it out is refused:
 * one whose most specific range naming it (application/json, then
 * application/ and any subtype, then any type) has a weight above 0 never
 * is, nor a request without Accept or with an empty one.
 */
export function profiledNotAcceptable(profile: ActiveProfile): Step {
  return function refuseNotAcceptable(x, next) {
    const choice = profile.choices['accept-without-json'];
    if (choice === 'ignored') return next(x);
    const accept = x.c.req.header('accept');
    if (accept === undefined || acceptsJson(accept)) return next(x);
    return sendError(x, profiledError(choice, `Accept ${JSON.stringify(clip(accept))} does not accept application/json, the only media type answered here`));
  };
}

/** The media ranges that name application/json, the more specific the higher; undefined for any other. */
const SPECIFICITY: ReadonlyMap<string, number> = new Map([['application/json', 2], ['application/*', 1], ['*/*', 0]]);

/**
 * Whether an Accept value accepts application/json: the most specific
 * ranges that name it decide, by their weight (RFC 9110 §12.5.1). A weight
 * that cannot be read counts as 1, so that only a plain refusal is refused.
 */
function acceptsJson(accept: string): boolean {
  let best = -1;
  let weight = 0;
  let ranges = 0;
  for (const element of splitOutsideQuotes(accept, ',')) {
    const [range = '', ...parameters] = splitOutsideQuotes(element, ';').map((part) => part.trim());
    if (range === '') continue;
    ranges++;
    const level = SPECIFICITY.get(range.toLowerCase());
    if (level === undefined || level < best) continue;
    const q = qOf(parameters);
    weight = level > best ? q : Math.max(weight, q);
    best = level;
  }
  return ranges === 0 || (best >= 0 && weight > 0);
}

/** The `q` parameter's value (names are case-insensitive, RFC 9110 §5.6.6); 1 when absent or unreadable. */
function qOf(parameters: readonly string[]): number {
  for (const parameter of parameters) {
    const value = Number(/^q\s*=\s*(\S+)$/i.exec(parameter)?.[1]);
    if (/^q\s*=/i.test(parameter)) return Number.isNaN(value) ? 1 : value;
  }
  return 1;
}
