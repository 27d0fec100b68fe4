import { FAULT_KINDS, type FaultKindName, type FaultOptions, type FaultThen } from './fault-kinds.js';

/**
 * A stub's `then` with the kind it names, found once when the stub is
 * compiled: the HTTP layer dispatches on `kind`. Written as a mapped type
 * so a function generic in the kind can pass `options` to that kind's
 * behaviour without a cast.
 */
export type NamedFault<Name extends FaultKindName = FaultKindName> = { [N in Name]: { kind: N; options: FaultOptions[N] } }[Name];

/** The kind a `then` the schema accepted names; no `then` is `pass`, the normal answer. */
export function nameFault(then: FaultThen | undefined): NamedFault {
  if (then === undefined) return { kind: 'pass', options: 'pass' };
  // A word names itself; a mapping is keyed by its kind's name (the schema allows exactly one).
  const kind = typeof then === 'string' ? then : FAULT_KINDS.find((k) => k.schema.form === 'mapping' && k.name in then)?.name;
  if (kind === undefined) throw new Error(`not a fault the scenario schema allows: ${JSON.stringify(then)}`);
  return { kind, options: then } as NamedFault;
}
