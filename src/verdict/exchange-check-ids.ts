/**
 * The checks every exchange gets (exchange-checks.ts, invariants.ts), each
 * with a stable id and the statement of the interface it protects. One
 * list, read by the harness (a finding names its check) and by the mock's
 * proxy mode (a violation names the same id and statement), so a fault
 * reads the same whichever of them saw it.
 */
export const EXCHANGE_CHECKS = {
  'exchange-connection': { section: 'What the service does', text: 'Every request gets an HTTP response.' },
  'exchange-body-read': { section: 'What the service does', text: 'Every response body can be read to its end.' },
  'exchange-no-5xx': { section: 'Errors', text: 'The interface lists no 5xx status for any operation.' },
  'exchange-documented-status': { section: 'Endpoints', text: 'Each operation answers a success status it documents (the contract document).' },
  'exchange-response-schema': { section: 'Endpoints', text: 'A documented response matches the contract document: content type, body schema and headers.' },
  'exchange-media-type': { section: 'What the service does', text: 'requests and responses use the media type application/json' },
  'exchange-json-charset': {
    section: 'What the service does',
    text: 'requests and responses use the media type application/json (RFC 8259 §8.1: JSON text exchanged between systems is UTF-8; §11 defines no charset parameter, so one other than utf-8 labels the body as something else)',
  },
  'exchange-content-type-once': {
    section: 'What the service does',
    text: 'requests and responses use the media type application/json (RFC 9110 §8.3: Content-Type is a singleton field, one media type in one field line (§5.3); a recipient of two cannot tell which applies)',
  },
  'exchange-json-bom': {
    section: 'What the service does',
    text: 'requests and responses use the media type application/json (RFC 8259 §8.1: implementations MUST NOT add a byte order mark (U+FEFF) to the beginning of a networked-transmitted JSON text)',
  },
  'exchange-http-date': {
    section: 'What the service does',
    text: 'The service is an HTTP/JSON service (RFC 9110 §5.6.7: a sender MUST generate the timestamps of a field defined as HTTP-date in the IMF-fixdate format, as in Sun, 06 Nov 1994 08:49:37 GMT: Date §6.6.1, Last-Modified §8.8.2, Retry-After §10.2.3, Expires RFC 9111 §5.3)',
  },
  'exchange-etag': {
    section: 'What the service does',
    text: 'The service is an HTTP/JSON service (RFC 9110 §8.8.3: ETag = entity-tag = [ W/ ] DQUOTE *etagc DQUOTE, one entity-tag; §2.2: a sender MUST NOT generate protocol elements that do not match the grammar defined by the corresponding ABNF rules)',
  },
  'exchange-cache-control': {
    section: 'Authentication',
    text: "The requirement applies to every operation described above. When the key is missing or invalid, the service answers 401 with an Error body. (RFC 9111 §3.5: a shared cache MUST NOT reuse an answer to a request with Authorization for any other request unless the answer's Cache-Control allows it, as public, s-maxage and must-revalidate while fresh do: an answer to a key so marked, without Vary: Authorization, reaches clients without the key)",
  },
  'exchange-error-body': {
    section: 'Errors',
    text: 'every error response has the Error body: code (string), message (string), status (integer, equal to the HTTP status code)',
  },
  'exchange-deprecation-signal': {
    section: 'Get an animal (deprecated), Versioning',
    text: 'getPet is deprecated and is to be removed on 5 December 2030; the replacement is GET /pets with the status filter. No other operation is deprecated.',
  },
  'invariant-page-size': { section: 'Limits', text: '`limit` is the maximum number of animals returned, minimum 1, maximum 100, default 20' },
  'invariant-status-filter': { section: 'Endpoints > List animals', text: '`status` returns only animals with this availability status' },
  'invariant-get-pet-id': { section: 'Endpoints > Get an animal', text: 'petId is the identifier of the animal to retrieve; 200, Pet' },
} as const satisfies Record<string, { section: string; text: string }>;

export type ExchangeCheckId = keyof typeof EXCHANGE_CHECKS;

/** A check's statement as findings cite it: `Section: text`. */
export const checkStatement = (id: ExchangeCheckId): string => `${EXCHANGE_CHECKS[id].section}: ${EXCHANGE_CHECKS[id].text}`;
