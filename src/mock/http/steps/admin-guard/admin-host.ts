import { clip, errorBody } from '../../../core/errors.js';
import type { Step } from '../../exchange.js';
import { sendError } from '../../respond.js';
import { isLoopback, urlHostname } from './loopback.js';

/**
 * DNS rebinding: a web page on a name its owner controls (evil.example)
 * re-points that name at 127.0.0.1; the browser then sends the page's
 * requests to the mock as same-origin ones, with `Host: evil.example`. So
 * on a loopback bind the admin API answers only a Host that names the
 * loopback (`localhost`, `*.localhost`, 127.x.x.x, [::1]) or the bound
 * address, with any port: names no one else can re-point. This is the
 * check Vite added for the same attack (server.allowedHosts, advisory
 * GHSA-vg6x-rcgg-rjx6) and webpack-dev-server's `allowedHosts: 'auto'`
 * (localhost and the configured host); unlike Vite, any other IP literal
 * is refused too, since none names this loopback bind. A non-loopback bind
 * (`--host 0.0.0.0`) is reached by names the mock cannot know, so it has
 * no check: the admin key guards it (see main.ts's warning).
 *
 * The host is read from the request's URL, which is the Host header, or
 * the authority of an absolute-form target, which RFC 9112 §3.2.2 says
 * the server must use instead of Host.
 */
export function adminHost(bindHost: string | undefined): Step | undefined {
  if (bindHost === undefined || !isLoopback(bindHost)) return undefined;
  const bound = urlHostname(bindHost);
  return function adminHostCheck(x, next) {
    const { hostname, host } = new URL(x.c.req.url);
    if (isLoopback(hostname) || hostname === bound) return next(x);
    return sendError(
      x,
      errorBody(
        'host_not_allowed',
        `Host ${JSON.stringify(clip(host))} is not a loopback name: on a loopback bind the admin API answers only Host localhost, *.localhost, 127.x.x.x or [::1] (any port), so that a web page cannot reach it through DNS rebinding; binding another --host (such as 0.0.0.0) lifts this check.`,
      ),
    );
  };
}
