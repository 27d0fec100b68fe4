import { bodyReader, type RawResponse, type Transport } from './body-reader.js';

/** The Web's fetch, or anything of its shape: a mock engine's, an app's, MSW's `getResponse` wrapped. */
export type FetchFunction = (input: Request) => Promise<Response>;

/**
 * Sends each request through `fetch` rather than the network: the harness
 * then judges whatever answers it (a mock engine in-process, a team's own
 * MSW handlers). What cannot be said in a `Request` is said as fetch says
 * it: a header sent twice is one, its values joined with `, ` (the Fetch
 * standard's Headers), so the rules that send one twice see the target
 * answer that. The body is read under the same caps as over the network.
 */
export function fetchTransport(fetch: FetchFunction): Transport {
  return async (url, method, headers, body, limits) => {
    const fields = new Headers();
    for (const [name, value] of Object.entries(headers)) for (const one of Array.isArray(value) ? value : [value]) fields.append(name, one);
    const signal = AbortSignal.timeout(limits.timeoutMs);
    let response: Response;
    try {
      response = await fetch(new Request(url, { method, headers: fields, body: method === 'GET' || method === 'HEAD' ? undefined : body, signal }));
    } catch (error) {
      throw (error as Error).name === 'TimeoutError' ? error : Object.assign(new Error('fetch failed'), { cause: error });
    }
    const seen: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      seen[name] = value;
    });
    const reader = bodyReader(response.status, seen, limits);
    if (!response.body) return reader.decoded();
    return readAll(response.body.getReader(), reader, signal);
  };
}

async function readAll(stream: ReadableStreamDefaultReader<Uint8Array>, reader: ReturnType<typeof bodyReader>, signal: AbortSignal): Promise<RawResponse> {
  try {
    for (;;) {
      const { done, value } = await stream.read();
      if (done) return reader.decoded();
      if (!reader.add(value)) {
        void stream.cancel();
        return reader.tooLarge();
      }
    }
  } catch (error) {
    if (signal.aborted) return reader.tooSlow();
    throw Object.assign(new Error('fetch failed'), { cause: error });
  }
}
