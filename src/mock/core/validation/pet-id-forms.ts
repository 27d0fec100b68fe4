import type { PetIdForm } from '../../../shared/profile/profile-choice-types.js';

const PLAIN = /^-?[1-9]\d*$/;

/**
 * A `petId` as the profile's readings take it: the text in plain decimal
 * digits when one of `reads` makes it an id (`+7` with `plus-sign` is `7`),
 * the text itself when it is plain already, or undefined for a form the
 * profile does not read (`007` without `leading-zeros`), which then gets
 * the profile's answer to a petId that is not an int64.
 *
 * The interface says petId is an int64 and not how one is written in a
 * path, so a server may read any of these forms as the id or refuse it;
 * a profile follows the target's own reading. Only whole forms are read:
 * `7abc` or `7.5` name no id under any reading.
 */
export function petIdText(raw: string, reads: readonly PetIdForm[]): string | undefined {
  // Plain digits, the form nearly every request has: no reading changes them.
  if (PLAIN.test(raw)) return raw;
  let text = raw;
  if (reads.includes('leading-space')) text = text.replace(/^ +/, '');
  // A plus sign before digits only: `+-7` is no way of writing -7.
  if (reads.includes('plus-sign') && /^\+\d/.test(text)) text = text.slice(1);
  if (reads.includes('hexadecimal')) {
    const hex = /^(-?)0[xX]([0-9a-fA-F]{1,16})$/.exec(text);
    if (hex) text = `${hex[1]}${BigInt(`0x${hex[2]}`)}`;
  }
  if (reads.includes('decimal-zero')) text = text.replace(/^(-?\d+)\.0+$/, '$1');
  if (reads.includes('exponent')) {
    // A non-negative exponent of ten: 7e0 is 7, 1e1 is 10 (at most 19 zeros: past that no int64 is left).
    const exponent = /^(-?\d+)[eE]\+?(\d{1,2})$/.exec(text);
    if (exponent && Number(exponent[2]) <= 19) text = `${exponent[1]}${'0'.repeat(Number(exponent[2]))}`;
  }
  // A zero followed by more digits, signed or not: read as the id only with `leading-zeros`.
  if (!reads.includes('leading-zeros') && /^-?0\d/.test(text)) return undefined;
  return text;
}
