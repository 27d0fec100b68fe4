import type { FaultOptions } from '../../core/faults/fault-kinds.js';
import type { FaultBehaviour } from './fault-behaviour.js';

/** `pass`, or latency alone: the normal answer. */
export const passFault: FaultBehaviour<FaultOptions['pass']> = async (x, next) => next(x);
