import { stringifyExactJson } from '../../exact-json/stringify-exact-json.js';

/**
 * How the harness's rules write down an answer at a profile point (the
 * silent log keeps answers as text, for reports and the drift report), and
 * how the point's learner reads it back: each phrasing once, beside its
 * reading, so the two cannot part.
 */

/** A NewPet the target took where it might have refused it (empty name, control characters, a taken name, a chunked body). */
export const ACCEPTED = '201 (accepted)';

/** A NewPet with a member it does not name, taken, and that member given back in the Pet: the mock keeps only NewPet's own. */
export const MEMBER_ECHOED = '201 (accepted, the member echoed)';

/** Which of a member named twice the Pet created holds: the first one sent, or the last. */
export const duplicateMemberNote = {
  say: (which: 'first' | 'last'): string => `201 (the ${which} member)`,
  read: (answer: string): 'first-wins' | 'last-wins' | undefined => (answer === '201 (the first member)' ? 'first-wins' : answer === '201 (the last member)' ? 'last-wins' : undefined),
};

/** A request answered as it is without the part in question (an unknown query parameter). */
export const AS_WITHOUT_IT = 'answered as without it';

/** listPets' order, from its ids. */
export const orderNote = {
  say: (order: 'ascending' | 'descending' | undefined): string => (order === undefined ? 'neither ascending nor descending by id' : `${order} by id`),
  read: (answer: string): 'ascending' | 'descending' | undefined => /^(ascending|descending) by id$/.exec(answer)?.[1] as 'ascending' | 'descending' | undefined,
};

/** The `status` of an animal created without one: left out, or the JSON value. */
export const defaultStatusNote = {
  say: (status: unknown): string => (status === undefined ? 'left out' : `status ${stringifyExactJson(status)}`),
  read: (answer: string): 'none' | 'available' | 'pending' | 'sold' | undefined =>
    answer === 'left out' ? 'none' : (/^status "(available|pending|sold)"$/.exec(answer)?.[1] as 'available' | 'pending' | 'sold' | undefined),
};

/** `Location` with 201: not sent, or sent with the id written `{id}`. */
export const locationNote = {
  say: (location: string | undefined): string => (location === undefined ? 'not sent' : `sent (${location.replace(/\d+$/, '{id}')})`),
  read: (answer: string): 'sent' | 'not-sent' | undefined => (answer === 'not sent' ? 'not-sent' : answer.startsWith('sent ') ? 'sent' : undefined),
};

/** The longest name accepted, and the answer to the shortest refused, in code points (as JSON Schema's maxLength counts). */
export const nameLengthNote = {
  sayAccepted: (accepted: number, sent: number): string => `accepted up to ${accepted} code points (the longest sent: ${sent})`,
  sayRefused: (refused: number, answer: string): string => `the shortest name refused for its length had ${refused} code points: ${answer}`,
  readAccepted: (answer: string): number | undefined => {
    const accepted = /^accepted up to (\d+) /.exec(answer)?.[1];
    return accepted === undefined ? undefined : Number(accepted);
  },
  readRefused: (answer: string): { length: number; answer: string } | undefined => {
    const match = /^the shortest name refused for its length had (\d+) code points: (.*)$/.exec(answer);
    return match ? { length: Number(match[1]), answer: match[2] as string } : undefined;
  },
};

/** The largest body accepted, and the answer one byte past it; or every size sent accepted. */
export const bodySizeNote = {
  sayUnlimited: (largest: number): string => `accepted ${largest} bytes (past 1 MiB)`,
  sayRefused: (accepted: number, refused: number, answer: string): string => `accepted up to ${accepted} bytes; ${refused} bytes: ${answer}`,
  readRefused: (answer: string): { max: number; answer: string } | undefined => {
    const match = /^accepted up to (\d+) bytes; \d+ bytes: (.*)$/.exec(answer);
    return match ? { max: Number(match[1]), answer: match[2] as string } : undefined;
  },
};

/** A listPets answer that is a page: its size (`200 with 20 animals`). */
export const pageNote = {
  say: (size: number): string => `200 with ${size} animals`,
  read: (answer: string): number | undefined => {
    const size = /^200 with (\d+) animals$/.exec(answer)?.[1];
    return size === undefined ? undefined : Number(size);
  },
};

/**
 * A listPets page to `limit=1&limit=2`, on a catalogue of three animals or
 * more: the first value read, the last, or neither (answered as without
 * `limit`, the refused value ignored); an Error is noted as it came.
 */
export const repeatedNote = {
  say: (size: number): string => (size === 1 ? 'the first value read' : size === 2 ? 'the last value read' : AS_WITHOUT_IT),
  read: (answer: string): 'refused' | 'first' | 'last' | undefined =>
    answer === 'the first value read' ? 'first' : answer === 'the last value read' ? 'last' : answer === AS_WITHOUT_IT || /^4\d\d\b/.test(answer) ? 'refused' : undefined,
};

/** A `petId` text some reading takes as an id (`+5`): its answer may be the unknown id's, not the answer to a text that is no id. */
export const MAY_BE_READ = 'a reading may take it as an id';

/** A petId or an integer field past the int64 range, told apart: a server may answer it otherwise than other refused values. */
export const PAST_INT64 = 'past int64';

/** The deprecation signals one getPet answer carried: `200: Deprecation, Sunset, Link` or `401: none`. */
export const deprecationNote = {
  say: (status: number, headers: Readonly<Record<string, string>>): string => {
    const signals = [headers.deprecation === undefined ? [] : ['Deprecation'], headers.sunset === undefined ? [] : ['Sunset'], /successor-version/i.test(headers.link ?? '') ? ['Link'] : []].flat();
    return `${status}: ${signals.length > 0 ? signals.join(', ') : 'none'}`;
  },
  read: (answer: string): { success: boolean; deprecation: boolean; link: boolean } | undefined => {
    const match = /^(\d{3}): (.*)$/.exec(answer);
    if (!match) return undefined;
    const signals = (match[2] as string).split(', ');
    return { success: (match[1] as string).startsWith('2'), deprecation: signals.includes('Deprecation'), link: signals.includes('Link') };
  },
};

/** A 401 without `WWW-Authenticate`, as the auth rules note its challenge. */
export const NO_CHALLENGE = 'none';

/** What an empty `Authorization` header got, beside a request without one and one with a wrong key. */
export const emptyAuthorizationNote = {
  // Where a missing key and a wrong one are answered alike, either reading gives that answer: noted as the mock's own, the header being there.
  say: (empty: string, missing: string, wrong: string): string =>
    empty === wrong ? 'as a wrong key' : empty === missing ? 'as without the header' : `${empty} (without the header: ${missing}; a wrong key: ${wrong})`,
  read: (answer: string): 'missing-key' | 'wrong-key' | undefined => (answer === 'as without the header' ? 'missing-key' : answer === 'as a wrong key' ? 'wrong-key' : undefined),
};
