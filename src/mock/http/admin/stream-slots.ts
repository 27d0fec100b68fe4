import { fail, ok, type Result } from '../../core/result.js';

/** Journal streams open at once, per process: each polls its journal every tick. */
export const MAX_STREAMS = 16;
/**
 * Journal streams open at once from one client address. Reads are open
 * without --admin-key, so without it anyone who can reach the port could
 * hold all 16 (a stream that is quiet never fills a buffer, so no stalled
 * answer check ends it); 4 leaves room for a few console tabs.
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

export function streamSlots(): StreamSlots {
  const byAddress = new Map<string, number>();
  let taken = 0;
  return {
    take(address) {
      const mine = byAddress.get(address) ?? 0;
      if (taken >= MAX_STREAMS) return fail('too_many_streams', `${MAX_STREAMS} journal streams are open on this mock: close one (a console tab), or retry in 5 s`);
      if (mine >= MAX_STREAMS_PER_ADDRESS) {
        return fail(
          'too_many_streams',
          `${MAX_STREAMS_PER_ADDRESS} journal streams are open from ${address || 'this address'}, the most one address may hold (so no one client takes all ${MAX_STREAMS}): close one (a console tab), or retry in 5 s. Behind a proxy every client shares its address: start the mock with --admin-key there.`,
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
