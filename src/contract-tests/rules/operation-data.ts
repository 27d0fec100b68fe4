import type { ReceivedResponse } from '../../verdict/exchange.js';

/**
 * What "an operation's data" is, for an answer to a request that is no
 * operation, or is sent without the key: a Pet, on its own or among the
 * items of an array (what listPets and getPet answer), whatever the
 * answer's status and Content-Type. A Pet is told by the members every Pet
 * has (the document's Pet requires id, name and categoryId). An empty body,
 * an Error, an empty array or CORS fields carry none.
 */
const PET_MEMBERS = ['id', 'name', 'categoryId'];

const isPet = (value: unknown): boolean => typeof value === 'object' && value !== null && !Array.isArray(value) && PET_MEMBERS.every((member) => member in value);

/** The body as JSON: as read when labelled JSON, else parsed here (a Pet sent as text/plain is still the data). */
function bodyJson(response: ReceivedResponse): unknown {
  if (response.json !== undefined) return response.json;
  try {
    return JSON.parse(response.body) as unknown;
  } catch {
    return undefined;
  }
}

/** Whether the answer carries an operation's data: a Pet, or an array holding one. */
export function carriesPet(response: ReceivedResponse | undefined): boolean {
  if (!response || response.unread) return false;
  const json = bodyJson(response);
  return isPet(json) || (Array.isArray(json) && json.some(isPet));
}
