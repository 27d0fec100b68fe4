import { CREATED_NAME_PREFIX } from '../catalogue-fill.js';
import { jsonText } from '../generate/json-text.js';
import { answerOf } from '../silent-log.js';
import type { RuleContext } from '../types.js';
import type { RecordedExchange } from '../../verdict/exchange.js';
import { nameLengthNote } from '../../shared/profile/learn/noted-answers.js';
import { JSON_BODY } from './expect.js';

/** The longest name sent, the longest accepted and the shortest refused for what may be its length, in code points, with the requests that show them. */
export interface NameLengths {
  sent: number;
  accepted: number;
  acceptedBy?: RecordedExchange;
  refused: number;
  refusedBy?: RecordedExchange;
}

export const noNameLengths = (): NameLengths => ({ sent: 0, accepted: -1, refused: Infinity });

/** Probes at most this many lengths: a boundary between 0 and 1 MiB of name is found in 21. */
const MOST_PROBES = 24;

/**
 * Where names stop being accepted, when the run saw a name refused that
 * nothing else explains: a refusal with its own code at a length is a
 * limit, but only if names of that length are refused whatever their
 * characters, and shorter ones accepted. So the boundary is searched with
 * names of plain ASCII letters (one code point, one byte each), each name
 * its own (a server may refuse one it holds): first at the refused length,
 * then halving the gap to the longest accepted. An answer that is neither a
 * 201 nor the refusal's own ends the search, and what was seen before
 * stands. Returns the requests it sent.
 */
export async function probeNameBoundary(context: RuleContext, lengths: NameLengths, base: Record<string, unknown>): Promise<number> {
  if (lengths.refusedBy === undefined || !Number.isFinite(lengths.refused)) return 0;
  const refusal = answerOf(lengths.refusedBy);
  let low = Math.max(lengths.accepted, 0);
  let high = lengths.refused;
  let sent = 0;
  const tryLength = async (length: number): Promise<'accepted' | 'refused' | 'other'> => {
    const name = probeName(context.seed, sent++, length);
    const { exchange } = await context.probe({ method: 'POST', path: '/pets', headers: JSON_BODY, body: jsonText({ ...base, name }) });
    const status = exchange.response?.status;
    if (status === 201) {
      Object.assign(lengths, { accepted: length, acceptedBy: exchange });
      return 'accepted';
    }
    if (status === 400 && answerOf(exchange) === refusal) {
      Object.assign(lengths, { refused: length, refusedBy: exchange });
      return 'refused';
    }
    return 'other';
  };
  // Refused in plain letters too: it is the length, not the characters. Else no length was refused.
  if ((await tryLength(high)) !== 'refused') {
    delete lengths.refusedBy;
    lengths.refused = Infinity;
    return sent;
  }
  while (high - low > 1 && sent < MOST_PROBES) {
    const middle = Math.floor((low + high) / 2);
    const outcome = await tryLength(middle);
    if (outcome === 'other') break;
    if (outcome === 'accepted') low = middle;
    else high = middle;
  }
  return sent;
}

/** A name of exactly `length` code points, different for each probe, marked as the harness's when it is long enough to carry the mark. */
function probeName(seed: number, index: number, length: number): string {
  const mark = `${CREATED_NAME_PREFIX} length ${seed} ${index} `;
  if (length >= mark.length) return mark + 'x'.repeat(length - mark.length);
  let letters = '';
  for (let n = index; letters.length === 0 || n > 0; n = Math.floor(n / 26)) letters += String.fromCharCode(97 + (n % 26));
  return letters.padEnd(length, 'x').slice(0, length);
}

/** What the run saw of name lengths, into the silent log. */
export function observeLengths(context: RuleContext, lengths: NameLengths): void {
  if (lengths.acceptedBy) context.observe('name-length', nameLengthNote.sayAccepted(lengths.accepted, lengths.sent), lengths.acceptedBy);
  if (lengths.refusedBy) context.observe('name-length', nameLengthNote.sayRefused(lengths.refused, answerOf(lengths.refusedBy)), lengths.refusedBy);
}
