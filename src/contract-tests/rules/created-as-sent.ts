import { stringifyExactJson } from '../../shared/exact-json/stringify-exact-json.js';
import type { Probe } from '../types.js';
import { finding } from './generated.js';

/**
 * Findings for a createPet answered 201: the Pet must carry each NewPet
 * field as sent (a status left out is not judged: its default is not shown).
 */
export function createdAsSent(probe: Probe, sent: Record<string, unknown>, statement: string) {
  const pet = probe.exchange.response?.json as Record<string, unknown> | undefined;
  if (typeof pet !== 'object' || pet === null || Array.isArray(pet)) return [finding(probe.exchange, 'the 201 answer is no Pet', statement, '$.body')];
  return ['name', 'categoryId', 'status']
    .filter((field) => field in sent && !Object.is(pet[field], sent[field]))
    .map((field) => finding(probe.exchange, `${field} is ${stringifyExactJson(pet[field])}, sent ${stringifyExactJson(sent[field])}`, `the animal exactly as sent (${statement})`, `$.body.${field}`));
}
