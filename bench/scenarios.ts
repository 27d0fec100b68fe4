import { API_KEY } from './config.js';
import { httpRequest, type HttpAnswer } from './http-request.js';

export type ScenarioName = 'listPets' | 'getPet' | 'createPet';

export interface ScenarioRequest {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface Scenario {
  name: ScenarioName;
  /** For the report, e.g. `GET /v1/pets?limit=20`. */
  label: string;
  /** The sequence each connection cycles through. */
  requests: readonly ScenarioRequest[];
  expectedStatus: number;
  /** Whether a parsed answer body is what the operation should return. */
  accepts(body: unknown): boolean;
}

const AUTH = { authorization: `Bearer ${API_KEY}` };
const NEW_PET = JSON.stringify({ name: 'Rex', categoryId: 1, status: 'available' });
/** Ids of the default fixture. */
const PET_IDS = Array.from({ length: 30 }, (_, i) => i + 1);

const isPet = (value: unknown): boolean => {
  const pet = value as Record<string, unknown> | null;
  return typeof pet === 'object' && pet !== null && Number.isInteger(pet.id) && typeof pet.name === 'string' && Number.isInteger(pet.categoryId);
};

export const SCENARIOS: readonly Scenario[] = [
  {
    name: 'listPets',
    label: 'GET /v1/pets?limit=20',
    requests: [{ method: 'GET', path: '/v1/pets?limit=20', headers: AUTH }],
    expectedStatus: 200,
    accepts: (body) => Array.isArray(body) && body.length === 20 && body.every(isPet),
  },
  {
    name: 'getPet',
    label: 'GET /v1/pets/{1..30}',
    requests: PET_IDS.map((id) => ({ method: 'GET', path: `/v1/pets/${id}`, headers: AUTH })),
    expectedStatus: 200,
    accepts: isPet,
  },
  {
    name: 'createPet',
    label: 'POST /v1/pets',
    requests: [{ method: 'POST', path: '/v1/pets', headers: { ...AUTH, 'content-type': 'application/json' }, body: NEW_PET }],
    expectedStatus: 201,
    accepts: (body) => isPet(body) && (body as { name: string }).name === 'Rex',
  },
];

export function sendScenarioRequest(origin: string, request: ScenarioRequest): Promise<HttpAnswer> {
  return httpRequest(origin + request.path, { method: request.method, headers: request.headers, body: request.body });
}

/** Why an answer is not what the scenario expects, or undefined if it is. */
export function checkAnswer(scenario: Scenario, answer: HttpAnswer): string | undefined {
  if (answer.status !== scenario.expectedStatus) return `status ${answer.status}, expected ${scenario.expectedStatus}: ${answer.body.slice(0, 200)}`;
  let body: unknown;
  try {
    body = JSON.parse(answer.body);
  } catch {
    return `the body is not JSON: ${answer.body.slice(0, 200)}`;
  }
  return scenario.accepts(body) ? undefined : `unexpected body: ${answer.body.slice(0, 200)}`;
}
