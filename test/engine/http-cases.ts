/**
 * One list of requests, each sent in turn to every implementation of the
 * mock (the node server over HTTP, the engine in-process): what comes back
 * must be the same. Stateful: the cases run in order on a fresh mock, so a
 * create is seen by the reads after it.
 */
export interface HttpCase {
  name: string;
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

const KEY = { authorization: 'Bearer animal-store-dev-key' };
const JSON_BODY = { ...KEY, 'content-type': 'application/json' };

export const HTTP_CASES: readonly HttpCase[] = [
  { name: 'a page of the catalogue', path: '/v1/pets?limit=3', headers: KEY },
  { name: 'a page by status', path: '/v1/pets?status=sold&limit=5', headers: KEY },
  { name: 'a limit out of range', path: '/v1/pets?limit=0', headers: KEY },
  { name: 'an unknown status', path: '/v1/pets?status=gone', headers: KEY },
  { name: 'no key', path: '/v1/pets' },
  { name: 'a wrong key', path: '/v1/pets', headers: { authorization: 'Bearer nope' } },
  { name: 'one animal', path: '/v1/pets/7', headers: KEY },
  { name: 'an animal that is not there', path: '/v1/pets/9999', headers: KEY },
  { name: 'a petId that is no number', path: '/v1/pets/abc', headers: KEY },
  { name: 'a create', method: 'POST', path: '/v1/pets', headers: JSON_BODY, body: '{"name":"Rex","categoryId":2,"status":"pending"}' },
  { name: 'the created animal', path: '/v1/pets/31', headers: KEY },
  { name: 'a create of an int64 past 2^53', method: 'POST', path: '/v1/pets', headers: JSON_BODY, body: '{"name":"Big","categoryId":9223372036854775807}' },
  { name: 'the int64 read back exactly', path: '/v1/pets/32', headers: KEY },
  { name: 'a create without a name', method: 'POST', path: '/v1/pets', headers: JSON_BODY, body: '{"categoryId":2}' },
  { name: 'a create that is not JSON', method: 'POST', path: '/v1/pets', headers: JSON_BODY, body: '{"name":' },
  { name: 'a create of another media type', method: 'POST', path: '/v1/pets', headers: { ...KEY, 'content-type': 'text/plain' }, body: 'x' },
  { name: 'a method the path does not serve', method: 'DELETE', path: '/v1/pets/1', headers: KEY },
  { name: 'a preflight', method: 'OPTIONS', path: '/v1/pets', headers: { origin: 'http://app.test', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' } },
  { name: 'a CORS read', path: '/v1/pets/1', headers: { ...KEY, origin: 'http://app.test' } },
  { name: 'Prefer a status', path: '/v1/pets/1', headers: { ...KEY, prefer: 'code=404' } },
  { name: 'Prefer a scenario', path: '/v1/pets?limit=2', headers: { ...KEY, prefer: 'scenario=empty-catalogue' } },
  { name: 'the store orders area', path: '/v1/store/orders', headers: KEY },
  { name: 'no route', path: '/v2/pets', headers: KEY },
  { name: 'the scenario list', path: '/__mock/scenarios' },
  { name: 'a scenario activated in a session', method: 'PUT', path: '/__mock/scenarios/active', headers: { ...JSON_BODY, 'x-mock-session': 'qa-1' }, body: '{"name":"not-found"}' },
  { name: 'that session answers by it', path: '/v1/pets/1', headers: { ...KEY, 'x-mock-session': 'qa-1' } },
  { name: 'others do not', path: '/v1/pets/1', headers: KEY },
  { name: 'the session journal', path: '/__mock/journal?limit=1', headers: { 'x-mock-session': 'qa-1' } },
  { name: 'a stub for a session', method: 'POST', path: '/__mock/stubs', headers: { ...JSON_BODY, 'x-mock-session': 'qa-2' }, body: '{"request":{"method":"GET","path":"/v1/pets/2"},"response":{"status":503,"body":{"code":"service_unavailable","message":"down","status":503}}}' },
  { name: 'the stub answers', path: '/v1/pets/2', headers: { ...KEY, 'x-mock-session': 'qa-2' } },
  { name: 'the reference document', path: '/docs/openapi.json' },
  { name: 'a reset', method: 'POST', path: '/__mock/reset', headers: KEY },
  { name: 'the created animal is gone', path: '/v1/pets/31', headers: KEY },
];

/** What of an answer is compared: its status, body, and the headers a client acts on (not Date, nor per-process ids). */
export async function seen(response: Response): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  const headers: Record<string, string> = {};
  for (const name of ['content-type', 'www-authenticate', 'allow', 'location', 'access-control-allow-origin', 'access-control-allow-methods', 'access-control-allow-headers', 'vary', 'deprecation', 'link', 'preference-applied', 'retry-after', 'cache-control', 'x-total-count']) {
    const value = response.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  // Journal entries carry per-process ids and times, compared by their shape, and the request's fields as the client sent
  // them: a fetch over the network adds its own (host, user-agent…), one in-process none.
  const body = withoutClientFields(await response.text()).replace(/"(id|at|ms|started|receivedAt|durationMs|seq)":("[^"]*"|[\d.]+)/g, (match, field: string) => (field === 'id' && /^"id":\d+$/.test(match) ? match : `"${field}":_`));
  return { status: response.status, headers, body };
}

function withoutClientFields(text: string): string {
  if (!text.startsWith('{"capacity"')) return text;
  const journal = JSON.parse(text) as { entries: Array<{ request?: { headers?: unknown } }> };
  for (const entry of journal.entries) delete entry.request?.headers;
  return JSON.stringify(journal);
}
