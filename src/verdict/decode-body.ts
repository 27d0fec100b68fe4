import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync } from 'node:zlib';

/** The content codings the harness decodes (RFC 9110 §8.4.1), by name in lower case. */
const DECODERS: Record<string, (body: Buffer, options: { maxOutputLength: number }) => Buffer> = {
  gzip: gunzipSync,
  'x-gzip': gunzipSync,
  // RFC 9110 §8.4.1.2: "deflate" is the zlib format; some servers send raw deflate, which clients accept too.
  deflate: (body, options) => {
    try {
      return inflateSync(body, options);
    } catch {
      return inflateRawSync(body, options);
    }
  },
  br: brotliDecompressSync,
};

/** `tooLarge`: it decodes past `maxBytes`, the bound and not the body at fault. */
export type Decoded = { ok: true; body: Buffer } | { ok: false; reason: string; tooLarge?: true };

/**
 * A body as sent, its Content-Encoding undone: codings are listed in the
 * order they were applied (RFC 9110 §8.4), so they are undone last first.
 * At most `maxBytes` are decoded, so a small body cannot grow without bound.
 */
export function decodeBody(body: Buffer, contentEncoding: string | undefined, maxBytes: number): Decoded {
  // No content has no coding to undo: an answer to HEAD carries the Content-Encoding GET's would (RFC 9110 §9.3.2), as a 304 does.
  if (body.length === 0) return { ok: true, body };
  const codings = (contentEncoding ?? '').split(',').map((c) => c.trim().toLowerCase()).filter((c) => c !== '' && c !== 'identity');
  let decoded = body;
  for (const coding of codings.reverse()) {
    const decoder = DECODERS[coding];
    if (!decoder) return { ok: false, reason: `the body is in the content coding ${coding}, which the harness cannot decode` };
    try {
      decoded = decoder(decoded, { maxOutputLength: maxBytes });
    } catch (error) {
      if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') return { ok: false, reason: `the body decodes past ${maxBytes} bytes`, tooLarge: true };
      return { ok: false, reason: `the body does not decode as Content-Encoding ${coding}: ${(error as Error).message}` };
    }
  }
  return { ok: true, body: decoded };
}

/**
 * The coding of the answer that the request's Accept-Encoding (RFC 9110 §12.5.3) does not allow, if any:
 * without the field any coding is allowed; an
 * empty one allows none; otherwise each coding must be listed, or covered
 * by `*`, with a q above 0.
 */
export function unacceptedCoding(acceptEncoding: string | undefined, contentEncoding: string | undefined): string | undefined {
  const codings = (contentEncoding ?? '').split(',').map((c) => c.trim().toLowerCase()).filter((c) => c !== '' && c !== 'identity');
  if (acceptEncoding === undefined || codings.length === 0) return undefined;
  const weights = new Map<string, number>();
  for (const item of acceptEncoding.split(',')) {
    const [name = '', ...params] = item.split(';').map((p) => p.trim().toLowerCase());
    if (name === '') continue;
    const q = params.map((p) => /^q\s*=\s*([\d.]+)$/.exec(p)?.[1]).find((v) => v !== undefined);
    weights.set(name, q === undefined ? 1 : Number(q));
  }
  const equivalent = (coding: string) => (coding === 'x-gzip' ? 'gzip' : coding);
  return codings.find((coding) => !((weights.get(equivalent(coding)) ?? weights.get(coding) ?? weights.get('*') ?? 0) > 0));
}
