/**
 * @hono/node-server replaces `globalThis.Response` (when a server is made)
 * with a lighter class whose fast path writes the head even when the answer
 * is marked `x-hono-already-sent`; for an answer already piped out that
 * fails, and the adaptor then destroys the connection, keep-alive and all.
 * The platform's own Response, taken when this module loads (before any
 * server is made), goes the adaptor's other way, which honours the mark.
 */
const PlatformResponse = globalThis.Response;

/**
 * An answer already written to node's response: its status for the journal and the log, nothing more to send.
 * A status the platform's Response refuses (past 599, a target's to send) is held as 200 here: the exchange's
 * sentStatus keeps it (sentStatusOf).
 */
export const alreadySent = (status: number): Response =>
  new PlatformResponse(null, { status: status >= 200 && status <= 599 ? status : 200, headers: { 'x-hono-already-sent': 'true' } });

/**
 * Hono answers a HEAD with `new Response(null, <its GET's answer>)`: for an
 * answer already piped out (proxy mode), that copies the mark onto the
 * adaptor's lighter Response, whose fast path writes the head a second time
 * (ERR_HTTP_HEADERS_SENT, printed as a stack trace). The HEAD's answer gets
 * the platform's Response back, whose mark the adaptor honours. Only HEADs
 * pay the wait.
 */
export function keepAlreadySent<E>(fetch: (request: Request, env: E) => Response | Promise<Response>): (request: Request, env: E) => Response | Promise<Response> {
  return (request, env) => {
    const answer = fetch(request, env);
    if (request.method !== 'HEAD') return answer;
    return Promise.resolve(answer).then((response) => (response.headers.get('x-hono-already-sent') === null ? response : alreadySent(response.status)));
  };
}
