/**
 * A scenario file as written (scenarios/<name>.yaml), once it has passed
 * scenarios/scenario.schema.json. The schema is the reference; these types
 * mirror it; a fault's `then` is one of the fault kinds
 * (src/mock/core/faults/fault-kinds.ts).
 */

import type { FaultThen } from '../faults/fault-kinds.js';

export type TextPredicate = { equals: string | number | boolean } | { matches: string } | { absent: true };
export type ValuePredicate = { equals: unknown } | { matches: string } | { absent: true };

export interface CallsSpec {
  every?: number;
  first?: number;
  after?: number;
}

export interface MatchSpec {
  /** An operationId of the contract, or `*` for every operation. */
  operation: string;
  query?: Record<string, TextPredicate>;
  headers?: Record<string, TextPredicate>;
  body?: Record<string, ValuePredicate>;
  calls?: CallsSpec;
}

export type LatencySpec = { fixedMs: number } | { uniformMs: [number, number] } | { logNormal: { medianMs: number; sigma: number } };

export interface FaultSpec {
  latency?: LatencySpec;
  then?: FaultThen;
}

export interface ResponseSpec {
  status: number;
  body?: unknown;
  headers?: Record<string, string | number>;
}

export interface StubSpec {
  id?: string;
  match: MatchSpec;
  requiredState?: string;
  newState?: string;
  response?: ResponseSpec;
  fault?: FaultSpec;
}

export interface GenerateSpec {
  count: number;
  seed: number;
  statusMix?: { available?: number; pending?: number; sold?: number };
}

export type CatalogueSpec = { fixture: string } | { generate: GenerateSpec };

export interface ScenarioFile {
  name: string;
  description: string;
  catalogue: CatalogueSpec;
  initialState?: string;
  stubs: StubSpec[];
}

/** The state a scenario starts in when its file names none (as in WireMock). */
export const DEFAULT_INITIAL_STATE = 'Started';
