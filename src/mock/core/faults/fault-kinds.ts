import type { FaultKind } from './fault-kind.js';
import type { OutageStatus } from './outage-statuses.js';

/** The statuses a status fault may send (outage statuses: outage-statuses.ts), in the order the schema's messages list them. */
export const FAULT_STATUSES = [500, 503, 429] as const satisfies readonly OutageStatus[];
export type FaultStatus = (typeof FAULT_STATUSES)[number];

const status: FaultKind<'status', { status: FaultStatus; retryAfterSeconds?: number }> = {
  name: 'status',
  schema: {
    form: 'mapping',
    properties: { status: { enum: FAULT_STATUSES }, retryAfterSeconds: { type: 'integer', minimum: 0 } },
    dependencies: { retryAfterSeconds: ['status'] },
  },
  guideRow: {
    written: '`then: {status: 500\\|503\\|429, retryAfterSeconds: N}`',
    gets: 'That status with an Error body (`internal_error`, `service_unavailable`, `too_many_requests`; the message says it is simulated and names the scenario and stub), and `Retry-After: N` (delay-seconds, RFC 9110 §10.2.3) when N is given.',
  },
};

/** A kind written as its bare name (`then: reset`), and what the client gets. */
const word = <const Name extends string>(name: Name, gets: string): FaultKind<Name, Name> => ({ name, schema: { form: 'word' }, guideRow: { written: `\`then: ${name}\``, gets } });

const reset = word('reset', 'The TCP connection is reset (RST): the client sees `ECONNRESET`, no response.');

const close = word(
  'close',
  "The connection is closed (FIN) before any answer, as a server or proxy closes a keep-alive connection it deems idle just as the request arrives: no response, and the client sees the connection end cleanly rather than reset (node: `socket hang up`; Apache HttpClient: `NoHttpResponseException`; Python: `RemoteDisconnected`). The request is not served (`createPet` stores nothing).",
);

const hang = word('hang', 'No answer: the connection stays open until the client gives up or the mock stops.');

const malformedJson = word(
  'malformed-json',
  'The normal answer (status and headers kept: 200, or 201 for `createPet`, which still stores the animal) with its JSON body cut off half way.',
);

const emptyBody = word(
  'empty-body',
  "The normal answer's status and headers (200, or 201 for `createPet`, which still stores the animal) with no body at all (`Content-Length: 0`), as a misconfigured CDN or proxy sends it: a client meets a JSON parse error on a success.",
);

const wrongContentType = word(
  'wrong-content-type',
  "The normal answer (200, or 201 for `createPet`, which still stores the animal; an error keeps its Error body), status, headers and body kept, labelled `Content-Type: text/plain`, as a server or proxy that sets the media type by the file name or its default sends it: a client that reads the body by its media type does not take it for JSON, one that parses it anyway does.",
);

const gatewayPage = word(
  'gateway-page',
  "A 502 Bad Gateway with a load balancer's HTML page (`Content-Type: text/html`) in place of the Error body, as a gateway in front of a service that is down sends it; the page says it is simulated and names the scenario and stub. The request is not served (`createPet` stores nothing).",
);

const fallbackPage = word(
  'fallback-page',
  "A 200 with a web app's HTML page (`Content-Type: text/html; charset=utf-8`) in place of the JSON answer, as a web server or CDN whose catch-all route serves `index.html` for every path sends it: a client that checks only the status meets a JSON parse error on a success. The page says it is simulated and names the scenario and stub. The request is not served (`createPet` stores nothing).",
);

const truncatedBody = word(
  'truncated-body',
  "The normal answer's status and headers, its whole `Content-Length` promised (200, or 201 for `createPet`, which still stores the animal), then the first half of its body and the connection closed: the client's read of the body fails part way, as when the server or a proxy in front of it dies mid-answer.",
);

const trickle: FaultKind<'trickle', { trickle: { chunkBytes: number; intervalMs: number } }> = {
  name: 'trickle',
  schema: {
    form: 'mapping',
    properties: {
      trickle: {
        type: 'object',
        additionalProperties: false,
        required: ['chunkBytes', 'intervalMs'],
        properties: { chunkBytes: { type: 'integer', minimum: 1 }, intervalMs: { $ref: '#/definitions/milliseconds' } },
      },
    },
  },
  guideRow: {
    written: '`then: {trickle: {chunkBytes: B, intervalMs: T}}`',
    gets: 'The normal answer, its body sent B bytes at a time, T ms apart (with its full `Content-Length`).',
  },
};

const pass: FaultKind<'pass', 'pass'> = {
  name: 'pass',
  schema: { form: 'word' },
  guideRow: { written: 'latency alone, or `then: pass`', gets: 'The normal answer (after the latency).' },
};

/**
 * Every kind of fault a stub's `then` can name, one entry each. The order
 * is the schema's (scenarios/scenario.schema.json, written from this list
 * by `npm run scenario-schema`), so its messages list the words and the
 * mappings' keys in this order.
 */
export const FAULT_KINDS = [status, reset, close, hang, malformedJson, emptyBody, wrongContentType, gatewayPage, fallbackPage, truncatedBody, trickle, pass] as const;

type AnyFaultKind = (typeof FAULT_KINDS)[number];
export type FaultKindName = AnyFaultKind['name'];

/** Each kind's `then` value, by name. */
export type FaultOptions = { [Name in FaultKindName]: Extract<AnyFaultKind, { name: Name }> extends FaultKind<Name, infer Written> ? Written : never };

/** What a stub's `then` may hold. */
export type FaultThen = FaultOptions[FaultKindName];
