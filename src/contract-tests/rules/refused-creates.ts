import { petStatuses } from '../generate/schema-model.js';
import type { Pet, RuleContext } from '../types.js';
import type { RecordedExchange } from '../../verdict/exchange.js';
import { finding, recordFailure } from './generated.js';
import { cite, STATEMENTS } from './statements.js';

const STATUSES = petStatuses();

/** What a createPet run keeps to check afterwards that no refused create was stored. */
export interface Refused {
  names: Map<string, RecordedExchange>;
  statuses: Set<string>;
}

/** A fresh record of refused creates. */
export const noneRefused = (): Refused => ({ names: new Map(), statuses: new Set() });

export function keepRefused(refused: Refused, body: string, exchange: RecordedExchange): void {
  const sent = JSON.parse(body) as { name: string; status?: unknown };
  refused.names.set(sent.name, exchange);
  if (typeof sent.status === 'string' && STATUSES.includes(sent.status)) refused.statuses.add(sent.status);
}

/**
 * A create answered 401 must have stored nothing: its name must be on none
 * of the pages of 100, unfiltered and of each status sent. Where a page is
 * full the animal may be on a later one, which the interface gives no way
 * to ask for: nothing is concluded from its absence, only from its presence.
 */
export async function checkNothingStored(context: RuleContext, refused: Refused, what = 'a createPet answered 401'): Promise<number> {
  const queries = ['limit=100', ...[...refused.statuses].map((s) => `status=${encodeURIComponent(s)}&limit=100`)];
  for (const query of queries) {
    const page = await context.probe({ method: 'GET', path: `/pets?${query}` });
    const stored = (Array.isArray(page.exchange.response?.json) ? (page.exchange.response.json as Pet[]) : []).filter((p) => refused.names.has(p?.name));
    const first = stored[0];
    if (!first) continue;
    const create = refused.names.get(first.name) as RecordedExchange;
    const failure = {
      findings: [finding(page.exchange, `${stored.length} animal(s) created by ${what} are listed (id ${first.id})`, `nothing stored: the key is missing or invalid, so the request is refused (${cite(STATEMENTS.authRequired)})`, '$.body')],
      exchanges: [create, page.exchange],
    };
    recordFailure(context, failure, { case: `${what}, then listPets ${query}`, tried: refused.names.size, shrinks: 0 });
    break;
  }
  return queries.length;
}

