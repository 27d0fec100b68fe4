import { request, type OutgoingHttpHeaders } from 'node:http';

export interface HttpAnswer {
  status: number;
  body: string;
}

export interface HttpRequestOptions {
  method?: string;
  headers?: OutgoingHttpHeaders;
  body?: string;
  timeoutMs?: number;
}

/** One request on its own connection (no agent, no keep-alive). */
export function httpRequest(url: string, { method = 'GET', headers = {}, body, timeoutMs = 2000 }: HttpRequestOptions = {}): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer from ${url} within ${timeoutMs} ms`)));
    req.end(body);
  });
}
