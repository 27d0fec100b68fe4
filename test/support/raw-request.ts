import { request as httpRequest, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  json: any;
}

/**
 * A request by node:http, which (unlike fetch) sends an array header value as
 * that many separate header lines (how to send two Authorization headers),
 * lets a test set `Host`, and sends `target` as the request target as given
 * (an absolute-form URL, RFC 9112 §3.2.2) instead of the URL's path.
 */
export function rawRequest(url: string, headers: Record<string, string | string[]>, method = 'GET', body?: string, target?: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers: headers as OutgoingHttpHeaders, ...(target === undefined ? {} : { path: target }) }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: res.headers, json: text === '' ? undefined : JSON.parse(text) });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}
