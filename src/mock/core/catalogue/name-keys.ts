import { indexCatalogue } from './catalogue-index.js';
import type { Pet } from './pet.js';

const NAME = ',"name":';
const AFTER_NAME = ',"categoryId":';

/**
 * A name as "is it taken" compares it: its JSON text inside an animal's
 * stored JSON (see storedForm: `{"id":N,"name":…,"categoryId":…}`), as a
 * slice of that JSON. A catalogue keeps the JSON anyway, and V8 makes a
 * slice of 13 characters or more a view into its parent, so a key kept
 * costs a few words, not a second copy of the name (measured with
 * bench/bounds-memory.ts). Exact: one key is one name, case and code points
 * as sent; and JSON.stringify escapes a lone surrogate, so on Redis, which
 * holds bytes, two such names never become one U+FFFD.
 *
 * The name ends at the first `,"categoryId":` after it: inside a JSON
 * string every `"` is escaped, so that text cannot be part of the name.
 */
export function nameKey(storedJson: string): string {
  const start = storedJson.indexOf(NAME) + NAME.length;
  return storedJson.slice(start, storedJson.indexOf(AFTER_NAME, start));
}

const built = new WeakMap<readonly Pet[], ReadonlySet<string>>();

/**
 * The name keys of a start list of animals, for an O(1) check. Built once
 * per list (by identity, as indexCatalogue is) on the first create that
 * asks to refuse a taken name, and shared by every catalogue that starts
 * from the list (each session, each reset; in memory and on Redis): a mock
 * never asked pays nothing. Its size is the start catalogue's, read from
 * files, never a client's; its keys are slices of the start index's JSON.
 */
export function startNameKeys(pets: readonly Pet[]): ReadonlySet<string> {
  let keys = built.get(pets);
  if (!keys) {
    keys = new Set(indexCatalogue(pets).ordered.map(nameKey));
    built.set(pets, keys);
  }
  return keys;
}
