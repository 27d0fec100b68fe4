import { petStatuses } from './generate/schema-model.js';
import pLimit from 'p-limit';
import type { Send } from './http-client.js';
import type { Pet } from './types.js';

/** Animals the harness creates are named so, to be found and cleaned up by hand on a shared environment. */
export const CREATED_NAME_PREFIX = 'contract-test';

const STATUSES = petStatuses();

/** More animals than the largest page (limit 100), so that a page of 100 and the whole catalogue differ. */
export const FULL_CATALOGUE = 101;

/**
 * `--depth deep`: past three pages of 100, and past the 200 rows where
 * services commonly change how they answer (a default page size reached
 * twice over, a second page of an index, a cache's first eviction), with
 * hundreds of creates behind it.
 */
export const DEEP_CATALOGUE = 301;

/**
 * A lower bound of how many animals listPets shows: the most ids seen in the
 * unfiltered page of 100 and the three status pages together. The
 * interface has no delete, so the catalogue only grows and the bound holds.
 */
export async function countShown(send: Send): Promise<number | undefined> {
  const pages = await Promise.all(['?limit=100', ...STATUSES.map((s) => `?status=${s}&limit=100`)].map((query) => send({ method: 'GET', path: `/pets${query}` })));
  const lists = pages.map((page) => (page.response?.status === 200 && Array.isArray(page.response.json) ? (page.response.json as Pet[]) : undefined));
  if (!lists[0]) return undefined;
  const ids = new Set(lists.flatMap((list) => (list ?? []).map((pet) => pet?.id)));
  return Math.max(lists[0].length, ids.size);
}

/**
 * Makes sure at least `count` animals exist, creating the missing ones in a
 * writing run (the limit boundaries need a catalogue past 100), and resolves
 * to how many are known to exist: what listPets shows, or more where it
 * hides some. The animals made have no status: the status pages stay short
 * enough to be complete (so what a rule creates can be found under its
 * status), and an unfiltered page that leaves out animals without a status
 * is then shorter than it must be. Done once per run whoever asks first; a
 * read-only run only counts.
 */
export function catalogueFiller(send: Send, readOnly: boolean): (count: number) => Promise<number | undefined> {
  const done = new Map<number, Promise<number | undefined>>();
  return (count) => {
    let filling = done.get(count);
    if (!filling) {
      filling = fill(send, readOnly, count);
      done.set(count, filling);
    }
    return filling;
  };
}

async function fill(send: Send, readOnly: boolean, count: number): Promise<number | undefined> {
  const shown = await countShown(send);
  if (shown === undefined || shown >= count || readOnly) return shown;
  const limit = pLimit(8);
  const answers = await Promise.all(
    Array.from({ length: count - shown }, (_, i) =>
      limit(() => send({ method: 'POST', path: '/pets', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: `${CREATED_NAME_PREFIX} fill ${i}`, categoryId: 1 }) })),
    ),
  );
  // An acknowledged create exists (there is no delete), listed or not.
  const created = answers.filter((a) => a.response?.status === 201).length;
  return Math.max((await countShown(send)) ?? 0, shown + created);
}
