import type { ActiveProfile } from '../../core/profile/active-profile.js';
import { profiledError } from '../../core/errors.js';
import type { Step } from '../exchange.js';
import { sendError } from '../respond.js';

const MESSAGE = 'send the body with Content-Length: a body sent chunked is not taken here';

/**
 * A body sent chunked, without Content-Length, refused as the active
 * profile chooses (411 Length Required, RFC 9112 §6.3), before any of it
 * is read: before the body limit too, as a server that asks for the length
 * cannot know the size. The connection stays open, and node discards the
 * rest of the body: closing while the client still sends could reset the
 * connection before it reads the 411 (RFC 9112 §9.6).
 */
export function profiledChunkedRefusal(profile: ActiveProfile): Step {
  return function refuseChunked(x, next) {
    const choice = profile.choices['chunked-body'];
    if (choice === 'accepted' || x.c.req.header('transfer-encoding') === undefined || x.c.req.header('content-length') !== undefined) return next(x);
    return sendError(x, profiledError(choice, MESSAGE));
  };
}
