import { lookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';

const KEPT_MS = 30_000;
const MAX_HOSTS = 32;
const known = new Map<string, { addresses: LookupAddress[]; until: number }>();

/**
 * node asks the resolver again for every connection it opens, and a run
 * opens hundreds (each request without the key, or with a wrong one, goes
 * on a connection of its own): for `localhost` that is about a tenth of a
 * run's CPU. A host's addresses are kept for 30 s, as a browser keeps them,
 * for at most 32 hosts; a failed lookup is not kept. The addresses keep the
 * resolver's order, so node tries them as it would have.
 */
export const hostLookup: LookupFunction = (hostname, options, callback) => {
  const key = `${hostname}|${options.family ?? 0}|${options.hints ?? 0}`;
  const answer = (addresses: LookupAddress[]) => {
    if (options.all) return (callback as (error: null, addresses: LookupAddress[]) => void)(null, addresses);
    const [first] = addresses;
    callback(null, first?.address ?? '', first?.family ?? 4);
  };
  const held = known.get(key);
  // Answered later, as node's own lookup answers even an address it need not resolve.
  if (held && held.until > Date.now()) return process.nextTick(answer, held.addresses);
  lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '', 0);
    if (known.size >= MAX_HOSTS && !known.has(key)) known.delete(known.keys().next().value as string);
    known.set(key, { addresses, until: Date.now() + KEPT_MS });
    answer(addresses);
  });
};
