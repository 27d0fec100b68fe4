import { CREATED_NAME_PREFIX } from '../catalogue-fill.js';
import { answerOf } from '../silent-log.js';
import type { Rule } from '../types.js';
import { ACCEPTANCE } from './acceptance-statements.js';
import { createdAsSent } from './created-as-sent.js';
import { JSON_BODY } from './expect.js';
import { finding, sweep } from './generated.js';
import { cite } from './statements.js';
import { ACCEPTED, MEMBER_ECHOED } from '../../shared/profile/learn/noted-answers.js';

/**
 * Members NewPet does not name, each added once to a valid NewPet. The
 * document gives NewPet no `additionalProperties: false`, so each body is
 * valid; a strict server may still refuse what it does not know (the
 * interface is silent), so the answer is 201 (the member ignored) or a
 * clear 400, never a 5xx. Pet does not forbid other members either, so an
 * echoed member is no fault; an echoed `id` is create-ignores-client-id's.
 * Written as JSON text, so `__proto__` is a member, not a prototype.
 */
export const EXTRA_MEMBERS: ReadonlyArray<{ label: string; member: string; value: string }> = [
  { label: 'a string member', member: 'nickname', value: '"Rex"' },
  { label: 'the member Pet has and NewPet has not', member: 'id', value: '9876543210' },
  { label: 'an array member', member: 'tags', value: '["friendly","small"]' },
  { label: 'an object member', member: 'owner', value: '{"name":"Ada","since":2020}' },
  { label: 'a null member', member: 'note', value: 'null' },
  { label: 'a member named __proto__', member: '__proto__', value: '{"status":"sold","polluted":true}' },
];

export const extraMemberRules: Rule[] = [
  {
    id: 'create-extra-members',
    title: 'createPet with a member NewPet does not name (string, id, array, object, null, __proto__) answers 201 with the animal as sent, or a clear 400; never a 5xx',
    operation: 'createPet',
    writes: true,
    severity: 'contract',
    statement: ACCEPTANCE.extraMember,
    async run(context) {
      const cases = EXTRA_MEMBERS.map((extra, index) => {
        const pet = { name: `${CREATED_NAME_PREFIX} extra ${context.seed} ${index}`, categoryId: 1, status: 'pending' };
        return { ...extra, label: `a NewPet with ${extra.label} (${extra.member})`, pet, text: `${JSON.stringify(pet).slice(0, -1)},${JSON.stringify(extra.member)}:${extra.value}}` };
      });
      return sweep(
        context,
        cases,
        (c) => context.probe({ method: 'POST', path: '/pets', headers: JSON_BODY, body: c.text }),
        (c, probe) => {
          const status = probe.exchange.response?.status;
          if (status === 201) {
            const echoed = Object.hasOwn(Object(probe.exchange.response?.json), c.member) && c.member !== 'id';
            context.observe('extra-member', echoed ? MEMBER_ECHOED : ACCEPTED, probe.exchange);
            return createdAsSent(probe, c.pet, ACCEPTANCE.extraMember.text);
          }
          if (status === 400) {
            context.observe('extra-member', answerOf(probe.exchange), probe.exchange);
            return [];
          }
          return [finding(probe.exchange, `answered ${answerOf(probe.exchange)} to a valid NewPet with ${c.label}`, `201 (the member ignored) or 400 (${cite(ACCEPTANCE.extraMember)})`, '$.status')];
        },
      );
    },
  },
];
