import fc from 'fast-check';

/**
 * The fields proxies and load balancers add to a request, with values a
 * client can set as well: none of them may change what is answered or who
 * is let in. RFC 7239 §8.1: 'The "Forwarded" HTTP header field cannot be
 * relied upon to be correct, as it may be modified, whether mistakenly or
 * for malicious reasons, by every node on the way to the server, including
 * the client making the request.' The X-Forwarded-* fields are its
 * unstandardized forerunners, as open to the client; Via is written by each
 * intermediary (RFC 9110 §7.6.3), and a client may send one too. The
 * client-address fields of reverse proxies and CDNs (nginx's X-Real-IP,
 * Akamai's and Cloudflare's True-Client-IP, CF-Connecting-IP, Fastly's,
 * X-Client-IP, X-Cluster-Client-IP, Client-IP) are no standard at all: the
 * same reasoning holds, a client writes them as easily as the proxy; so
 * are X-Forwarded-Prefix and X-Forwarded-Port, the path prefix and the
 * port a front end received.
 *
 * The values come from each field's grammar, the ones a server might take
 * for a trusted hop: a loopback or private address (IPv4, IPv6 in brackets
 * as RFC 7239 §6 writes it), `unknown` (§6.2), an obfuscated node (§6.3),
 * a list of hops; https, a local host. A spelling is a list of choices, one
 * per field in order: 0 leaves it out, n its n-th value. All zeros is the
 * request as the harness writes it, so a failure shrinks to the fields that
 * matter, and a new value is one more entry below.
 */
/** A JSON Web Token of no signature (RFC 7519 §6, `alg: none`) naming an admin: what an identity field's token looks like, and which no verifier accepts. */
const UNSIGNED_TOKEN = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from('{"sub":"admin","email":"admin@example.com"}').toString('base64url')}.`;

export const PROXY_FIELDS: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['forwarded', ['for=127.0.0.1', 'for="[::1]";proto=https;host=localhost', 'for=unknown, for=10.0.0.1', 'for=_gateway;by=127.0.0.1']],
  ['x-forwarded-for', ['127.0.0.1', '::1', '10.0.0.1, 127.0.0.1', 'unknown']],
  ['x-forwarded-proto', ['https', 'http']],
  ['x-forwarded-host', ['localhost', '127.0.0.1', 'internal.example']],
  ['via', ['1.1 localhost', 'HTTP/1.1 internal-proxy, 1.0 fred']],
  ['x-real-ip', ['127.0.0.1', '10.0.0.1', '::1']],
  ['true-client-ip', ['127.0.0.1', '192.168.0.1']],
  ['cf-connecting-ip', ['127.0.0.1', '::1']],
  ['fastly-client-ip', ['10.0.0.1', '127.0.0.1']],
  ['x-client-ip', ['127.0.0.1', '172.16.0.1']],
  ['x-cluster-client-ip', ['10.0.0.1', '127.0.0.1']],
  ['client-ip', ['127.0.0.1', '10.0.0.1']],
  // The path prefix a front end stripped (Traefik StripPrefix, Spring Cloud Gateway, ingress-nginx, Kong): a server may build links with it, never decide who is let in by it.
  ['x-forwarded-prefix', ['/api', '/internal']],
  // The port the client reached the load balancer on (AWS ELB, HAProxy): the default https port, or a management port.
  ['x-forwarded-port', ['443', '8081']],
  // An authenticating gateway's word on who the caller is (Kong's consumer fields, oauth2-proxy's, Azure App Service's,
  // Google's ESP): a backend that reads one as "the gateway checked the key" lets in whoever writes it.
  ['x-consumer-username', ['admin', 'anonymous']],
  ['x-consumer-id', ['1', '00000000-0000-0000-0000-000000000000']],
  ['x-credential-identifier', ['admin']],
  ['x-auth-request-user', ['admin']],
  ['x-forwarded-user', ['admin', 'admin@example.com']],
  ['x-remote-user', ['admin']],
  ['x-ms-client-principal-name', ['admin@example.com']],
  ['x-endpoint-api-userinfo', [Buffer.from('{"sub":"admin"}').toString('base64url')]],
  // Identity-aware edges' fields (Cloudflare Access, AWS ALB's OIDC, Google's IAP): the caller they signed in, and their
  // token, which a backend must verify; one that takes the field's presence for a signed-in caller lets in whoever writes it.
  ['cf-access-authenticated-user-email', ['admin@example.com']],
  ['cf-access-jwt-assertion', [UNSIGNED_TOKEN]],
  ['x-amzn-oidc-identity', ['admin']],
  ['x-amzn-oidc-data', [UNSIGNED_TOKEN]],
  ['x-goog-authenticated-user-email', ['accounts.google.com:admin@example.com']],
  // Envoy marks a request from an internal address (a loopback client's, such as the harness's) as internal; a service
  // mesh that skips the key for "internal" traffic lets in any client that writes it where the edge does not remove it.
  ['x-envoy-internal', ['true']],
  // A TLS terminator's word on the client's certificate (nginx's $ssl_client_verify passed on, Envoy's XFCC, AWS ALB's
  // and Azure's mTLS fields): over plain HTTP from a client, no certificate was checked at all.
  ['x-ssl-client-verify', ['SUCCESS']],
  ['x-client-verify', ['SUCCESS']],
  ['x-forwarded-client-cert', ['By=spiffe://internal/api;Hash=0000;Subject="CN=admin";URI=spiffe://internal/admin']],
  ['x-amzn-mtls-clientcert', ['-----BEGIN%20CERTIFICATE-----%0AMIIB-----END%20CERTIFICATE-----%0A']],
  ['x-arr-clientcert', ['MIIB']],
];

/**
 * Fields that name another request than the request line's: the URL before
 * a front end rewrote it, or the one a gateway asks an authorization
 * service about, and the method a client behind a proxy that blocks
 * methods asks for (X-HTTP-Method-Override: Google APIs, ASP.NET, Rails;
 * X-HTTP-Method; X-Method-Override). The interface names none of them: a
 * server may ignore them or refuse them, but a request carrying one
 * without the key is still a request without the key (the Authentication
 * section: "The requirement applies to every operation"), and a backend
 * that takes "the gateway's field is here" for "the gateway checked the
 * key" lets any client in. Each rewrite field holds a whole path, sent
 * with the base's path before it, as a front end writes it. A new one is
 * one more entry.
 */
export const REWRITE_FIELDS = [
  // IIS ARR and URL Rewrite, read by Symfony and Zend.
  'x-original-url',
  'x-rewrite-url',
  // Envoy, when a route rewrites the path.
  'x-envoy-original-path',
  // Traefik's ForwardAuth, to the authorization service.
  'x-forwarded-uri',
  // nginx's auth_request, by the convention of its documentation (proxy_set_header X-Original-URI $request_uri).
  'x-original-uri',
  // Kong, the path the client asked for before a route stripped it.
  'x-forwarded-path',
] as const;

/**
 * Where a client writes the method it asks for: a field, or a query
 * parameter, as the HTML forms of Rails, Laravel and Symfony do (`_method`;
 * express's method-override with a query getter reads it too). A query
 * parameter the interface does not name is no more the key's business than
 * a field: a request carrying either without the key is without the key. A
 * new place is one more entry.
 */
export type MethodOverride = { field: string } | { query: string };
export const METHOD_OVERRIDES: readonly MethodOverride[] = [{ field: 'x-http-method-override' }, { field: 'x-http-method' }, { field: 'x-method-override' }, { query: '_method' }];

/** A request to `path` naming `method` by `override`: its path (the query parameter added) and its fields. */
export function overrideMethod(override: MethodOverride, method: string, path: string): { path: string; headers: Record<string, string>; label: string } {
  if ('field' in override) return { path, headers: { [override.field]: method }, label: `${override.field}: ${method}` };
  const pair = `${override.query}=${method}`;
  return { path: `${path}${path.includes('?') ? '&' : '?'}${pair}`, headers: {}, label: `?${pair}` };
}

export type ProxySpelling = readonly number[];

const MOST = Math.max(...PROXY_FIELDS.map(([, values]) => values.length));

/** A spelling drawn, shrinking toward fewer fields. */
export const proxySpellingArbitrary = (): fc.Arbitrary<ProxySpelling> => fc.array(fc.nat({ max: MOST }), { maxLength: PROXY_FIELDS.length });

/** The cases tried on every run: the k-th gives field j its value (j + k) modulo its count, so every value is sent within a few cases. */
export const everyProxySpelling = (count: number): ProxySpelling[] =>
  Array.from({ length: count }, (_, k) => PROXY_FIELDS.map(([, values], j) => ((j + k) % values.length) + 1));

/** The fields a spelling adds, by name. */
export function proxyFields(spelling: ProxySpelling | undefined): Record<string, string> {
  const fields: Record<string, string> = {};
  PROXY_FIELDS.forEach(([name, values], j) => {
    const choice = (spelling ?? [])[j] ?? 0;
    if (choice !== 0) fields[name] = values[(choice - 1) % values.length] as string;
  });
  return fields;
}
