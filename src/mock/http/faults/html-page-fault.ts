import { respond } from '../respond.js';
import type { FaultBehaviour } from './fault-behaviour.js';

/**
 * A fault that answers with an HTML page in place of the API's JSON, as
 * something in front of the service sends it (`gateway-page`,
 * `fallback-page`). The steps' headers (CORS) are kept, so a browser's
 * page can read it; the request is not served.
 */
export const htmlPageFault =
  <Options>(status: number, contentType: string, page: (by: string) => string): FaultBehaviour<Options> =>
  async (x, _next, _options, context) =>
    respond(x, status, page(context.by), { 'content-type': contentType });
