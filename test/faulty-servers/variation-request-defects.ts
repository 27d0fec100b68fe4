import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Defect, ServerFetch } from './defect.js';
import { FAULTY_SERVER_KEY } from './defect.js';
import { hasKey, withKey } from './http.js';
import { AUTH, letsInWhen } from './variation-key-defects.js';

/**
 * Servers whose key check reads the request's method, HTTP version or
 * connection otherwise than the router under it: a method override, HEAD,
 * HTTP/1.0, Expect: 100-continue, a connection that once carried the key.
 * Every request as the harness always writes it, with or without the key,
 * gets the mock's own answer.
 */

const EVERY = ['vary-list-pets', 'vary-create-pet', 'vary-get-pet'];
const OVERRIDE = 'x-http-method-override';

/** Marks node's request with the way it came in, for the wrapper to read. */
interface Marked {
  viaContinue?: boolean;
}

/**
 * OPTIONS exempt from the key (CORS preflights carry none), and a router
 * that reads the method from where `override` says (taking it out of the
 * URL or fields it is given): the request is served as that method.
 */
const preflightRoutedBy =
  (override: (url: URL, headers: Headers) => string | null) =>
  (fetch: ServerFetch): ServerFetch =>
  async (request, env) => {
    const url = new URL(request.url);
    const headers = new Headers(request.headers);
    const method = request.method === 'OPTIONS' ? override(url, headers)?.toUpperCase() : undefined;
    if (method === undefined) return fetch(request, env);
    headers.set('authorization', `Bearer ${FAULTY_SERVER_KEY}`);
    const body = method === 'GET' || method === 'HEAD' ? undefined : await request.text();
    return fetch(new Request(url, { method, headers, body }), env);
  };

export const variationRequestDefects: Defect[] = [
  {
    // OPTIONS is exempt from the key (CORS preflights carry none), and the router honours the override.
    name: 'OPTIONS with X-HTTP-Method-Override served as the overridden method without the key (a POST stores an animal)',
    breaks: `${AUTH} A refused request changes nothing.`,
    wrap: preflightRoutedBy((url, headers) => {
      const method = headers.get(OVERRIDE);
      headers.delete(OVERRIDE);
      return method;
    }),
    caughtBy: ['vary-method-override-create-pet'],
  },
  {
    // The same preflight exemption; the router reads the method from a _method query parameter (Rails, Laravel, Symfony forms; express method-override with a query getter).
    name: 'OPTIONS with ?_method=POST served as the method it names without the key (an animal stored)',
    breaks: `${AUTH} A refused request changes nothing.`,
    wrap: preflightRoutedBy((url) => {
      const method = url.searchParams.get('_method');
      url.searchParams.delete('_method');
      return method;
    }),
    caughtBy: ['vary-method-override-create-pet'],
  },
  {
    // The key check lists the methods it guards (GET, POST): HEAD, served as GET, tells which animals exist.
    name: 'HEAD let in without the key (getPet 200 or 404 tells which animals exist)',
    breaks: `${AUTH} RFC 9110 §9.3.2: HEAD is GET without content.`,
    wrap: letsInWhen((request) => request.method === 'HEAD'),
    caughtBy: ['method-head-list-pets', 'method-head-get-pet'],
  },
  {
    // HTTP/1.0 taken for the load balancer's health check.
    name: 'an HTTP/1.0 request let in without the key (taken for a health check)',
    breaks: AUTH,
    wrap: letsInWhen((_, wire) => wire.httpVersion === '1.0'),
    caughtBy: EVERY,
  },
  {
    // node's checkContinue listener hands the request to the handler past the key middleware.
    name: 'createPet with Expect: 100-continue dispatched past the key check and stored',
    breaks: `${AUTH} RFC 9110 §10.1.1: 100-continue is about the transfer, not the request.`,
    server: (server) => {
      const listener = server.listeners('request')[0] as (incoming: IncomingMessage, outgoing: ServerResponse) => void;
      server.on('checkContinue', (incoming: IncomingMessage, outgoing: ServerResponse) => {
        outgoing.writeContinue();
        (incoming as IncomingMessage & Marked).viaContinue = true;
        listener(incoming, outgoing);
      });
    },
    wrap: letsInWhen((_, wire) => (wire as typeof wire & Marked).viaContinue === true),
    caughtBy: ['vary-create-pet'],
  },
  {
    // The key check cached per connection (NTLM style): once a socket carried the key, later requests on it need none.
    name: 'a kept-alive connection that once carried the key lets later requests on it in without the key',
    breaks: `${AUTH} RFC 9112 §9.3: each request on a persistent connection stands alone.`,
    wrap: (fetch) => {
      const authenticated = new WeakSet<Socket>();
      return async (request, env) => {
        const socket = env.incoming.socket;
        if (hasKey(request)) authenticated.add(socket);
        else if (!request.headers.has('authorization') && authenticated.has(socket)) return fetch(await withKey(request), env);
        return fetch(request, env);
      };
    },
    caughtBy: ['auth-key-per-request'],
  },
];
