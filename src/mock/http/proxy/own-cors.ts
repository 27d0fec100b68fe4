import type { HeaderRecord } from '../shared-headers.js';

/**
 * The target's answer fields (node's raw list) with the mock's own CORS in
 * place of the target's, for a request that carries an `Origin`.
 *
 * The browser reads the mock's origin, not staging's: the mock answered the
 * preflight with its own policy (`--cors-origin`), so the actual answer must
 * carry the same policy, or a page whose preflight passed is still blocked
 * ("No 'Access-Control-Allow-Origin' header") when staging sends no CORS
 * fields, the usual case for a staging reached only through a local mock.
 * A mix of the two policies would be worse (the target's `*` beside the
 * mock's credentials is refused by the Fetch standard), so every
 * `Access-Control-*` field of the target is dropped. `Vary` is merged, as
 * the answer now depends on the Origin too (Fetch standard, "CORS protocol
 * and HTTP caches"). The body and every other field pass as sent.
 *
 * A request without `Origin` (curl, the harness, a same-origin page's GET)
 * gets the target's fields untouched: CORS is only read by browsers on
 * another origin, which always send one.
 */
export function withOwnCors(raw: string[], added: HeaderRecord | undefined, origin: string | undefined): string[] {
  if (origin === undefined || added === undefined) return raw;
  const own = Object.entries(added).filter(([name]) => name.startsWith('access-control-'));
  // Unlisted origins get no CORS fields from the mock, only its `Vary`: the target's are dropped all the same.
  if (own.length === 0 && !(added.vary ?? '').toLowerCase().includes('origin')) return raw;
  const kept: string[] = [];
  let vary: string | undefined;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase();
    if (name.startsWith('access-control-')) continue;
    if (name === 'vary') {
      vary = vary === undefined ? (raw[i + 1] as string) : `${vary}, ${raw[i + 1] as string}`;
      continue;
    }
    kept.push(raw[i] as string, raw[i + 1] as string);
  }
  for (const [name, value] of own) kept.push(name, value);
  // Even with `*`: whether the fields are there depends on the request's Origin.
  kept.push('Vary', mergedVary(vary));
  return kept;
}

/** The target's `Vary` with `Origin` added, unless it names it or is `*` (RFC 9110 §12.5.5: any field may vary it already). */
function mergedVary(vary: string | undefined): string {
  if (vary === undefined || vary.trim() === '') return 'Origin';
  const names = vary.split(',').map((name) => name.trim().toLowerCase());
  return names.includes('origin') || names.includes('*') ? vary : `${vary}, Origin`;
}
