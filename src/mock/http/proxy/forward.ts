import { FALLBACK_HEADER } from './fallback-header.js';
import { request as httpRequest, type Agent, type ClientRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { errorBody } from '../../core/errors.js';
import { addResponseHeaders, type Exchange, type Next } from '../exchange.js';
import { nodeBindings } from '../node-bindings.js';
import { sendError } from '../respond.js';
import { alreadySent } from '../already-sent.js';
import { bodyCopy, type BodyCopy } from './body-copy.js';
import { endToEnd, headerRecord } from './hop-by-hop.js';
import { withOwnCors } from './own-cors.js';
import type { Upstream } from './proxy-outcome.js';
import { traceBody, traceProxy, traceSent } from '../exchange-trace.js';

export interface ForwardOptions {
  /** The target's base, ending in its version segment (`http://staging…/v1`). */
  target: URL;
  /** The mock's own base path (`/v1`), replaced by the target's. */
  basePath: string;
  /** The pool of connections to the target (proxy-agent.ts). */
  agent: Agent;
  /** How long the target may take to send its answer's head. */
  timeoutMs: number;
  /** `--upstream-key`: sent to the target as `Authorization: Bearer KEY` in place of the client's. */
  upstreamKey: string | undefined;
  /** Bytes of an answer's body copied for the check. */
  checkCap: number;
  /** What takes every key out of what the journal keeps of one exchange's answer (a target may echo the key it got). */
  redactor(x: Exchange): (text: string, cut?: boolean) => string;
  /** `--proxy-fallback mock`: the mock's own answer when the target cannot be reached or is too slow. */
  fallback: 'mock' | undefined;
  /** Told of every answer the target sent, once the client has all of it (or the target dropped it). */
  onAnswered(x: Exchange, answer: TargetAnswer): void;
}

/** An answer as the target sent it: what the checks read. */
export interface TargetAnswer {
  upstream: Extract<Upstream, 'answered' | 'dropped'>;
  status: number;
  /** Lower-cased names, repeats joined; hop-by-hop fields left out. */
  headers: Record<string, string>;
  body: BodyCopy;
}

const DROPPED_AUTHORIZATION = new Set(['host', 'authorization']);
const DROPPED = new Set(['host']);


/**
 * The last step of a request in proxy mode: sends it on to the target and
 * streams the answer back, both ways piped (node:http), so no body is ever
 * held whole. The request goes as sent (method, path below the base, query,
 * body, end-to-end fields in their order and case) with `Host` for the
 * target; the answer comes back as sent (status, reason phrase, end-to-end
 * fields, body), with no field added and none followed (a redirect is the
 * client's to follow), but for the mock's own CORS on a browser's request
 * (own-cors.ts). The Answer resolves once the exchange has ended, so
 * the journal records how it ended; the client got every byte before.
 * With `--proxy-fallback mock`, `mock` answers when the target cannot be
 * reached or is too slow, for a request whose body it still has (bodyStreamed).
 */
export function forward(options: ForwardOptions): (mock: Next) => Next {
  const open = requestOpener(options);
  return (mock) => (x) => {
    const node = nodeBindings(x.c);
    if (!node) return sendError(x, errorBody('internal_error', 'Proxy mode needs the mock to run on a node server.'));
    const { incoming, outgoing } = node;
    // Decided before sending: once sent, x.trace.body holds only the start of a streamed body (for the journal).
    const streamed = bodyStreamed(x, incoming);
    return new Promise<Response>((resolve, reject) => {
      let settled = false;
      const settle = (answer: Response): void => {
        if (settled) return;
        settled = true;
        resolve(answer);
      };
      const fail = (upstream: 'unavailable' | 'timeout', message: string): void => {
        if (settled || outgoing.headersSent) return;
        traceProxy(x, { upstream, violations: [] });
        const code = upstream === 'timeout' ? 'upstream_timeout' : 'upstream_unavailable';
        if (options.fallback === 'mock' && !streamed) {
          settled = true;
          answerItself(x, mock, code).then(resolve, reject);
          return;
        }
        settle(sendError(x, errorBody(code, message)));
      };
      const out = open(incoming);
      // The head, not the whole answer: a long body streams for as long as it takes.
      const timer = setTimeout(() => {
        fail('timeout', `the target sent no answer within ${options.timeoutMs} ms (--proxy-timeout)`);
        out.destroy();
      }, options.timeoutMs);
      out.on('error', (error: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        // Never the URL's credentials or the key: only the target's origin and node's code.
        fail('unavailable', `the target ${options.target.origin} cannot be reached (${error.code ?? 'connection failed'})`);
      });
      // Upgrade is hop-by-hop and never sent on (RFC 9110 §7.8): a 101 answers a request that asked for none.
      out.on('upgrade', (_answer, socket) => {
        clearTimeout(timer);
        socket.destroy();
        fail('unavailable', `the target ${options.target.origin} switched protocols (101) for a request that asked for none`);
      });
      out.on('response', (answer) => {
        clearTimeout(timer);
        if (settled) {
          answer.destroy();
          return;
        }
        pipeBack(x, answer, options, settle);
      });
      // The client gone before the end: nothing is waited for any more.
      outgoing.on('close', () => {
        clearTimeout(timer);
        if (outgoing.writableFinished) return;
        out.destroy();
        // Gone before the target's head: nginx's 499, "client closed request", as the mock's own hangs log it (respond.ts).
        if (!outgoing.headersSent) settle(alreadySent(499));
      });
      if (x.trace.body !== undefined) out.end(x.trace.body);
      else if (bodyless(incoming)) out.end();
      else sendBody(x, out);
    });
  };
}

/** The request to the target for a client's: its method, its path below the base, its end-to-end fields, Host and the key. */
function requestOpener(options: ForwardOptions): (incoming: IncomingMessage) => ClientRequest {
  const send = options.target.protocol === 'https:' ? httpsRequest : httpRequest;
  const targetBase = options.target.pathname.replace(/\/$/, '');
  const { host, protocol, hostname, port } = options.target;
  const dropped = options.upstreamKey === undefined ? DROPPED : DROPPED_AUTHORIZATION;
  return (incoming) => {
    const raw = incoming.url ?? '/';
    const below = raw.startsWith(options.basePath) ? raw.slice(options.basePath.length) : raw;
    const headers = endToEnd(incoming.rawHeaders, dropped);
    headers.push('Host', host);
    if (options.upstreamKey !== undefined) headers.push('Authorization', `Bearer ${options.upstreamKey}`);
    // setHost: false, as the fields carry the target's Host already (node would add a second).
    return send({ protocol, hostname, port, method: incoming.method, path: targetBase + below, headers, setHost: false, agent: options.agent });
  };
}

/** The mock's own answer in place of the target's failure, marked: it is the mock's, so the rule that no field is added (about the target's answers) does not hold it. */
function answerItself(x: Exchange, mock: Next, code: 'upstream_timeout' | 'upstream_unavailable'): Promise<Response> {
  if (x.trace.proxy) traceProxy(x, { ...x.trace.proxy, fallback: 'mock' });
  addResponseHeaders(x, { [FALLBACK_HEADER]: code });
  return Promise.resolve(x).then(mock);
}

/**
 * A request with no body (RFC 9112 §6.3: neither Transfer-Encoding nor a
 * Content-Length above 0) goes out without reading the client's stream, so
 * a fallback answer can still read it as the mock does.
 */
const bodyless = (incoming: IncomingMessage): boolean =>
  incoming.headers['transfer-encoding'] === undefined && (incoming.headers['content-length'] ?? '0') === '0';

/**
 * Whether the request's body went toward the target as it came, so the
 * mock no longer has it: a body is never held whole for a fallback's sake.
 * A body a stub read whole before (x.trace.body) is still there.
 */
const bodyStreamed = (x: Exchange, incoming: IncomingMessage): boolean => x.trace.body === undefined && !bodyless(incoming);

/** Bytes of a forwarded request body kept for the journal and the curl line of a violation. */
export const REQUEST_BODY_KEPT = 4096;

/** The client's body piped to the target as it comes; its start kept on the exchange once it has all gone. */
function sendBody(x: Exchange, out: ClientRequest): void {
  const { incoming } = nodeBindings(x.c) as NonNullable<ReturnType<typeof nodeBindings>>;
  const start = bodyCopy(REQUEST_BODY_KEPT);
  incoming.on('data', (chunk: Buffer) => start.add(chunk));
  incoming.on('end', () => {
    traceBody(x, start.start(REQUEST_BODY_KEPT));
  });
  incoming.pipe(out);
}

/** The target's answer, piped to the client as it comes; its end (or its drop) told to the checks. */
function pipeBack(x: Exchange, answer: IncomingMessage, options: ForwardOptions, settle: (answer: Response) => void): void {
  const { outgoing, incoming } = nodeBindings(x.c) as NonNullable<ReturnType<typeof nodeBindings>>;
  const status = answer.statusCode ?? 502;
  const kept = endToEnd(answer.rawHeaders);
  const sent = withOwnCors(kept, x.headers, incoming.headers.origin);
  // No other field added: node would add Date of its own (RFC 9110 §6.6.1 leaves it to the origin).
  outgoing.sendDate = false;
  outgoing.writeHead(status, answer.statusMessage, sent);
  const copy = bodyCopy(options.checkCap);
  answer.on('data', (chunk: Buffer) => copy.add(chunk));
  answer.pipe(outgoing);
  let ended = false;
  const end = (upstream: TargetAnswer['upstream']): void => {
    if (ended) return;
    ended = true;
    // Never a cut body presented as whole: the client's connection goes too.
    if (upstream === 'dropped') incoming.socket.destroy();
    // The checks read the target's own fields; the journal, what the client got.
    const headers = headerRecord(kept);
    const response = alreadySent(status);
    const redact = options.redactor(x);
    traceSent(x, {
      response,
      status,
      headers: Object.fromEntries(Object.entries(sent === kept ? headers : headerRecord(sent)).map(([name, value]) => [name, redact(value)])),
      body: redact(copy.start(2048).toString('utf8'), copy.total > 2048),
    });
    // After the last byte has gone: the check never delays the answer.
    setImmediate(() => {
      options.onAnswered(x, { upstream, status, headers, body: copy });
      settle(response);
    });
  };
  answer.on('end', () => (answer.complete ? undefined : end('dropped')));
  outgoing.on('finish', () => end('answered'));
  answer.on('close', () => {
    if (!answer.complete) end('dropped');
  });
  answer.on('error', () => end('dropped'));
  outgoing.on('close', () => {
    if (!outgoing.writableFinished) end(answer.complete ? 'answered' : 'dropped');
  });
}
