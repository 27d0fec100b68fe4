import { stringifyExactJson } from '../../shared/exact-json/stringify-exact-json.js';
import { CREATED_NAME_PREFIX } from '../catalogue-fill.js';
import { petStatuses } from '../generate/schema-model.js';
import { ruleSeed } from '../generate/search.js';
import type { ApiRequest, Pet, Probe, Rule, RuleContext } from '../types.js';
import type { Statement } from '../../verdict/report.js';
import type { RecordedExchange, Finding } from '../../verdict/exchange.js';
import { finding, recordFailure, verdictOf } from './generated.js';
import { samePet } from './same-pet.js';
import { create } from './stateful-rules.js';
import { cite, STATEMENTS } from './statements.js';

/**
 * Schemathesis' `use_after_free` and `ensure_resource_availability`, for an
 * interface without delete: an id asked for before it exists gets 404, and
 * once an animal has it, getPet and the listing must show that animal at
 * once and keep showing it after other creates. A server that caches "not
 * found", indexes a new animal lazily, or loses or shifts animals as more
 * are created passes every rule that reads an animal only right after
 * creating it.
 *
 * The interface does not say ids are sequential, so the next id is not
 * predicted: the ids just past one assigned are asked for (no client can
 * have seen them), then animals are created; where one gets an id asked
 * for, that animal was asked for before it existed. Against a server whose
 * ids are not sequential no id coincides, and the other checks still hold.
 */
const AVAILABILITY: Statement = {
  section: 'Endpoints > Add an animal; Get an animal (deprecated)',
  text: '201: Pet, animal added, the body carries the assigned id. getPet 200: Pet, the animal exists; 404 only when the requested resource could not be found.',
};

/** Ids asked for past the last one assigned, and rounds of creates tried until one of them is given out. */
const AHEAD = 6;
const ROUNDS = 3;
const STATUSES = petStatuses();

interface Made {
  pet: Pet;
  create: RecordedExchange;
  /** The 404 the id got before the animal existed, when it was asked for. */
  asked?: RecordedExchange;
}

/** The probes a sequence sent and what it found, judged together at the end as one case. */
interface Sequence {
  context: RuleContext;
  probes: Probe[];
  problems: Finding[];
  made: Made[];
  asked: Map<number, RecordedExchange>;
  /** The 404s of ids later given out to an animal found wrong: the report replays them. */
  shown: Set<RecordedExchange>;
  tag: string;
}

async function send(seq: Sequence, request: ApiRequest): Promise<RecordedExchange> {
  const probe = await seq.context.probe(request);
  seq.probes.push(probe);
  return probe.exchange;
}

async function createOne(seq: Sequence, label: string, status: string | undefined): Promise<Made | undefined> {
  const probe = await create(seq.context, { name: `${CREATED_NAME_PREFIX} sequence ${seq.tag} ${label}`, categoryId: 1, ...(status ? { status } : {}) });
  seq.probes.push(probe);
  const { exchange } = probe;
  const pet = exchange.response?.json as Pet | undefined;
  if (exchange.response?.status !== 201 || typeof pet?.id !== 'number') {
    seq.problems.push(finding(exchange, `answered ${exchange.response?.status ?? 'nothing'} to a valid NewPet`, cite(STATEMENTS.createSuccess), '$.status'));
    return undefined;
  }
  const asked = seq.asked.get(pet.id);
  const made = asked ? { pet, create: exchange, asked } : { pet, create: exchange };
  seq.made.push(made);
  return made;
}

/** The words of a finding about an animal whose id was asked for before it existed; its 404 is then replayed too. */
function askedNote(seq: Sequence, made: Made): string {
  if (!made.asked) return '';
  seq.shown.add(made.asked);
  return `; its id was asked for before it existed and got ${made.asked.response?.status}`;
}

async function readBack(seq: Sequence, made: Made, when: string): Promise<void> {
  const exchange = await send(seq, { method: 'GET', path: `/pets/${made.pet.id}` });
  const { status, json } = exchange.response ?? {};
  if (status === 200 && samePet(json, made.pet)) return;
  const got = status === 200 ? `200 with ${stringifyExactJson(json)}` : `${status ?? 'nothing'}`;
  seq.problems.push(finding(exchange, `getPet ${made.pet.id} ${when} answered ${got}, created as ${stringifyExactJson(made.pet)}${askedNote(seq, made)}`, cite(AVAILABILITY), '$.body'));
}

/** The page of 100 of a status; every animal made with that status must be on it when it is complete. */
async function listed(seq: Sequence, status: string, when: string): Promise<number> {
  const exchange = await send(seq, { method: 'GET', path: `/pets?status=${encodeURIComponent(status)}&limit=100` });
  const pets = Array.isArray(exchange.response?.json) ? (exchange.response.json as Pet[]) : undefined;
  if (!pets) return Infinity;
  if (pets.length >= 100) return pets.length;
  for (const made of seq.made.filter((m) => m.pet.status === status)) {
    if (pets.some((p) => samePet(p, made.pet))) continue;
    seq.problems.push(finding(exchange, `animal ${made.pet.id} is not in the complete page of ${pets.length} ${status} animals ${when}${askedNote(seq, made)}`, cite(STATEMENTS.statusFilter), '$.body'));
  }
  return pets.length;
}

/**
 * One round: take the pages of each status (the shortest is B's status, so
 * that its page is complete); create A; ask at once for the ids just past
 * A's (404, or 200 where another client has taken them since); create B at
 * once, so that no other client is likely to take them all first; list B's
 * status before reading B (a server that lists an animal only once it has
 * been read shows here); read B and A; then create C without a status, and
 * D and E, the other creates after which all are read again.
 */
async function round(seq: Sequence, index: number, statuses: readonly string[]): Promise<void> {
  const sizes = await Promise.all(STATUSES.map((s) => listed(seq, s, 'before the next create')));
  const shortest = STATUSES[sizes.indexOf(Math.min(...sizes))] ?? (statuses[1] as string);
  const a = await createOne(seq, `${index} a`, statuses[0]);
  if (!a) return;
  const first = a.pet.id;
  const ahead = typeof first === 'number' ? Array.from({ length: AHEAD }, (_, k) => first + k + 1).filter((id) => Number.isSafeInteger(id)) : [];
  await Promise.all(ahead.map((id) => askBefore(seq, id)));
  const b = await createOne(seq, `${index} b`, shortest);
  if (!b) return;
  await listed(seq, shortest, 'asked right after it was created');
  await readBack(seq, b, 'right after it was created');
  await readBack(seq, a, 'after the next create');
  for (const [label, status] of [['c', undefined], ['d', statuses[2]], ['e', statuses[0]]] as const) await createOne(seq, `${index} ${label}`, status);
}

/** An id no client can have seen yet: 404, or 200 where another client has created it since. */
async function askBefore(seq: Sequence, id: number): Promise<void> {
  const exchange = await send(seq, { method: 'GET', path: `/pets/${id}` });
  const status = exchange.response?.status;
  if (status === 404) seq.asked.set(id, exchange);
  else if (status !== 200 && status !== undefined) seq.problems.push(finding(exchange, `getPet ${id} answered ${status}`, `200 or 404 (${cite(AVAILABILITY)})`, '$.status'));
}

async function readBeforeAndAfter(context: RuleContext, seed: number): Promise<Sequence> {
  const seq: Sequence = { context, probes: [], problems: [], made: [], asked: new Map(), shown: new Set(), tag: `${seed >>> 0} ${Date.now().toString(36)}` };
  const statuses = STATUSES.map((_, i) => STATUSES[((seed >>> 0) + i) % STATUSES.length] as string);
  for (let i = 0; i < ROUNDS && !seq.made.some((m) => m.asked); i++) {
    const before = seq.problems.length;
    await round(seq, i, statuses);
    if (seq.problems.length > before) break;
  }
  // Every animal made, read at once, after the creates that followed it; then each status page.
  await Promise.all(seq.made.map((made) => readBack(seq, made, 'after the animals created after it')));
  for (const status of new Set(seq.made.map((m) => m.pet.status).filter((s): s is NonNullable<Pet['status']> => s !== undefined))) await listed(seq, status, 'after the other creates');
  return seq;
}

export const readBeforeCreateRules: Rule[] = [
  {
    id: 'get-before-and-after-create',
    title: 'an id asked for before it exists gets 404; once created, the animal is readable and listed at once (before it is read), and still is after other creates',
    operation: 'createPet',
    writes: true,
    severity: 'contract',
    statement: AVAILABILITY,
    async run(context) {
      const seq = await readBeforeAndAfter(context, ruleSeed(context.seed, this.id));
      const verdict = verdictOf(seq.probes, seq.problems);
      const coincided = seq.made.filter((m) => m.asked).map((m) => m.pet.id);
      const about = `${seq.made.length} creates; ids asked for before they existed and then given out: ${coincided.length ? coincided.join(', ') : 'none (the ids asked for went to other animals, or ids are not sequential)'}`;
      if (verdict.ok) return { cases: seq.probes.length };
      // The report replays the creates, the 404s of ids later given to an animal found wrong, and the answers found wrong: not every read that passed.
      const shown = new Set([...seq.made.map((m) => m.create), ...seq.shown, ...verdict.failure.findings.map((f) => f.exchange)]);
      const exchanges = seq.probes.map((p) => p.exchange).filter((e) => shown.has(e));
      recordFailure(context, { ...verdict.failure, exchanges }, { case: about, tried: seq.probes.length, shrinks: 0 });
      return { cases: seq.probes.length };
    },
  },
];
