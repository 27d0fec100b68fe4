import type { Pet } from '../catalogue/pet.js';
import type { MatchSpec, ScenarioFile, StubSpec } from '../scenarios/scenario.js';
import { jsonTreePast } from '../../../shared/json-tree.js';
import { recordedSequences } from './recorded-sequences.js';

/** The bounds of one recording, documented with `--record`. */
export const RECORDING_LIMITS = {
  /** Animals in the recorded catalogue. */
  pets: 10_000,
  /** Bytes of the recorded catalogue, as JSON. */
  petBytes: 8 * 1024 * 1024,
  /** Distinct requests followed for their answers (each one a stub, or a sequence of them). */
  requests: 1_000,
  /** Different answers in a row kept for one request; later changes are not followed. */
  answersPerRequest: 16,
  /** Bytes of one error answer's body kept for its stub. */
  stubBodyBytes: 64 * 1024,
  /** Bytes of all the stubs together (their matches, bodies and fields, as JSON): as much as the catalogue may hold. */
  stubsBytes: 8 * 1024 * 1024,
  /**
   * How deep an answer's JSON may nest, the body itself being level 1: JSON.stringify and the checks recurse,
   * and the scenario file's reader stops at 100 levels, the stub's own included.
   */
  depth: 32,
} as const;

/** One answer the target gave, checked clean, as the recording reads it. */
export interface RecordedAnswer {
  operationId: string;
  /** The stub's match for the request, when the scenario format can pick it out (recorded-match.ts). */
  match: MatchSpec | undefined;
  status: number;
  /** Response fields a stub keeps (recorded-response-headers.ts). */
  headers: Record<string, string>;
  /** The body, parsed; undefined when it is no JSON. */
  json: unknown;
}

/** Why answers were left out of the recording, counted. */
export type LeftOut = 'broke the contract' | 'too large to check' | 'held a key' | 'about credentials' | 'not singled out by a stub' | 'past a bound';

export interface Recording {
  add(answer: RecordedAnswer): void;
  leaveOut(why: LeftOut): void;
  /** Whether an answer's body, or its request's, nests past RECORDING_LIMITS.depth: then it is left out as past a bound, and told once. */
  nestedTooDeep(json: unknown): boolean;
  /** The scenario file and the catalogue it names, as they stand. */
  scenario(name: string, fixture: string): { file: ScenarioFile; pets: Pet[] };
  /** What it holds, counted without building the scenario. */
  counts(): { animals: number; stubs: number };
  /** Grows with every change: a writer compares it to what it wrote. */
  readonly version: number;
  /** The first bound reached, once (a message to give), then undefined. */
  takeBoundReached(): string | undefined;
}

/**
 * What proxy mode has seen, as a scenario: the animals the target returned
 * (by id, the latest seen wins) as its catalogue, and a stub for each error
 * answer, matched to its request. A request answered differently over time
 * (200, then 429, then 200) becomes a sequence, as WireMock's
 * repeatsAsScenarios makes one: a stub per error answer, each fitting the
 * calls it got (`calls: {after, first}`), the last one for good. Calls, not
 * scenario states: a scenario has one state, which two requests' sequences
 * would step for each other. Success answers are the catalogue's to give,
 * so they get no stub. Bounded by RECORDING_LIMITS.
 */
export function recording(): Recording {
  // Each animal as JSON text, parsed again only when the files are written: parsed, an animal's extra fields
  // (the document allows any) such as `[{},{}]` would cost ten times their text.
  const pets = new Map<number, string>();
  let petBytes = 0;
  const sequences = recordedSequences(RECORDING_LIMITS);
  const leftOut = new Map<LeftOut, number>();
  let version = 0;
  const bounds = new Set<string>();
  let reached: string | undefined;
  const bound = (message: string): void => {
    leaveOut('past a bound');
    if (bounds.has(message)) return;
    bounds.add(message);
    reached = message;
  };
  const leaveOut = (why: LeftOut): void => {
    leftOut.set(why, (leftOut.get(why) ?? 0) + 1);
    version++;
  };
  const addPet = (value: unknown): void => {
    if (typeof value !== 'object' || value === null || !Number.isSafeInteger((value as Pet).id)) return;
    const pet = value as Pet;
    const text = JSON.stringify(pet);
    const before = pets.get(pet.id);
    if (before === undefined && (pets.size >= RECORDING_LIMITS.pets || petBytes + text.length > RECORDING_LIMITS.petBytes)) {
      bound(`the recording holds ${RECORDING_LIMITS.pets} animals or ${RECORDING_LIMITS.petBytes} bytes of them: animals with new ids are no longer recorded`);
      return;
    }
    petBytes += text.length - (before?.length ?? 0);
    // The catalogue's order is by id when written; the latest seen wins.
    pets.set(pet.id, text);
    version++;
  };
  const follow = (answer: RecordedAnswer, match: MatchSpec): void => {
    const refused = sequences.follow(answer, match);
    if (refused === undefined) version++;
    else bound(refused);
  };
  return {
    add(answer) {
      if (answer.status === 200 && answer.operationId === 'listPets' && Array.isArray(answer.json)) for (const pet of answer.json) addPet(pet);
      if ((answer.status === 200 && answer.operationId === 'getPet') || (answer.status === 201 && answer.operationId === 'createPet')) addPet(answer.json);
      if (answer.match !== undefined) follow(answer, answer.match);
      else if (answer.status >= 400) leaveOut('not singled out by a stub');
    },
    leaveOut,
    nestedTooDeep(json) {
      if (jsonTreePast(json, { depth: RECORDING_LIMITS.depth }) === undefined) return false;
      bound(`an answer or its request nested more than ${RECORDING_LIMITS.depth} deep is not recorded: the scenario file could not be read back`);
      return true;
    },
    scenario: (name, fixture) => ({ file: scenarioFile(name, fixture, pets.size, sequences.stubs(), leftOut), pets: [...pets.entries()].sort(([a], [b]) => a - b).map(([, text]) => JSON.parse(text) as Pet) }),
    counts: () => ({ animals: pets.size, stubs: sequences.stubCount() }),
    get version() {
      return version;
    },
    takeBoundReached() {
      const message = reached;
      reached = undefined;
      return message;
    },
  };
}

function scenarioFile(name: string, fixture: string, pets: number, stubs: StubSpec[], leftOut: ReadonlyMap<LeftOut, number>): ScenarioFile {
  const omitted = [...leftOut.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([why, count]) => `${count} ${why}`);
  const description = `Recorded through proxy mode. Animals: ${pets}; stubs for error answers: ${stubs.length}${omitted.length > 0 ? `; answers left out: ${omitted.join(', ')}` : ''}.`;
  return { name, description, catalogue: { fixture }, stubs };
}
