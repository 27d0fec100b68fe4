import { hmac } from '@noble/hashes/hmac.js';
import { sha256 as nobleSha256 } from '@noble/hashes/sha2.js';

/**
 * SHA-256 and HMAC-SHA-256, synchronous, in every runtime. Web Crypto's
 * `subtle.digest` is asynchronous, and these are needed where a request is
 * answered synchronously (a key check, a session id), so the engine uses
 * @noble/hashes, which needs no `node:crypto`. Both are called once per
 * distinct input at most on the request path (their results are cached).
 */
const encoder = new TextEncoder();
const bytesOf = (data: string | Uint8Array): Uint8Array => (typeof data === 'string' ? encoder.encode(data) : data);

export const sha256 = (data: string | Uint8Array): Uint8Array => nobleSha256(bytesOf(data));

export const hmacSha256 = (key: Uint8Array, data: string | Uint8Array): Uint8Array => hmac(nobleSha256, key, bytesOf(data));

export const toHex = (bytes: Uint8Array): string => {
  let hex = '';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return hex;
};

export const toBase64 = (bytes: Uint8Array): string => {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
};

/** Whether two byte strings of one length are equal, looking at every byte whatever differs first. */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i += 1) difference |= (a[i] as number) ^ (b[i] as number);
  return difference === 0;
}

/** `length` random bytes from the runtime's Web Crypto (node 20 has it as a global too). */
export const randomBytes = (length: number): Uint8Array => crypto.getRandomValues(new Uint8Array(length));
