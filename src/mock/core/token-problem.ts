const TOKEN68 = /^[A-Za-z0-9\-._~+/]+=*$/;
const TOKEN68_CHARACTER = /[A-Za-z0-9\-._~+/=]/;

/**
 * Why a key cannot be sent as `Authorization: Bearer <key>`, or undefined
 * when it can. The message says where and what kind of character is wrong,
 * never the key: a mistyped secret is still a secret, and this goes to a
 * terminal or a CI log.
 */
export function tokenProblem(what: string, key: string): string | undefined {
  if (TOKEN68.test(key)) return undefined;
  const chars = [...key];
  const at = chars.findIndex((char) => !TOKEN68_CHARACTER.test(char));
  const where = at === -1 ? `an '=' before its end (padding comes last)` : `${characterKind(chars[at] as string)} at character ${at + 1} of ${chars.length}`;
  return `${what} cannot be sent as a bearer token: it has ${where}; RFC 6750 §2.1 allows A-Z a-z 0-9 - . _ ~ + / and trailing =`;
}

/** What kind of character a refused one is, named without showing it. */
function characterKind(char: string): string {
  if (char === ' ') return 'a space';
  if (/\s/.test(char)) return 'white space';
  if (/[\u0000-\u001f\u007f]/.test(char)) return 'a control character';
  if (char.charCodeAt(0) > 0x7e) return 'a character outside ASCII';
  return 'a punctuation mark';
}
