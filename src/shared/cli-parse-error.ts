/**
 * What node's `util.parseArgs` refused, said for the person who typed it,
 * by both commands (and the known name a slip was meant for, which the
 * harness also offers for a rule id):
 * - an unknown flag comes with the known flag closest to it (`--prot`: did
 *   you mean `--port`?), when one is close enough to be a slip;
 * - an argument without a flag is not repeated: it is most often a value
 *   whose flag was left out or mistyped, and that value may be a key.
 */
export function describeParseError(error: unknown, flags: readonly string[]): string {
  const { code, message } = error as { code?: string; message?: string };
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const given = /Unknown option '(-{1,2}[^'=]*)/.exec(message ?? '')?.[1];
    const near = given?.startsWith('--') ? closestName(given.slice(2), flags) : undefined;
    return `Unknown option '${given ?? '?'}'${near ? `: did you mean --${near}?` : ''}`;
  }
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
    return 'An argument without a flag was given (not shown: it may be a key); every value goes after its flag, as in --api-key KEY';
  }
  return message ?? String(error);
}

/** The name (a flag, a rule id) within a slip of `given`: at most one edit for a short name, two for a longer one; a prefix of exactly one name counts too. */
export function closestName(given: string, names: readonly string[]): string | undefined {
  const limit = given.length <= 4 ? 1 : 2;
  let best: { name: string; distance: number } | undefined;
  for (const name of names) {
    const distance = editDistance(given, name);
    if (distance <= limit && (!best || distance < best.distance)) best = { name, distance };
  }
  if (best) return best.name;
  const prefixed = given.length >= 3 ? names.filter((name) => name.startsWith(given)) : [];
  return prefixed.length === 1 ? prefixed[0] : undefined;
}

/** Edits (insert, delete, replace, swap two neighbours) from `a` to `b`: the optimal string alignment distance. */
function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = d;
    }
  }
  return rows[a.length]![b.length]!;
}
