import type { DriftGroup, NotCopied } from '../../verdict/drift-report.js';
import { NO_CHALLENGE } from '../../shared/profile/learn/noted-answers.js';
import { questionOf } from '../silent-log.js';
import { decodeUnreserved } from '../../shared/uri-normal-form.js';

/**
 * A difference the mock will not copy, whatever a profile says: a choice of
 * the target that breaks what HTTP requires of every server, or one at a
 * request no operation of the interface names. Drift there is the
 * target's, so it is listed once, with the reason, not as drift on every
 * case.
 */
interface NotCopiedChoice {
  what: string;
  why: string;
  /** Whether a group is this difference: one side does it, whichever side the target is. */
  matches(group: DriftGroup): boolean;
}

const either = (group: DriftGroup, answer: string): boolean => group.a === answer || group.b === answer;

/** A cause at a request whose path ends in an empty segment (`POST /pets/: status`, `GET /pets/1/?_=1 404: header Link`). */
const EMPTY_LAST_SEGMENT = /^[A-Z]+ \S*\/(\?\S*)?( \d{3})?: /;

/** A cause's request target (`GET //v1/pets: status` → `//v1/pets`), when it names no operation. */
const targetOfCause = (cause: string): string | undefined => /^[A-Z]+ (\S+?)( \d{3})?: /.exec(cause)?.[1];

/** A target in a form RFC 3986 does not call the same as the plain one: `//`, `;`, `%2F`, `\`, a fragment, an empty query piece, the path in another case (its letters spelled `%50` too). */
const otherForm = (target: string): boolean =>
  /\/\/|;|%2f|\\|#/i.test(target) || /\?(&|$)|&$/.test(target) || /[A-Z]/.test(decodeUnreserved(target.split('?')[0] ?? '').replace(/%[0-9a-fA-F]{2}/g, ''));

const NOT_COPIED: readonly NotCopiedChoice[] = [
  {
    what: 'the answer to a target RFC 3986 does not call the same as the plain one (//, another case, ;x=1, %2F, \\, #x, an empty query piece)',
    why: 'another path or query than the interface names (RFC 3986 §3.3, §6.2.2.1, §2.2, §6.2.3; RFC 9112 §3.2), which no profile point covers; the mock answers it as its router reads it',
    // A difference at such a request (first: with an empty last segment too, `/v1/pets/?&`, the form is why), or in what the silent log noted of them.
    matches: (group) => {
      const target = targetOfCause(group.cause);
      return (target !== undefined && otherForm(target)) || group.cause === questionOf('uri-forms');
    },
  },
  {
    what: 'the answer to a path with an empty last segment (/pets/)',
    why: 'the interface names /pets and /pets/{petId}, and RFC 3986 §6.2.3 makes only an empty path "/": /pets/ is another path, which no profile point covers; the mock answers it as any path the document does not have',
    matches: (group) => EMPTY_LAST_SEGMENT.test(group.cause),
  },
  {
    what: 'the answer to an OPTIONS request (with a method override, or a CORS preflight)',
    why: 'the interface names no OPTIONS: a server may answer it as a CORS preflight (204, no key: a preflight carries no credentials) or refuse it (401, 405); the harness holds only that nothing is stored without the key, and no profile point covers it',
    matches: (group) => /^OPTIONS \S+: /.test(group.cause),
  },
  {
    what: 'a 401 without WWW-Authenticate',
    why: 'RFC 9110 §11.6.1: a server generating a 401 must send a WWW-Authenticate challenge, so the mock always does (the profile copies the challenge itself)',
    // An operation's 401, or one to a request that names no operation (`HEAD /pets 401`; a GET sent under another name in Host).
    matches: (group) => (/^(\w+|[A-Z]+ \S+) 401: header WWW-Authenticate$/.test(group.cause) && either(group, 'absent')) || (group.cause === questionOf('challenge') && either(group, NO_CHALLENGE)),
  },
];

/** The groups the mock will not copy, set apart: each choice once, with its reason and the cases it covers. */
export function setApartNotCopied(groups: readonly DriftGroup[]): { groups: DriftGroup[]; notCopied: NotCopied[] } {
  const notCopied: NotCopied[] = [];
  const kept: DriftGroup[] = [];
  for (const group of groups) {
    const choice = NOT_COPIED.find((c) => c.matches(group));
    if (!choice) {
      kept.push(group);
      continue;
    }
    const seen = notCopied.find((n) => n.what === choice.what);
    if (seen) seen.cases += group.cases;
    else notCopied.push({ what: choice.what, why: choice.why, cases: group.cases });
  }
  return { groups: kept, notCopied };
}
