import type { PairSummary } from './pairs.js';
import type { MemoryResult } from './measure-memory.js';
import type { StartupResult } from './measure-startup.js';

export interface TargetCheck {
  target: string;
  actual: number | undefined;
  unit: string;
  /** `>=`, `<=` or `<` the limit. */
  comparison: '>=' | '<=' | '<';
  limit: number;
  /** Undefined when it could not be measured (e.g. RSS off Linux). */
  holds: boolean | undefined;
}

export interface TargetInputs {
  pairs: readonly PairSummary[];
  startup: readonly StartupResult[];
  memory: readonly MemoryResult[];
}

/** The mock's performance targets (the mock's own, the Redis store's and the open console's): medians of the interleaved pairs. */
export function checkTargets({ pairs, startup, memory }: TargetInputs): TargetCheck[] {
  const of = (scenario: string) => pairs.find((p) => p.scenario === scenario);
  return [
    check('listPets req/s, mock / baseline, median of pairs', of('listPets')?.medianRpsRatio, '', '>=', 0.9),
    check('getPet req/s, mock / baseline, median of pairs', of('getPet')?.medianRpsRatio, '', '>=', 0.75),
    check('createPet req/s, mock / baseline, median of pairs', of('createPet')?.medianRpsRatio, '', '>=', 0.75),
    check(
      'listPets req/s, mock-redis / mock (memory), median of rounds',
      of('listPets')?.comparisons.find((c) => c.of === 'mock-redis' && c.over === 'mock')?.medianRpsRatio,
      '',
      '>=',
      0.5,
    ),
    check(
      'listPets req/s, mock with the console open / without, median of rounds',
      of('listPets')?.comparisons.find((c) => c.of === 'mock-console' && c.over === 'mock')?.medianRpsRatio,
      '',
      '>=',
      0.9,
    ),
    check('listPets p99, mock minus baseline in the same pair, median', of('listPets')?.medianP99DeltaMs, 'ms', '<=', 1),
    check('start-up to first answer, mock, median', startup.find((s) => s.server === 'mock')?.medianMs, 'ms', '<', 300),
    check('idle RSS, mock', memory.find((m) => m.server === 'mock')?.idleRssMiB, 'MiB', '<', 80),
  ];
}

function check(target: string, actual: number | undefined, unit: string, comparison: TargetCheck['comparison'], limit: number): TargetCheck {
  const holds = actual === undefined || Number.isNaN(actual) ? undefined : comparison === '>=' ? actual >= limit : comparison === '<=' ? actual <= limit : actual < limit;
  return { target, actual, unit, comparison, limit, holds };
}
