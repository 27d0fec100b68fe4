import { isExactInteger, type ExactInteger } from '../../shared/exact-json/int64.js';
import { UNDECLARED_BODY_BYTES, UNDECLARED_NAME_LENGTH } from '../../shared/profile/undeclared-limits.js';
import type { RefusalAllowance } from '../allow-refusal.js';
import type { RecordedExchange } from '../../verdict/exchange.js';
import { codePoints } from '../../shared/code-points.js';

/**
 * The line between what a server may refuse of a valid NewPet and what it
 * must accept. The interface leaves open only limits on name length and
 * body size, rate limits, and what a category is (its fields are not
 * shown); a refusal is inside the boundary when one of those explains it,
 * judged from what the harness itself sent and saw, never from the server's
 * word alone (the one exception, a category, needs the server to say so).
 */

/** What the harness has seen the target accept during the run: a refusal of one of these cannot be a limit. */
export interface Accepted {
  names: Set<string>;
  categoryIds: Set<ExactInteger>;
}

export const nothingAccepted = (): Accepted => ({ names: new Set(), categoryIds: new Set() });

/** Remembers what a 201 accepted. */
export function rememberAccepted(accepted: Accepted, sent: Record<string, unknown>): void {
  if (typeof sent.name === 'string') accepted.names.add(sent.name);
  if (isExactInteger(sent.categoryId)) accepted.categoryIds.add(sent.categoryId);
}

/**
 * `inside`: the refusal is one a server may make; `declared` when the CI
 * owner's declaration covers it, `silent` when the interface leaves it open.
 * `point` is a fixed label (no lengths in it), so the report groups alike
 * refusals. `outside`: why none of the open doors explains it.
 */
/**
 * `byLength`: refused for the name's length, which the silent point
 * `name-length` reports. Outside, `byLength` marks a 400 that nothing but
 * the name's length could explain: the boundary probe (name-boundary.ts)
 * finds whether it does.
 */
export type RefusalVerdict = { inside: true; how: 'declared' | 'silent'; point: string; byLength?: true } | { inside: false; why: string; byLength?: true };

/** Unicode's control characters (C0, DEL, C1): no script writes a name with one. */
const CONTROL = /\p{Cc}/u;

/** Whether the Error body says the category is what it refuses: its `code` or `message` names it. */
const blamesCategory = (json: unknown): boolean => {
  const error = json as { code?: unknown; message?: unknown } | undefined;
  return [error?.code, error?.message].some((text) => typeof text === 'string' && /categor/i.test(text));
};

/**
 * Judges a refusal (a 4xx) of a valid NewPet, sent
 * as `text`. Only 400 (the interface's refusal of createPet), 413 for a body
 * past a size limit (RFC 9110 §15.5.14) and 429 (RFC 6585 §4) can be inside.
 */
export function judgeValidRefusal(sent: Record<string, unknown>, text: string, exchange: RecordedExchange, allowance: RefusalAllowance, accepted: Accepted): RefusalVerdict {
  const status = exchange.response?.status;
  if (status === 429) return { inside: true, how: 'silent', point: 'rate limited (429)' };
  const bytes = Buffer.byteLength(text, 'utf8');
  const bodyLimit = allowance.bodyMaxBytes ?? UNDECLARED_BODY_BYTES;
  const how = (declared: unknown) => (declared === undefined ? 'silent' : 'declared') as 'declared' | 'silent';
  const bodyPoint = `a body over ${bodyLimit} bytes (${allowance.bodyMaxBytes === undefined ? 'no limit declared' : `body.maxBytes=${bodyLimit}`})`;
  if (status === 413) {
    return bytes > bodyLimit ? { inside: true, how: how(allowance.bodyMaxBytes), point: bodyPoint } : { inside: false, why: `413 to a body of ${bytes} bytes, within ${bodyLimit}` };
  }
  if (status !== 400) return { inside: false, why: `${status ?? 'no answer'} is no refusal the interface allows` };
  const name = sent.name;
  // First: the same name was accepted before, so neither its length nor its characters can be what is refused now.
  if (typeof name === 'string' && accepted.names.has(name)) return { inside: true, how: 'silent', point: 'a name the target already holds (accepted earlier in the run)' };
  if (name === '') return { inside: true, how: 'silent', point: 'an empty name' };
  if (typeof name === 'string' && CONTROL.test(name)) return { inside: true, how: 'silent', point: 'a control character in the name' };
  const nameLimit = allowance.nameMaxLength ?? UNDECLARED_NAME_LENGTH;
  if (typeof name === 'string' && codePoints(name) > nameLimit) {
    return { inside: true, how: how(allowance.nameMaxLength), point: `a name over ${nameLimit} code points (${allowance.nameMaxLength === undefined ? 'no limit declared' : `name.maxLength=${nameLimit}`})`, byLength: true };
  }
  if (bytes > bodyLimit) return { inside: true, how: how(allowance.bodyMaxBytes), point: bodyPoint };
  const categoryId = sent.categoryId;
  if (isExactInteger(categoryId) && !accepted.categoryIds.has(categoryId)) {
    if (allowance.categoryKnown) return { inside: true, how: 'declared', point: 'a category the run has not seen accepted (categoryId.known)' };
    if (blamesCategory(exchange.response?.json)) return { inside: true, how: 'silent', point: 'a category the target says it does not know' };
  }
  return { inside: false, why: refusedWhat(name, bytes), ...(typeof name === 'string' && { byLength: true as const }) };
}

/** The refused case in words: what about it is ordinary. */
function refusedWhat(name: unknown, bytes: number): string {
  const length = typeof name === 'string' ? `a name of ${codePoints(name)} code points, ` : '';
  return `${length}a body of ${bytes} bytes: nothing a server may refuse where the interface is silent`;
}
