import { fail, ok, type Result } from '../../core/result.js';
import { streamClient } from './stream-client.js';

/** Journal streams open at once, per process: each polls its journal every tick. */
export const MAX_STREAMS = 16;
/**
 * Journal streams open at once from one client (stream-client.ts), without
 * --admin-key. Reads are then open, so anyone who can reach the port could
 * hold all 16 (a stream that is quiet never fills a buffer, so no stalled
 * answer check ends it); 4 leaves room for a few console tabs, and at least
 * four clients always get one. With --admin-key every reader has shown the
 * key, and the team behind one proxy shares one address: the 16 are shared
 * by all, first come.
 */
export const MAX_STREAMS_PER_ADDRESS = 4;

/** Gives back a slot taken with `take`. */
export type Release = () => void;

/** Counts the streams open (or being opened), in all and by client address. */
export interface StreamSlots {
  /** A slot for a stream from `address` (the socket's remote address), or why there is none. */
  take(address: string): Result<Release>;
  /** How many are taken. */
  size(): number;
}

/** `perClient`: at most MAX_STREAMS_PER_ADDRESS from one client (without --admin-key). */
export function streamSlots({ perClient }: { perClient: boolean }): StreamSlots {
  const byAddress = new Map<string, number>();
  let taken = 0;
  return {
    take(remoteAddress) {
      const address = perClient ? streamClient(remoteAddress) : '';
      const mine = byAddress.get(address) ?? 0;
      if (taken >= MAX_STREAMS) return fail('too_many_streams', `${MAX_STREAMS} journal streams are open on this mock: close one (a console tab), or retry in 5 s`);
      if (perClient && mine >= MAX_STREAMS_PER_ADDRESS) {
        return fail(
          'too_many_streams',
          `${MAX_STREAMS_PER_ADDRESS} journal streams are open from ${address || 'this address'}, the most one client may hold without --admin-key (so no one client takes all ${MAX_STREAMS}): close one (a console tab), or retry in 5 s. Behind a proxy every client shares its address: start the mock with --admin-key there, and the ${MAX_STREAMS} are shared by everyone holding the key.`,
        );
      }
      taken += 1;
      byAddress.set(address, mine + 1);
      let released = false;
      return ok(() => {
        if (released) return;
        released = true;
        taken -= 1;
        const left = (byAddress.get(address) ?? 1) - 1;
        if (left === 0) byAddress.delete(address);
        else byAddress.set(address, left);
      });
    },
    size: () => taken,
  };
}
