/**
 * What a full session costs in heap (docs/reference.md, "Bounds"): `node --expose-gc
 * dist/bench/bounds-memory.js`. Fills sessions' stores through the real
 * createMemoryCatalogue and its budget, as createPet does (each animal parsed from
 * a JSON body first), and journals with their largest entries, and reads
 * the V8 heap before and after with a full GC each time. Prints one line
 * per case: heap per session (or journal) in KiB.
 */
import { createMemoryCatalogue, type MemoryCatalogue } from '../src/mock/core/store/memory/memory-catalogue.js';
import { DEFAULT_CATALOGUE_LIMITS, type CatalogueBudget } from '../src/mock/core/catalogue/catalogue-limits.js';
import type { NewPet } from '../src/mock/core/catalogue/pet.js';
import { createRequestJournal, DEFAULT_JOURNAL_SIZE, type RequestJournal } from '../src/mock/core/journal/request-journal.js';
import { journalHeaders, MAX_JOURNAL_HEADERS, MAX_JOURNAL_HEADERS_CHARS } from '../src/mock/core/journal/journal-headers.js';
import { bodyText, journalMessage, MAX_JOURNAL_REQUEST_BODY, MAX_JOURNAL_RESPONSE_BODY } from '../src/mock/core/journal/journal-message.js';
import { journalPath } from '../src/mock/core/journal/journal-path.js';
import { ownCopy } from '../src/mock/core/own-copy.js';
import { loadContract } from '../src/document/load-contract.js';
import { checkSessionStub } from '../src/mock/core/session-stubs/check-session-stub.js';
import { MAX_SESSION_STUBS, type SessionStub } from '../src/mock/core/session-stubs/session-stubs.js';
import { memorySessionStubs } from '../src/mock/core/store/memory/memory-session-stubs.js';

const SESSIONS = 20;
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');

function heapAfterGc(): number {
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed;
}

/** Heap per session of `SESSIONS` sessions filled with animals named `name(i)` until the budget refuses one. */
function fullSessions(label: string, name: (i: number) => string): void {
  const before = heapAfterGc();
  const kept: MemoryCatalogue[] = [];
  let animals = 0;
  let bytes = 0;
  for (let s = 0; s < SESSIONS; s++) {
    const store = createMemoryCatalogue([]);
    const budget: CatalogueBudget = { limits: DEFAULT_CATALOGUE_LIMITS, used: () => store.added };
    for (let i = 0; ; i++) {
      // Parsed from a body, as createPet gets it.
      const pet = JSON.parse(JSON.stringify({ name: name(i), categoryId: 3, status: 'available' })) as NewPet;
      if ('full' in store.create(pet, budget)) break;
    }
    animals = store.added.pets;
    bytes = store.added.bytes;
    kept.push(store);
  }
  const per = (heapAfterGc() - before) / SESSIONS;
  console.log(`${label}: ${animals} animals, ${bytes} bytes of JSON; heap ${(per / 1024).toFixed(0)} KiB a session (${(per / bytes).toFixed(2)} heap bytes per JSON byte)`);
  if (kept.length !== SESSIONS) throw new Error('unreachable');
}

/**
 * Heap per journal of `SESSIONS` journals full of the largest entries a
 * client can make, each part made by the journal step's own functions from
 * the costliest input: a 16 KB query, the most headers the budget keeps
 * (32, each name new to the process, of 13 characters and values of 51:
 * the 2,048 characters in all; 32 long headers are cut to 3, and cost
 * less), a 1 MiB body and a 1 MiB answer past U+00FF (two-byte strings),
 * the reason no stub answered past U+00FF too, a 128-character session id,
 * and a full header record sent back. Each header string is a flat one of
 * its own, as node's parser makes them (a padEnd result is a rope, which
 * costs more than any request can).
 */
function fullJournals(): void {
  const before = heapAfterGc();
  const kept: RequestJournal[] = [];
  const requestBody = Buffer.from('🐕'.repeat(256 * 1024));
  const answer = `["${'é'.repeat(1024 * 1024)}"]`;
  for (let s = 0; s < SESSIONS; s++) {
    const journal = createRequestJournal(DEFAULT_JOURNAL_SIZE);
    for (let i = 0; i < DEFAULT_JOURNAL_SIZE; i++) {
      const { headers, truncated } = journalHeaders(costliestHeaders(i));
      journal.append({
        seq: 0,
        at: new Date().toISOString(),
        session: ownCopy(`${i}`.padEnd(128, 's')),
        method: 'DELETE',
        path: journalPath(`/v1/pets/${i}?${'q'.repeat(16_000)}`),
        status: 404,
        ms: 0.25,
        operation: null,
        scenario: 'validation-errors',
        stub: null,
        // Cut and copied as the journal step does (MAX_UNMATCHED).
        unmatched: ownCopy(`${`${'é'.repeat(600)}${i}`.slice(0, 512)}…`),
        request: journalMessage(headers, bodyText(requestBody), MAX_JOURNAL_REQUEST_BODY, truncated),
        response: journalMessage(sentHeaders(i), `${i}${answer}`, MAX_JOURNAL_RESPONSE_BODY),
      });
    }
    kept.push(journal);
  }
  const per = (heapAfterGc() - before) / SESSIONS;
  const entry = JSON.stringify(kept[0]?.entries()[0]).length;
  console.log(`journal of ${DEFAULT_JOURNAL_SIZE} largest entries (${entry} bytes of JSON each): heap ${(per / 1024).toFixed(0)} KiB a journal (${(per / DEFAULT_JOURNAL_SIZE).toFixed(0)} bytes an entry)`);
}

/**
 * The request headers that cost the most heap once journaled, measured
 * (docs/reference.md, Bounds): every header the budget keeps, as many as it keeps,
 * each name new (an object's property names are shared only when they
 * repeat). Lengths 13 + 51 fill MAX_JOURNAL_HEADERS_CHARS exactly; other
 * splits (longer names), shorter headers, and repeated names (joined into
 * one value) cost less, measured. Header values are latin1 (one byte a
 * character) and the path ASCII: node answers 400 to other bytes in a path.
 */
function costliestHeaders(entry: number): string[] {
  const length = MAX_JOURNAL_HEADERS_CHARS / MAX_JOURNAL_HEADERS;
  const flat = (text: string): string => Buffer.from(text, 'latin1').toString('latin1');
  return Array.from({ length: MAX_JOURNAL_HEADERS }, (_, n) => {
    const name = `x-${entry}-${n}-`.padEnd(13, 'n');
    return [flat(name), flat(`${entry}`.padEnd(length - name.length, 'v'))];
  }).flat();
}

/** The most headers an answer of the mock carries (CORS, deprecation, session, a stub's Retry-After), one record an answer as respond() builds it. */
const sentHeaders = (i: number): Record<string, string> => ({
  'content-type': 'application/json',
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'Deprecation, Sunset, Link, Location, WWW-Authenticate, Retry-After, Preference-Applied, X-Mock-Session',
  vary: 'Origin',
  deprecation: '@1795305600',
  sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
  link: '</v1/pets>; rel="successor-version"',
  'x-mock-session': ownCopy(`${i}`.padEnd(128, 's')),
  'retry-after': '5',
});

/**
 * Heap per session of `SESSIONS` sessions each holding MAX_SESSION_STUBS of
 * one stub, checked and added as `POST /__mock/stubs` does: the body parsed
 * anew for each, as each request brings its own.
 */
function fullStubs(label: string, text: string): void {
  if (Buffer.byteLength(text) > 64 * 1024) throw new Error(`${label}: ${Buffer.byteLength(text)} bytes, past the 64 KiB a stub may have`);
  const contract = loadContract();
  const before = heapAfterGc();
  const kept = [];
  for (let s = 0; s < SESSIONS; s++) {
    const stubs = memorySessionStubs();
    for (let i = 0; i < MAX_SESSION_STUBS; i++) {
      const stub = checkSessionStub(contract, JSON.parse(text), (stubs.list() as readonly SessionStub[]).map((x) => x.id));
      if (!stub.ok) throw new Error(`${label}: refused: ${stub.error.message}`);
      stubs.add(stub.value);
    }
    kept.push(stubs);
  }
  const per = (heapAfterGc() - before) / SESSIONS;
  console.log(`session stubs, ${label} (${Buffer.byteLength(text)} bytes): heap ${(per / 1024).toFixed(0)} KiB a session of ${MAX_SESSION_STUBS} (${(per / MAX_SESSION_STUBS / 1024).toFixed(0)} KiB a stub)`);
}

/** A createPet stub whose `equals` is `value`, then a string of `fill` characters up to 64 KiB. */
function stubFilledWith(value: string, fill: string): string {
  const wrap = (equals: string): string => `{"match":{"operation":"createPet","body":{"name":{"equals":${equals}}}},"fault":{"then":{"status":500}}}`;
  const room = 64 * 1024 - Buffer.byteLength(wrap(`[${value},""]`));
  return wrap(`[${value},${JSON.stringify(fill.repeat(Math.floor(room / Buffer.byteLength(fill))))}]`);
}

const emptyObjects = Array.from({ length: 1000 }, () => '{}').join(',');
const keyedObjects = `{${Array.from({ length: 1000 }, (_, i) => `"k${i}":{}`).join(',')}}`;
fullStubs('an object of 1,000 keys, each {}, then an ASCII string (the costliest found)', stubFilledWith(keyedObjects, 'a'));
fullStubs('1,000 empty objects, then an ASCII string', stubFilledWith(emptyObjects, 'a'));
fullStubs('1,000 empty objects, then a string past U+00FF', stubFilledWith(emptyObjects, '漢'));
fullStubs('a page of 100 animals', JSON.stringify({ match: { operation: 'listPets' }, response: { status: 200, body: Array.from({ length: 100 }, (_, i) => ({ id: i + 1, name: `animal ${i}`.padEnd(100, 'é'), categoryId: 1, status: 'available' })) } }));
fullSessions('small names (8 characters)', (i) => `Pet ${String(i).padStart(4, '0')}`);
fullSessions('names of 150 ASCII characters', (i) => `${i}`.padEnd(150, 'n'));
fullSessions('names of 150 characters, one emoji (two-byte strings)', (i) => `${i}🐕`.padEnd(150, 'n'));
fullSessions('names of 40 characters, one emoji (two-byte strings)', (i) => `${i}🐕`.padEnd(40, 'n'));
fullSessions('names of 100 KiB ASCII', (i) => `${i}`.padEnd(100 * 1024, 'n'));
fullSessions('names of 100 Ki characters, one emoji (two-byte strings)', (i) => `${i}🐕`.padEnd(100 * 1024, 'n'));
fullJournals();
