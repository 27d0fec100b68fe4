import { CREATED_NAME_PREFIX } from '../catalogue-fill.js';
import { answerOf, errorCodeOf } from '../silent-log.js';
import type { Probe, Rule, RuleContext } from '../types.js';
import type { FixedSilentPoint, Statement } from '../../verdict/report.js';
import { ACCEPTANCE } from './acceptance-statements.js';
import { createdAsSent } from './created-as-sent.js';
import { JSON_BODY } from './expect.js';
import { finding, sweep } from './generated.js';
import { cite } from './statements.js';
import { ACCEPTED, duplicateMemberNote } from '../../shared/profile/learn/noted-answers.js';

/** A case: `pet` is what is sent (as its JSON), or, with `first`, the last of two NewPets one body names `name` twice for. */
type NameCase = { label: string; point: FixedSilentPoint; pet: Record<string, unknown>; first?: Record<string, unknown>; headers: Record<string, string>; refusal: number; statement: Statement; before?: true };

/**
 * One request at each point of createPet a server may answer either way
 * where the interface is silent, every run alike, so a profile learns each
 * from any run: an empty name, a name with a control character, a name
 * already taken (sent twice: the first creates it), a body sent
 * chunked, and a body that names `name` twice (RFC 8259 §4). Each is a
 * valid NewPet: 201 with the animal as sent (for `name` twice, either of
 * the two), or the refusal a server may make there (400; 411 for a chunked
 * body, RFC 9112 §6.3), with an Error body. Never a 5xx.
 */
function cases(seed: number): NameCase[] {
  const name = (what: string) => `${CREATED_NAME_PREFIX} ${what} ${seed}`;
  const taken = { name: name('taken'), categoryId: 1, status: 'sold' };
  const named = { headers: JSON_BODY, refusal: 400, statement: ACCEPTANCE.silentName };
  return [
    { label: 'an empty name', point: 'empty-name', pet: { name: '', categoryId: 1, status: 'sold' }, ...named },
    { label: 'a name with a control character (U+0007)', point: 'control-characters', pet: { name: `${name('bell')}\u0007`, categoryId: 1, status: 'sold' }, ...named },
    { label: 'a name to be taken', point: 'taken-name', pet: taken, ...named, before: true },
    { label: 'a name an animal already has', point: 'taken-name', pet: taken, ...named },
    { label: 'a body sent chunked', point: 'chunked-body', pet: { name: name('chunked'), categoryId: 1, status: 'sold' }, headers: { ...JSON_BODY, 'transfer-encoding': 'chunked' }, refusal: 411, statement: ACCEPTANCE.chunked },
    {
      label: 'the member name twice',
      point: 'duplicate-member',
      first: { name: name('first of two'), categoryId: 1, status: 'sold' },
      pet: { name: name('last of two'), categoryId: 1, status: 'sold' },
      headers: JSON_BODY,
      refusal: 400,
      statement: ACCEPTANCE.repeatedMember,
    },
  ];
}

/** The body a case sends: its NewPet's JSON, or, for a member named twice, the first NewPet's with the last's name after it. */
const bodyOf = (c: NameCase): string => (c.first ? `${JSON.stringify(c.first).slice(0, -1)},"name":${JSON.stringify(c.pet.name)}}` : JSON.stringify(c.pet));

/** The NewPet a 201 to a member named twice holds: the first, the last, or neither. */
function twiceJudged(context: RuleContext, c: NameCase & { first: Record<string, unknown> }, probe: Probe) {
  const name = (probe.exchange.response?.json as { name?: unknown } | undefined)?.name;
  const which = name === c.first.name ? 'first' : name === c.pet.name ? 'last' : undefined;
  if (which === undefined) return [finding(probe.exchange, `answered 201 with the name ${JSON.stringify(name)}, neither of the two sent`, `the animal with the first or the last name sent (${cite(c.statement)})`, '$.body.name')];
  context.observe(c.point, duplicateMemberNote.say(which), probe.exchange);
  return createdAsSent(probe, which === 'first' ? c.first : c.pet, c.statement.text);
}

function judge(context: RuleContext, c: NameCase, probe: Probe, created: Set<string>) {
  const { exchange } = probe;
  const status = exchange.response?.status;
  if (c.before) {
    // Only its twin's answer is the point: this one must create the animal for the twin to meet it.
    if (status === 201) created.add(String(c.pet.name));
    return status === 201 ? createdAsSent(probe, c.pet, c.statement.text) : [];
  }
  if (c.point === 'taken-name' && !created.has(String(c.pet.name))) return [];
  if (status === 201 && c.first) return twiceJudged(context, { ...c, first: c.first }, probe);
  if (status === 201) {
    context.observe(c.point, ACCEPTED, exchange);
    return createdAsSent(probe, c.pet, c.statement.text);
  }
  if (status === c.refusal && errorCodeOf(exchange) !== undefined) {
    context.observe(c.point, answerOf(exchange), exchange);
    return [];
  }
  return [finding(exchange, `answered ${answerOf(exchange)} to a valid NewPet with ${c.label}`, `201 with the animal, or ${c.refusal} with an Error body (${cite(c.statement)})`, '$.status')];
}

export const silentChoiceRules: Rule[] = [
  {
    id: 'create-silent-choices',
    title: 'createPet with an empty name, a control character, a name already taken, a body sent chunked, or the member name twice: 201 with the animal (either name, for the member twice), or a clear refusal (400; 411 for chunked); never a 5xx',
    operation: 'createPet',
    writes: true,
    severity: 'contract',
    statement: ACCEPTANCE.silentName,
    async run(context) {
      const created = new Set<string>();
      return sweep(
        context,
        cases(context.seed),
        (c) => context.probe({ method: 'POST', path: '/pets', headers: c.headers, body: bodyOf(c) }),
        (c, probe) => judge(context, c, probe, created),
      );
    },
  },
];
