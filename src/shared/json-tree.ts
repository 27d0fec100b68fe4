/** Which bound of jsonTreePast a JSON value passed first. */
export type TreePast = { bound: 'values'; max: number } | { bound: 'depth'; max: number };

/**
 * Whether a parsed JSON value has more than `values` values (objects,
 * arrays and what they hold, the value itself counted) or nests objects
 * and arrays more than `depth` deep (the value itself being level 1).
 * Without recursion, so that a value too deep for JSON.stringify, the
 * schema checks or a deep comparison is told apart before they see it;
 * stops at the first bound passed.
 */
export function jsonTreePast(value: unknown, limits: { values?: number; depth: number }): TreePast | undefined {
  const maxValues = limits.values ?? Infinity;
  const pending: Array<{ value: unknown; depth: number }> = [{ value, depth: 1 }];
  let values = 0;
  while (pending.length > 0) {
    const next = pending.pop() as { value: unknown; depth: number };
    if (++values > maxValues) return { bound: 'values', max: maxValues };
    if (typeof next.value !== 'object' || next.value === null) continue;
    if (next.depth > limits.depth) return { bound: 'depth', max: limits.depth };
    for (const inner of Array.isArray(next.value) ? next.value : Object.values(next.value)) pending.push({ value: inner, depth: next.depth + 1 });
  }
  return undefined;
}
