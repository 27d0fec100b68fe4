/**
 * Groups items by the cause a key names: the one way the harness folds
 * many alike things into one (failures of rules, drift between two
 * targets), so a report says "one cause, 24 rules" rather than the same
 * thing 24 times. Groups keep the order in which their causes first
 * appear; within a group, the items `leads` picks come first (the one a
 * report shows as its example), the others in their order.
 */
export function groupByCause<T>(items: Iterable<T>, causeOf: (item: T) => string, leads: (item: T) => boolean = () => false): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = causeOf(item);
    const group = groups.get(key) ?? [];
    const after = leads(item) ? group.findIndex((other) => !leads(other)) : -1;
    group.splice(after === -1 ? group.length : after, 0, item);
    groups.set(key, group);
  }
  return groups;
}
