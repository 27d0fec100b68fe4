import { closestName } from '../shared/cli-parse-error.js';

/**
 * What is wrong with the rule ids given to `--only` and `--skip` (and
 * runContract's `only` and `skip`), or undefined: each id no rule has,
 * with the id it is most likely a slip of, when one is that close.
 */
export function unknownRuleIds(given: readonly string[], rules: readonly { id: string }[]): string | undefined {
  const ids = rules.map((rule) => rule.id);
  const unknown = [...new Set(given.filter((id) => !ids.includes(id)))];
  if (unknown.length === 0) return undefined;
  const described = unknown.map((id) => {
    const near = closestName(id, ids);
    return near === undefined ? id : `${id} (did you mean ${near}?)`;
  });
  return `unknown rule id: ${described.join(', ')}`;
}
