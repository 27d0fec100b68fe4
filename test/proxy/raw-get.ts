import { Agent, request } from 'node:http';

export interface RawGot {
  status: number;
  statusMessage: string;
  /** node's rawHeaders: names as sent, in order. */
  rawHeaders: string[];
  body: Buffer;
}

/**
 * One request with node:http, which follows no redirect and decodes
 * nothing: the answer as it came. Rejects when the connection breaks
 * before the answer's end (a cut body is an error, never a short answer).
 */
export function rawRequest(url: string, options: { method?: string; headers?: Record<string, string>; body?: string | Buffer; agent?: Agent } = {}): Promise<RawGot & { reusedSocket: boolean }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'GET', headers: options.headers, agent: options.agent ?? false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => (res.complete ? resolve({ status: res.statusCode ?? 0, statusMessage: res.statusMessage ?? '', rawHeaders: res.rawHeaders, body: Buffer.concat(chunks), reusedSocket: req.reusedSocket }) : reject(new Error('incomplete'))));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/** rawHeaders less the connection's own fields, which each hop writes for itself (RFC 9110 §7.6.1). */
export function endToEndHeaders(raw: readonly string[]): string[] {
  const hop = new Set(['connection', 'keep-alive', 'transfer-encoding']);
  const kept: string[] = [];
  for (let i = 0; i < raw.length; i += 2) if (!hop.has((raw[i] as string).toLowerCase())) kept.push(`${raw[i]}: ${raw[i + 1]}`);
  return kept;
}
