import type { FaultKindName } from '../../core/faults/fault-kinds.js';
import type { NamedFault } from '../../core/faults/named-fault.js';
import type { Exchange, Next } from '../exchange.js';
import type { FaultContext } from './fault-behaviour.js';
import { FAULT_BEHAVIOURS } from './fault-behaviours.js';

/**
 * What a fault stub does after its latency: its kind's behaviour. Every
 * fault goes through here, the one place that dispatches on the kind.
 */
export function applyFault<Name extends FaultKindName>(x: Exchange, next: Next, fault: NamedFault<Name>, context: FaultContext): Promise<Response> {
  return FAULT_BEHAVIOURS[fault.kind](x, next, fault.options, context);
}
