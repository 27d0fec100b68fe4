import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppFetch } from '../support/contract-cli.js';

/**
 * The mock with other defensible choices where the interface is silent on
 * whether two spellings are one request (docs/harness-rules.md, "Requests
 * written another way"). Each must pass every rule: the harness may not
 * hold a server to the mock's choice there, only to answering alike with
 * and without the key.
 */

/** `/v1/pets/` (another path than `/v1/pets`, RFC 3986 §6.2.3) redirected to it with 301, before any key check, as many frameworks do. */
export const redirectsEmptyLastSegment = (fetch: AppFetch): AppFetch => (request) => {
  const path = withoutEmptyLastSegment(request);
  if (path === undefined) return fetch(request);
  // Responses use application/json (What the service does), a redirect's too.
  return Response.json({ code: 'moved_permanently', message: `see ${path}`, status: 301 }, { status: 301, headers: { location: path + new URL(request.url).search } });
};

/** `/v1/pets/` answered as `/v1/pets`, the key checked the same (a router that ignores a trailing slash). */
export const ignoresEmptyLastSegment = (fetch: AppFetch): AppFetch => async (request) => {
  const path = withoutEmptyLastSegment(request);
  if (path === undefined) return fetch(request);
  const url = new URL(request.url);
  url.pathname = path;
  return fetch(new Request(url, { method: request.method, headers: request.headers, body: request.method === 'POST' ? await request.text() : undefined }));
};

/** The path of `/v1/pets/` read as a router reads it (percent-decoded), without its empty last segment; undefined for any other path. */
function withoutEmptyLastSegment(request: Request): string | undefined {
  const path = routedPath(request);
  return /\/pets\/$/.test(path) ? path.slice(0, -1) : undefined;
}

/** The path percent-decoded as a router reads it; as sent when its octets are no UTF-8 (`%C0%AF`), which no route names. */
function routedPath(request: Request): string {
  const { pathname } = new URL(request.url);
  try {
    return decodeURIComponent(pathname);
  } catch {
    return pathname;
  }
}

/**
 * An integer written with a fraction or an exponent (`"categoryId": 1.0`,
 * `1e0`) refused with 400, as a validator of JSON Schema draft 4 does; after
 * the key check, as the mock's own refusals.
 */
export const refusesSpelledIntegers = (key: string) => (fetch: AppFetch): AppFetch => async (request) => {
  const createPet = request.method === 'POST' && routedPath(request) === '/v1/pets';
  if (!createPet || !new RegExp(`^bearer +${key} *$`, 'i').test(request.headers.get('authorization') ?? '')) return fetch(request);
  const text = await request.text();
  // NewPet's one number is categoryId: a number token with a fraction or an exponent, outside the strings, is it so written.
  if (/\d[.eE]/.test(text.replace(/"(?:[^"\\]|\\.)*"/g, '""'))) return Response.json({ code: 'not_an_integer', message: 'categoryId must be written as an integer', status: 400 }, { status: 400 });
  return fetch(new Request(request.url, { method: 'POST', headers: request.headers, body: text }));
};

/** A refusal with an Error body, written before the mock (and its key check) sees the request. */
function refuseBefore(response: ServerResponse, status: number, code: string, message: string): true {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ code, message, status }));
  return true;
}

/** Raw-path features Spring Security's StrictHttpFirewall refuses by default: `;`, an encoded `/`, `\` or `%`, `%2E`, `\`, `//`, a `.` or `..` segment. */
const NOT_NORMALIZED = /;|%3b|%2f|%5c|%25|%2e|\\|\/\/|\/\.\.?(\/|$)/i;

/**
 * A strict firewall in front of the key check (Spring Security's
 * StrictHttpFirewall defaults, Jetty's ambiguous path segments): 400 with
 * or without the key to a target whose path is not normalized (dot
 * segments, `//`, `;`, `%2F`, `\`, …). Refusing lets nothing in, and only
 * hand-written clients send such a path.
 */
export const refusesUnnormalizedPaths = (request: IncomingMessage, response: ServerResponse): boolean => {
  const path = (request.url ?? '').replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '').replace(/[?#][\s\S]*$/, '');
  return NOT_NORMALIZED.test(path) && refuseBefore(response, 400, 'request_rejected', 'The request was rejected because the URL was not normalized.');
};

/** A front end without chunked support (nginx with chunked_transfer_encoding off, some gateways): 411 to a chunked body, with or without the key. */
export const refusesChunkedBodies = (request: IncomingMessage, response: ServerResponse): boolean =>
  /chunked/i.test(String(request.headers['transfer-encoding'] ?? '')) && refuseBefore(response, 411, 'length_required', 'send Content-Length');

/**
 * A front end that serves its own name only (name-based virtual hosts,
 * Django's ALLOWED_HOSTS): 421 Misdirected Request (RFC 9110 §15.5.20) to
 * a Host naming another, with or without the key, before any key check.
 * Its own name is the address it was reached on, in any case.
 */
export const refusesOtherHosts = (request: IncomingMessage, response: ServerResponse): boolean => {
  const own = `${request.socket.localAddress}:${request.socket.localPort}`;
  return (request.headers.host ?? '').toLowerCase() !== own && refuseBefore(response, 421, 'misdirected_request', `this server answers for ${own} only`);
};

/**
 * A server that switches to HTTP/2 when a request asks for h2c (RFC 9110
 * §7.8, RFC 7540 §3.2), before any key check, as Go's h2c handler does: it
 * answers 101 and speaks HTTP/2 from then on. Here it closes the
 * connection after the 101: what an HTTP/2 connection would carry is not
 * what the harness reads.
 */
export const switchesToH2c = (request: IncomingMessage): boolean => {
  if (!/\bh2c\b/i.test(request.headers.upgrade ?? '')) return false;
  request.socket.end('HTTP/1.1 101 Switching Protocols\r\nconnection: Upgrade\r\nupgrade: h2c\r\n\r\n');
  return true;
};

/**
 * A GET with `Range: bytes=0-` answered 206 with the whole representation
 * and its Content-Range, as a server that supports ranges answers (RFC 9110
 * §14.2, §15.3.7); after the key check, as the mock's own answers.
 */
export const honoursRanges = (fetch: AppFetch): AppFetch => async (request) => {
  const answer = await fetch(request);
  if (request.method !== 'GET' || !/^bytes=0-$/i.test(request.headers.get('range') ?? '') || answer.status !== 200) return answer;
  const body = new Uint8Array(await answer.arrayBuffer());
  const headers = new Headers(answer.headers);
  headers.set('content-range', `bytes 0-${body.length - 1}/${body.length}`);
  return new Response(body, { status: 206, headers });
};
