import type { IncomingMessage } from 'node:http';
import type { Defect, ServerFetch } from './defect.js';
import { rewriteRequest, withKey } from './http.js';
import { AUTH, type Wire } from './variation-key-defects.js';

/**
 * Servers whose key check reads the request target as it came over the wire
 * (node's `incoming.url`) while the router under it reads it otherwise: a
 * target written one way a browser, a generated client, a proxy or curl
 * writes it is let in without the key. The first group are the same URI
 * as the plain one (RFC 3986 §6.2.2, §5.2.4; RFC 9112 §3.2.2), spelled
 * from the origin, the base path included; the others are forms RFC 3986
 * does not call the same but many routers read as the plain one (merged
 * slashes, case, `;` parameters, `%2F`, `\`, a fragment, empty query
 * pieces). Every request as the harness always writes it, with or without
 * the key, gets the mock's answer, so only that form sent without the key
 * shows them (src/contract-tests/rules/variation-key.ts).
 */

const EVERY = ['vary-list-pets', 'vary-create-pet', 'vary-get-pet'];
const SAME_URI = `${AUTH} RFC 3986 §6.2.2, §5.2.4: the same URI as the plain target.`;

/** The target as sent: `spelledRawUrl` when a front end rewrote it (see `front` below), else node's. */
const rawTarget = (wire: Wire): string => (wire as Wire & { rawUrl?: string }).rawUrl ?? wire.url ?? '';
/** Its path: no query, no fragment, no scheme and authority (an absolute-form target). */
const rawPath = (wire: Wire): string => rawTarget(wire).replace(/[?#][\s\S]*$/, '').replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '');
const pathOf = (request: Request): string => new URL(request.url).pathname;

/** A key check passed by when `when` holds for the target as sent; the router then reads the path as `route` says (unchanged by default). */
const letsInWhen =
  (when: (wire: Wire) => boolean, route: (path: string) => string = (path) => path) =>
  (fetch: ServerFetch): ServerFetch =>
  async (request, env) => {
    if (!when(env.incoming)) return fetch(request, env);
    const url = new URL(request.url);
    url.pathname = route(pathOf(request));
    return fetch(await withKey(await rewriteRequest(request, { url: url.href })), env);
  };

/** A front end that reads `\` as `/` (WHATWG URL, IIS) before anything else sees the target, keeping the target as sent. */
const backslashAsSlash = (incoming: IncomingMessage): void => {
  if (!incoming.url?.includes('\\')) return;
  (incoming as IncomingMessage & { rawUrl?: string }).rawUrl = incoming.url;
  incoming.url = incoming.url.replaceAll('\\', '/');
};

export const variationUriFormDefects: Defect[] = [
  // ---- The same URI, spelled from the origin ----
  {
    // A gateway guarding the raw prefix /v1/ (location /v1/ { auth }); the router decodes unreserved characters.
    name: 'a percent-encoded character in the base segment (/%761/pets) let in without the key',
    breaks: SAME_URI,
    wrap: letsInWhen((wire) => /^\/[^/]*%/.test(rawPath(wire))),
    caughtBy: EVERY,
  },
  {
    // The same gateway; the router removes dot segments.
    name: 'a dot segment before the base segment (/./v1/pets, /x/../v1/pets) let in without the key',
    breaks: SAME_URI,
    wrap: letsInWhen((wire) => /^\/(\.|[^/.][^/]*\/\.\.)\//.test(rawPath(wire))),
    caughtBy: EVERY,
  },
  {
    // The same gateway; the router drops a .. at the root (RFC 3986 §5.2.4 step 2C).
    name: 'a dot-dot above the root (/../v1/pets) let in without the key',
    breaks: SAME_URI,
    wrap: letsInWhen((wire) => /^\/\.\.(\/|$)/.test(rawPath(wire))),
    caughtBy: EVERY,
  },
  {
    // A key check that removes literal dot segments only; the router decodes %2e first (the CVE-2021-41773 class).
    name: 'a percent-encoded dot segment (/v1/%2e/pets, /v1/x/%2E%2e/pets) let in without the key',
    breaks: `${SAME_URI} §2.3: %2E is ".".`,
    wrap: letsInWhen((wire) => /%2e/i.test(rawPath(wire))),
    caughtBy: EVERY,
  },
  {
    // A check on req.url starting with /v1/; the router parses the absolute URL.
    name: 'an absolute-form target (GET http://host/v1/pets) let in without the key',
    breaks: `${AUTH} RFC 9112 §3.2.2: a server MUST accept the absolute-form.`,
    wrap: letsInWhen((wire) => /^[a-z][a-z0-9+.-]*:\/\//i.test(wire.url ?? '')),
    caughtBy: EVERY,
  },
  {
    // A check that knows the absolute-form by its lower-case prefix (`http://`), and a router that reads the scheme in any case.
    name: 'an absolute-form target with its scheme in upper case (GET HTTP://host/v1/pets) let in without the key',
    breaks: `${AUTH} RFC 9112 §3.2.2, RFC 3986 §3.1: a scheme is case-insensitive.`,
    // The target as it came, before the server writes the scheme in lower case.
    front: (incoming) => void ((incoming as IncomingMessage & { rawUrl?: string }).rawUrl = incoming.url),
    wrap: letsInWhen((wire) => /^[a-z][a-z0-9+.-]*:\/\//i.test(rawTarget(wire)) && !/^https?:\/\//.test(rawTarget(wire))),
    caughtBy: EVERY,
  },
  // ---- Forms RFC 3986 does not call the same ----
  {
    // A check on the raw path; the router merges slashes (nginx merge_slashes, Spring, Envoy).
    name: 'doubled slashes (//v1/pets, /v1//pets) merged by the router and let in without the key',
    breaks: AUTH,
    wrap: letsInWhen((wire) => rawPath(wire).includes('//'), (path) => path.replace(/\/{2,}/g, '/')),
    caughtBy: EVERY,
  },
  {
    // A case-sensitive check; a case-insensitive router (Express's default, IIS, Spring setCaseSensitive(false)).
    name: 'a path in another case (/V1/PETS) routed case-insensitively and let in without the key',
    breaks: AUTH,
    wrap: letsInWhen((wire) => /[A-Z]/.test(rawPath(wire).replace(/%[0-9a-fA-F]{2}/g, '')), (path) => path.toLowerCase()),
    caughtBy: EVERY,
  },
  {
    // A check on the raw path; the router strips ;parameters (Tomcat, Jetty, Spring).
    name: 'a path parameter (/v1/pets;x=1) stripped by the router and let in without the key',
    breaks: AUTH,
    wrap: letsInWhen((wire) => rawPath(wire).includes(';'), (path) => path.replace(/;[^/]*/g, '')),
    caughtBy: EVERY,
  },
  {
    // A check on the raw path; the router decodes %2F before matching (Apache AllowEncodedSlashes, Envoy UNESCAPE_AND_FORWARD).
    name: 'an encoded slash (/v1/pets%2F30) decoded by the router and let in without the key',
    breaks: AUTH,
    wrap: letsInWhen((wire) => /%2f/i.test(rawPath(wire)), (path) => path.replace(/%2f/gi, '/')),
    caughtBy: EVERY,
  },
  {
    // A check on the raw target; a front end reads \ as / (WHATWG URL, IIS).
    name: 'a backslash (/v1\\pets) read as / by the front end and let in without the key',
    breaks: AUTH,
    front: backslashAsSlash,
    wrap: letsInWhen((wire) => rawTarget(wire).includes('\\')),
    caughtBy: EVERY,
  },
  {
    // A check comparing the whole raw target; the router ignores #….
    name: 'a fragment in the target (/v1/pets#x) let in without the key',
    breaks: AUTH,
    wrap: letsInWhen((wire) => rawTarget(wire).includes('#')),
    caughtBy: EVERY,
  },
  {
    // A check matching the raw target against non-empty pieces; the query parser skips empty ones (WHATWG URL's form-urlencoded parsing).
    name: 'an empty query or empty query pieces (/v1/pets?, ?&limit=5, ?limit=5&) let in without the key',
    breaks: AUTH,
    wrap: letsInWhen((wire) => /\?$|\?&|&&|&$/.test(rawTarget(wire).replace(/#[\s\S]*$/, ''))),
    caughtBy: EVERY,
  },
  {
    // A gateway guarding /v1/pets/{id:[0-9]+}; a catch-all route forwards the rest to a backend that reads the id with Number().
    name: "getPet's id written as another reading of its integer (30.0, +30, 3e1, %2030, 0x1e) routed past the key check",
    breaks: `${AUTH} Whether such a path is getPet the interface does not say; an animal without the key it never is.`,
    wrap: letsInWhen(
      (wire) => readAsId(rawPath(wire)) !== undefined,
      (path) => path.replace(/\/[^/]*$/, `/${readAsId(path) ?? ''}`),
    ),
    caughtBy: ['get-id-path-forms'],
  },
  {
    // The same gateway; the backend behind the catch-all reads the decoded segment as a C string, which ends at the NUL.
    name: "getPet's id followed by a NUL octet (/v1/pets/30%00) routed past the key check",
    breaks: `${AUTH} An animal without the key it never is.`,
    wrap: letsInWhen(
      (wire) => /^\/v1\/pets\/\d+%00$/i.test(rawPath(wire)),
      (path) => path.replace(/%00$/i, ''),
    ),
    caughtBy: ['get-id-path-forms'],
  },
  {
    // The same gateway; the backend normalises the path (NFKC) and reads fullwidth digits as ASCII ones.
    name: "getPet's id in fullwidth digits (/v1/pets/\uFF13\uFF10) routed past the key check",
    breaks: `${AUTH} An animal without the key it never is.`,
    wrap: letsInWhen(
      (wire) => /^\/v1\/pets\/(%EF%BC%9[0-9])+$/i.test(rawPath(wire)),
      (path) => path.replace(/[^/]+$/, (segment) => decodeURIComponent(segment).normalize('NFKC')),
    ),
    caughtBy: ['get-id-path-forms'],
  },
];

/** The id Number() reads in getPet's segment, when it is written otherwise than as digits (a float, a sign, an exponent, a space, hexadecimal). */
function readAsId(path: string): number | undefined {
  const segment = /^\/v1\/pets\/([^/]+)$/.exec(path)?.[1];
  if (segment === undefined) return undefined;
  let text: string;
  try {
    text = decodeURIComponent(segment);
  } catch {
    return undefined;
  }
  if (/^[0-9]+$/.test(text) || text.trim() === '') return undefined;
  const id = Number(text);
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}
