/**
 * The fields that describe one connection, not the message (RFC 9110
 * §7.6.1): a proxy removes them, and every field the message's own
 * `Connection` names, before passing a message on. Proxy-Connection is
 * no standard field, but old clients still send it meaning Connection.
 */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

/**
 * node's rawHeaders (name, value, name, value…, as sent: case, order and
 * repeats kept) less the hop-by-hop fields, less any name in `drop`.
 */
export function endToEnd(raw: readonly string[], drop: ReadonlySet<string> = NO_NAMES): string[] {
  const named = connectionNames(raw);
  const kept: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase();
    if (HOP_BY_HOP.has(name) || named.has(name) || drop.has(name)) continue;
    kept.push(raw[i] as string, raw[i + 1] as string);
  }
  return kept;
}

/** The field names every `Connection` field lists (a comma-separated list of tokens, RFC 9110 §7.6.1). */
function connectionNames(raw: readonly string[]): Set<string> {
  const names = new Set<string>();
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if ((raw[i] as string).toLowerCase() !== 'connection') continue;
    for (const token of (raw[i + 1] as string).split(',')) {
      const name = token.trim().toLowerCase();
      if (name !== '') names.add(name);
    }
  }
  return names;
}

const NO_NAMES: ReadonlySet<string> = new Set();

/** rawHeaders as a record for the journal and the checks: names lower-cased, repeats joined with `, ` (RFC 9110 §5.3). */
export function headerRecord(raw: readonly string[]): Record<string, string> {
  const record: Record<string, string> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase();
    const value = raw[i + 1] as string;
    record[name] = name in record ? `${record[name]}, ${value}` : value;
  }
  return record;
}
