import type { HttpBindings } from '@hono/node-server';
import type { Context } from 'hono';

/**
 * The node request and response behind a Hono context, as @hono/node-server
 * passes them in `c.env`. Undefined when the app is called without a node
 * server (`app.fetch(request)` in a test), so callers must cope.
 */
export function nodeBindings(c: Context): HttpBindings | undefined {
  const env = c.env as Partial<HttpBindings> | undefined;
  return env?.incoming && env.outgoing ? (env as HttpBindings) : undefined;
}
