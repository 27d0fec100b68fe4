import { decodeBody } from '../verdict/decode-body.js';
import type { ReceivedResponse } from '../verdict/exchange.js';

/** Of a body not read to its end, only this much is kept: the reports show 2,000 characters at most. */
export const CUT_BODY_KEPT = 4096;

export interface Limits {
  timeoutMs: number;
  maxBodyBytes: number;
  /** Aborts the request in flight: the run was stopped (Ctrl-C). */
  signal?: AbortSignal | undefined;
  /** The request target as written when it is not the URL's path and query: the absolute-form (RFC 9112 §3.2.2). */
  target?: string;
}

export type Transport = (url: string, method: string, headers: Record<string, string | string[]>, body: string | undefined, limits: Limits) => Promise<RawResponse>;

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  unread?: ReceivedResponse['unread'];
  afterward?: ReceivedResponse['afterward'];
}

/**
 * A body's chunks as they arrive, kept until they pass the cap. An answer
 * whose body passed it, or did not end in time, is still an answer: its
 * status and headers came, so it is judged (one finding) and never retried,
 * and a wrong base URL answering endless 404s still shows as 404s.
 */
export function bodyReader(status: number, headers: Record<string, string>, { timeoutMs, maxBodyBytes }: Limits) {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const cut = (unread: NonNullable<RawResponse['unread']>): RawResponse => ({ status, headers, body: Buffer.concat(chunks).subarray(0, CUT_BODY_KEPT).toString('utf8'), unread });
  return {
    /** Keeps a chunk; false once the body has passed the cap (that chunk is not kept). */
    add(chunk: Uint8Array): boolean {
      size += chunk.byteLength;
      if (size > maxBodyBytes) return false;
      chunks.push(chunk);
      return true;
    },
    /** The whole body, its Content-Encoding undone: the cap counts the bytes decoded. */
    decoded(): RawResponse {
      const decoded = decodeBody(Buffer.concat(chunks), headers['content-encoding'], maxBodyBytes);
      if (decoded.ok) return { status, headers, body: decoded.body.toString('utf8') };
      if (decoded.tooLarge) return this.tooLarge();
      return cut({ reason: decoded.reason, expected: 'a body in the content coding its Content-Encoding names, one the request accepts (RFC 9110 §8.4, §12.5.3)' });
    },
    tooLarge: () =>
      cut({
        reason: `the answer's body passed ${byteSize(maxBodyBytes)}: not read further`,
        expected: `a body of at most ${byteSize(maxBodyBytes)} (--max-body-bytes): the largest answer, a listPets page, holds at most 100 animals`,
      }),
    tooSlow: () => cut({ reason: `the answer's body did not end within ${timeoutMs} ms: not read further`, expected: `the whole answer within ${timeoutMs} ms (--timeout)` }),
  };
}

/** 1048576 → `1 MiB`, 2048 → `2 KiB`, else bytes. */
function byteSize(bytes: number): string {
  if (bytes % 1024 ** 2 === 0) return `${bytes / 1024 ** 2} MiB`;
  if (bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}
