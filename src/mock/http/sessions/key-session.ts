import { hmacSha256, toHex } from '../../../shared/digest.js';

/**
 * The session of a bearer key (`--session-per-key`): `key-` and 16 hex
 * digits of an HMAC of the key with a secret drawn at start-up, so ids
 * cannot be worked out from a key (or a key guessed from an id) outside
 * this process.
 */
export function keySession(authorization: string | undefined, secret: Uint8Array): string | undefined {
  const token = /^bearer +(\S+)/i.exec(authorization ?? '')?.[1];
  return token === undefined ? undefined : `key-${toHex(hmacSha256(secret, token)).slice(0, 16)}`;
}

const KEY_SESSION = /^key-[0-9a-f]{16}$/;

/** Whether `id` has the form `keySession` gives: with `--session-per-key` it names one key's session, and only that key's. */
export const isKeySession = (id: string): boolean => KEY_SESSION.test(id);
