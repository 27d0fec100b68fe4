import { contentHash } from './content-hash.js';

/** A file served from memory, with its strong validator. */
export interface StaticFile {
  readonly body: string | Uint8Array;
  readonly type: string;
  /**
   * A strong entity tag (RFC 9110 §8.8.3): a hash of the exact bytes, made
   * once when the file is read, so a browser revalidating a `no-cache`
   * file gets a 304 instead of the whole file again.
   */
  readonly etag: string;
}

export const staticFile = (body: string | Uint8Array, type: string): StaticFile => ({ body, type, etag: `"${contentHash(body)}"` });
