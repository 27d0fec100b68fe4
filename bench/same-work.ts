/**
 * The work every reference server does for the three operations, in one
 * place so the bare node:http baseline and bare Hono do exactly the same:
 * check the key, parse the query, filter, slice, and JSON.stringify per
 * request. No validation beyond that, no CORS, no log.
 */
import { readFileSync } from 'node:fs';
import { API_KEY } from './config.js';

export interface Pet {
  id: number;
  name: string;
  categoryId: number;
  status?: string;
}

export interface Answer {
  status: number;
  body: string;
}

const EXPECTED_AUTHORIZATION = `Bearer ${API_KEY}`;

const UNAUTHORIZED: Answer = { status: 401, body: '{"code":"unauthorized","message":"Missing or invalid API key.","status":401}' };
const NOT_FOUND: Answer = { status: 404, body: '{"code":"pet_not_found","message":"No animal has that id.","status":404}' };
const MALFORMED: Answer = { status: 400, body: '{"code":"malformed_json","message":"The body is not JSON.","status":400}' };

/** The catalogue of a fixture file, and the three operations on it. */
export function sameWork(fixtures: string) {
  const pets: Pet[] = (JSON.parse(readFileSync(fixtures, 'utf8')) as Pet[]).map(toPet);
  const byId = new Map(pets.map((pet) => [pet.id, pet]));
  let lastId = pets.reduce((max, pet) => Math.max(max, pet.id), 0);
  const keyed = (authorization: string | undefined) => authorization === EXPECTED_AUTHORIZATION;

  return {
    listPets(authorization: string | undefined, query: string): Answer {
      if (!keyed(authorization)) return UNAUTHORIZED;
      const params = new URLSearchParams(query);
      const limit = Number(params.get('limit') ?? 20);
      const status = params.get('status');
      const page = status === null ? pets.slice(0, limit) : pets.filter((pet) => pet.status === status).slice(0, limit);
      return { status: 200, body: JSON.stringify(page) };
    },
    createPet(authorization: string | undefined, text: string): Answer {
      if (!keyed(authorization)) return UNAUTHORIZED;
      let sent: Pet;
      try {
        sent = JSON.parse(text) as Pet;
      } catch {
        return MALFORMED;
      }
      lastId += 1;
      const pet = toPet({ ...sent, id: lastId });
      pets.push(pet);
      byId.set(pet.id, pet);
      return { status: 201, body: JSON.stringify(pet) };
    },
    getPet(authorization: string | undefined, id: string): Answer {
      if (!keyed(authorization)) return UNAUTHORIZED;
      const pet = byId.get(Number(id));
      return pet ? { status: 200, body: JSON.stringify(pet) } : NOT_FOUND;
    },
  };
}

function toPet(value: Pet): Pet {
  const pet: Pet = { id: value.id, name: value.name, categoryId: value.categoryId };
  if (value.status !== undefined) pet.status = value.status;
  return pet;
}
