import type { ProfiledError } from '../profile-choice-types.js';

/** One distinct answer a target gave at a point where the interface is silent, as the harness's silent log notes it. */
export interface SilentAnswer {
  answer: string;
  count: number;
  /** The first request that got it, as a curl line. */
  example: string;
}

export type Answers = readonly SilentAnswer[];
/** A point's choice, or why the run could not learn one (the mock then keeps its own). */
export type Learned<T> = { ok: true; value: T } | { ok: false; why: string };

export const learned = <T>(value: T): Learned<T> => ({ ok: true, value });
export const unlearned = (why: string): Learned<never> => ({ ok: false, why });

/** The target's answers, as a note lists them: `400 bad_json (3), 400 empty_body`. */
export const listed = (answers: Answers): string => answers.map((a) => (a.count > 1 ? `${a.answer} (${a.count})` : a.answer)).join(', ');
export const inconsistent = (answers: Answers): Learned<never> => unlearned(`answered in more than one way (${listed(answers)}): no one choice to follow`);

/** An answer the silent log noted with what it was about, `400 bad_name (name)`: the answer, and `name`. */
export function untagged(answer: string): { answer: string; tag: string | undefined } {
  const match = /^(.*) \(([^()]*)\)$/.exec(answer);
  return match ? { answer: match[1] as string, tag: match[2] } : { answer, tag: undefined };
}

/** `400 bad_json` → an Error answer the mock can serve where `allowed` are the statuses the contract allows, or why not. */
export function errorAnswer(allowed: readonly number[], answer: string): Learned<ProfiledError> {
  const match = /^(\d{3}) ([A-Za-z][A-Za-z0-9_.:-]{0,63})$/.exec(answer);
  if (!match) return unlearned(`answered ${answer}, not an Error with a code the mock can send`);
  const status = Number(match[1]);
  if (!allowed.includes(status)) return unlearned(`answered ${answer}: the mock answers only ${allowed.join(' or ')} there, as the contract allows`);
  return learned({ status, code: match[2] as string });
}

/** One Error answer for every request of the point. */
export function oneError(allowed: readonly number[], answers: Answers): Learned<ProfiledError> {
  return answers.length === 1 ? errorAnswer(allowed, (answers[0] as Answers[number]).answer) : inconsistent(answers);
}

/** One answer of a few known phrasings for every request of the point. */
export function oneOf<T>(answers: Answers, read: (answer: string) => T | undefined): Learned<T> {
  if (answers.length !== 1) return inconsistent(answers);
  const value = read((answers[0] as Answers[number]).answer);
  return value === undefined ? unlearned(`answered ${listed(answers)}, which the mock cannot serve`) : learned(value);
}

/** The same answers with their tags taken off, alike ones merged: `400 bad_name (name)` and `400 bad_name (status)` are one. */
export function withoutTags(answers: Answers): Answers {
  const merged = new Map<string, Answers[number]>();
  for (const a of answers) {
    const answer = untagged(a.answer).answer;
    const seen = merged.get(answer);
    merged.set(answer, seen ? { ...seen, count: seen.count + a.count } : { ...a, answer });
  }
  return [...merged.values()];
}
