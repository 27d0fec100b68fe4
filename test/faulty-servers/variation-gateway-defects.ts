import type { Defect } from './defect.js';
import { AUTH, letsInWhen, type Wire } from './variation-key-defects.js';

/**
 * Servers that take a field a front end writes, or one a client writes to
 * reach a server by another name or protocol, for a sign that the key was
 * checked or is not needed: Host, the gateway's rewrite fields,
 * X-Forwarded-Prefix and X-Forwarded-Port, Upgrade. Any client writes
 * each of them. Every request as the harness always writes it, with or
 * without the key, gets the mock's own answer, so only the field sent
 * without the key shows them.
 */

const EVERY = ['vary-list-pets', 'vary-create-pet', 'vary-get-pet'];
const CLIENT_SET = `${AUTH} RFC 7239 §8.1: forwarding fields may be set by the client itself.`;

const field = (wire: Wire, name: string): string => {
  const value = wire.headers[name];
  return Array.isArray(value) ? value.join(', ') : (value ?? '');
};

/** Host's name as a vhost table compares it: lower-cased, the port and a trailing dot dropped. */
const hostName = (wire: Wire): string =>
  field(wire, 'host')
    .replace(/:\d*$/, '')
    .toLowerCase()
    .replace(/\.$/, '');

/** The path as a router reads it, percent-decoded where it decodes. */
const decodedPath = (wire: Wire): string => {
  const path = (wire.url ?? '').replace(/^[a-z]+:\/\/[^/]*/i, '').replace(/[?#].*$/s, '');
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
};

/** Gateways' fields naming the path the client asked for, each read by some backend as "the gateway passed this one". */
const GATEWAY_FIELDS: ReadonlyArray<readonly [string, string]> = [
  ['x-envoy-original-path', 'Envoy, on a rewrite'],
  ['x-forwarded-uri', "Traefik's ForwardAuth"],
  ['x-original-uri', "nginx's auth_request"],
  ['x-forwarded-path', 'Kong'],
];

export const variationGatewayDefects: Defect[] = [
  {
    // An "internal virtual host": a browser at http://localhost:PORT/ writes that Host, and so does anyone.
    name: 'Host localhost (any case, with a port or a trailing dot) taken for a local caller, the key skipped',
    breaks: `${AUTH} Host is the client's to write (RFC 9110 §7.2): a request without the key is one whatever its Host.`,
    wrap: letsInWhen((_, wire) => hostName(wire) === 'localhost'),
    caughtBy: EVERY,
  },
  ...GATEWAY_FIELDS.map(
    ([name, writer]): Defect => ({
      // The backend trusts that only its gateway writes the field: the gateway has checked the key.
      name: `a request carrying ${name} (${writer}) taken as checked by the gateway, the key skipped`,
      breaks: `${AUTH} A field the interface does not name is the client's to write as well (RFC 9110 §5.1).`,
      wrap: letsInWhen((_, wire) => wire.headers[name] !== undefined),
      caughtBy: ['vary-rewrite-fields'],
    }),
  ),
  {
    // The key check matches prefix + path against the guarded routes; anything else is public (docs, health), while the router reads the path alone.
    name: 'the key required only where X-Forwarded-Prefix and the path start with /v1/pets, so a prefix of /api needs none',
    breaks: CLIENT_SET,
    wrap: letsInWhen((_, wire) => {
      const prefix = field(wire, 'x-forwarded-prefix').split(',')[0]?.trim() ?? '';
      return prefix !== '' && !`${prefix.replace(/\/+$/, '')}${decodedPath(wire)}`.startsWith('/v1/pets');
    }),
    caughtBy: EVERY,
  },
  {
    // "The management port needs no key", decided on the port the load balancer says it was reached on.
    name: 'X-Forwarded-Port 8081 taken for the management port, the key skipped',
    breaks: CLIENT_SET,
    wrap: letsInWhen((_, wire) => field(wire, 'x-forwarded-port').trim() === '8081'),
    caughtBy: EVERY,
  },
  {
    // The key middleware returns early for an upgrade (the upgrade handler's to check); node, with no upgrade listener, serves the request as it is.
    name: 'a request carrying Upgrade (h2c as curl --http2 writes it, or websocket) left to the upgrade handler, the key skipped',
    breaks: `${AUTH} RFC 9110 §7.8: a server may ignore Upgrade; the request is then the same request.`,
    wrap: letsInWhen((_, wire) => wire.headers.upgrade !== undefined),
    caughtBy: EVERY,
  },
  {
    // WebSocket authentication said to happen on the socket: only that upgrade token skips the middleware.
    name: 'a request carrying Upgrade: websocket left to the WebSocket handler, the key skipped',
    breaks: `${AUTH} RFC 6455 §4.1: a handshake is a GET; any other request, or one the server does not switch, is answered as it is.`,
    wrap: letsInWhen((_, wire) => /websocket/i.test(field(wire, 'upgrade'))),
    caughtBy: EVERY,
  },
];
