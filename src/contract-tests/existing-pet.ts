import type { Send } from './http-client.js';
import type { Pet } from './types.js';
import type { RecordedExchange } from '../verdict/exchange.js';

/** An animal that exists, for the rules that need one, or why none is known. */
export type PetLookup = { pet: Pet } | { pet: undefined; reason: string };

/**
 * An existing animal, found once through listPets with its default limit
 * (not limit=1, which rules of its own check: a server getting that wrong
 * must not also make these rules skip). When there is none, the reason
 * says what listPets did: an empty page is an empty catalogue, but a 503 or
 * a dropped connection says nothing of what the catalogue holds.
 */
export function firstPet(send: Send): () => Promise<PetLookup> {
  let found: Promise<PetLookup> | undefined;
  return () => (found ??= send({ method: 'GET', path: '/pets' }).then(lookup));
}

function lookup(exchange: Omit<RecordedExchange, 'operation'>): PetLookup {
  const { response } = exchange;
  if (!response) return { pet: undefined, reason: `listPets got no answer (${exchange.networkError}), so no id is known` };
  if (response.status !== 200) {
    const code = (response.json as { code?: unknown } | undefined)?.code;
    return { pet: undefined, reason: `listPets answered ${response.status}${typeof code === 'string' ? ` ${code}` : ''} instead of a page, so no id is known` };
  }
  const json = response.json;
  if (!Array.isArray(json)) return { pet: undefined, reason: 'listPets answered 200 without a JSON array, so no id is known' };
  if (json.length === 0) return { pet: undefined, reason: 'the catalogue is empty (listPets returned no animal), so no id is known' };
  return { pet: json[0] as Pet };
}
