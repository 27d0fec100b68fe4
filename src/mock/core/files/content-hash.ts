import { sha256, toHex } from '../../../shared/digest.js';

/**
 * A short hash of a file's content (the first 12 hex digits of its
 * SHA-256): in the names of the API reference's files, so they can be
 * cached for good, and in every served file's ETag. 48 bits tell apart
 * the few files of one package; they are no security measure.
 */
export const contentHash = (body: string | Uint8Array): string => toHex(sha256(body)).slice(0, 12);
