import type { FaultKindName, FaultOptions } from '../../core/faults/fault-kinds.js';
import type { FaultBehaviour } from './fault-behaviour.js';
import { closeFault } from './close-fault.js';
import { emptyBodyFault } from './empty-body-fault.js';
import { fallbackPageFault } from './fallback-page-fault.js';
import { gatewayPageFault } from './gateway-page-fault.js';
import { hangFault } from './hang-fault.js';
import { malformedJsonFault } from './malformed-json-fault.js';
import { passFault } from './pass-fault.js';
import { resetFault } from './reset-fault.js';
import { statusFault } from './status-fault.js';
import { trickleFault } from './trickle-fault.js';
import { truncatedBodyFault } from './truncated-body-fault.js';
import { wrongContentTypeFault } from './wrong-content-type-fault.js';

/**
 * What each fault kind of src/mock/core/faults/fault-kinds.ts does. The
 * keys are exactly the core's kinds: a kind without its behaviour, or a
 * behaviour without its kind, does not compile.
 */
export const FAULT_BEHAVIOURS: { readonly [Name in FaultKindName]: FaultBehaviour<FaultOptions[Name]> } = {
  status: statusFault,
  reset: resetFault,
  close: closeFault,
  hang: hangFault,
  'malformed-json': malformedJsonFault,
  'empty-body': emptyBodyFault,
  'wrong-content-type': wrongContentTypeFault,
  'gateway-page': gatewayPageFault,
  'fallback-page': fallbackPageFault,
  'truncated-body': truncatedBodyFault,
  trickle: trickleFault,
  pass: passFault,
};
