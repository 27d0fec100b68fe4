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
