import type { Defect } from './defect.js';
import { AUTH, letsInWhen, type Wire } from './variation-key-defects.js';

/**
 * Servers that take a field a front end writes, or one a client writes to
 * reach a server by another name or protocol, for a sign that the key was
 * checked or is not needed: Host, the gateway's rewrite fields,
 * X-Forwarded-Prefix and X-Forwarded-Port, Upgrade, Connection, a
 * preflight's field, a health checker's User-Agent, a gateway's identity
 * and a TLS terminator's certificate fields. Any client writes
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

/** The options a client listed in Connection (RFC 9110 §7.6.1), lower-cased. */
const connectionOptions = (wire: Wire): string[] =>
  field(wire, 'connection')
    .split(',')
    .map((option) => option.trim().toLowerCase())
    .filter((option) => option !== '');

/** Authenticating gateways' identity fields: Kong's, oauth2-proxy's. */
const IDENTITY_FIELDS = ['x-consumer-username', 'x-auth-request-user', 'x-forwarded-user', 'cf-access-authenticated-user-email', 'x-amzn-oidc-identity'];

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
  {
    // A proxy that adds X-Forwarded-For, then removes the fields the client named in Connection (Apache's mod_proxy before
    // CVE-2022-31813); the backend asks no key of a request without it, taken for the proxy's own (health checks, jobs).
    name: 'Connection naming X-Forwarded-For: the proxy drops the field it added, and the backend takes the request for the proxy\'s own, the key skipped',
    breaks: `${AUTH} RFC 9110 §7.6.1: a connection option concerns the next hop only; once removed, the origin sees the same request.`,
    wrap: letsInWhen((_, wire) => connectionOptions(wire).includes('x-forwarded-for')),
    caughtBy: EVERY,
  },
  {
    // A "preflight" told by its field alone, not by OPTIONS: the router serves the request line's method.
    name: 'Access-Control-Request-Method on a GET or POST taken for a CORS preflight, the key skipped',
    breaks: `${AUTH} RFC 9110 §5.1: a field the interface does not name changes nothing; the Fetch standard gives it a meaning on OPTIONS only.`,
    wrap: letsInWhen((request, wire) => request.method !== 'OPTIONS' && wire.headers['access-control-request-method'] !== undefined),
    caughtBy: EVERY,
  },
  {
    name: 'a health checker\'s User-Agent (kube-probe, ELB-HealthChecker, GoogleHC) let in without the key on every path',
    breaks: `${AUTH} RFC 9110 §10.1.5: User-Agent describes the client, and any client writes it.`,
    wrap: letsInWhen((_, wire) => /^(kube-probe|ELB-HealthChecker|GoogleHC)\//i.test(field(wire, 'user-agent'))),
    caughtBy: EVERY,
  },
  ...IDENTITY_FIELDS.map(
    (name): Defect => ({
      // The backend trusts its gateway's consumer field: present and not empty is an authenticated caller.
      name: `${name} (an authenticating gateway's identity field) taken for a checked key`,
      breaks: CLIENT_SET,
      wrap: letsInWhen((_, wire) => field(wire, name).trim() !== ''),
      caughtBy: EVERY,
    }),
  ),
  {
    // A verified client certificate, as a TLS terminator reports it in a field, taken as a credential.
    name: 'X-SSL-Client-Verify: SUCCESS or X-Forwarded-Client-Cert (a TLS terminator\'s certificate fields) accepted in place of the key',
    breaks: `${AUTH} The key is sent in the Authorization header; a field naming a certificate is the client's to write.`,
    wrap: letsInWhen((_, wire) => field(wire, 'x-ssl-client-verify').trim().toUpperCase() === 'SUCCESS' || field(wire, 'x-forwarded-client-cert').trim() !== ''),
    caughtBy: EVERY,
  },
  {
    // An identity-aware edge's token taken as present rather than verified (its signature never checked).
    name: 'Cf-Access-Jwt-Assertion (an identity-aware edge\'s token) taken for a checked key, unverified',
    breaks: CLIENT_SET,
    wrap: letsInWhen((_, wire) => field(wire, 'cf-access-jwt-assertion').trim() !== ''),
    caughtBy: EVERY,
  },
  {
    // A mesh that skips the key for traffic Envoy marked internal, behind an edge that does not remove the field.
    name: 'X-Envoy-Internal: true (a mesh-internal request) let in without the key',
    breaks: CLIENT_SET,
    wrap: letsInWhen((_, wire) => field(wire, 'x-envoy-internal').trim().toLowerCase() === 'true'),
    caughtBy: EVERY,
  },
];
