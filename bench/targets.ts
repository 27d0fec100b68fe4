import type { LoadResult } from './load.js';
import type { MemoryResult } from './measure-memory.js';
import type { StartupResult } from './measure-startup.js';

export interface TargetCheck {
  target: string;
  actual: number | undefined;
  unit: string;
  /** `>=` or `<` the limit. */
  comparison: '>=' | '<';
  limit: number;
  /** Undefined when it could not be measured (e.g. RSS off Linux). */
  holds: boolean | undefined;
}

export interface TargetInputs {
  load: readonly LoadResult[];
  rpsRatio: (scenario: LoadResult['scenario']) => number | undefined;
  startup: readonly StartupResult[];
  memory: readonly MemoryResult[];
}

/** The mock's performance targets. */
export function checkTargets({ load, rpsRatio, startup, memory }: TargetInputs): TargetCheck[] {
  const mockList = load.find((r) => r.server === 'mock' && r.scenario === 'listPets');
  return [
    check('listPets req/s, mock / baseline', rpsRatio('listPets'), '', '>=', 0.75),
    check(`listPets p99 latency, mock, ${mockList?.connections ?? '?'} connections`, mockList?.latencyMs.p99, 'ms', '<', 5),
    check('start-up to first answer, mock, median', startup.find((s) => s.server === 'mock')?.medianMs, 'ms', '<', 300),
    check('idle RSS, mock', memory.find((m) => m.server === 'mock')?.idleRssMiB, 'MiB', '<', 80),
  ];
}

function check(target: string, actual: number | undefined, unit: string, comparison: '>=' | '<', limit: number): TargetCheck {
  const holds = actual === undefined || Number.isNaN(actual) ? undefined : comparison === '>=' ? actual >= limit : actual < limit;
  return { target, actual, unit, comparison, limit, holds };
}
