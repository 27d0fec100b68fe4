import { describe, expect, it } from 'vitest';
import { TEST_KEY, useMock } from '../../../../test/support/use-mock.js';
import { expectErrorBody, parseResponses, rawExchange } from '../../../../test/support/raw-http.js';

const auth = `Authorization: Bearer ${TEST_KEY}\r\n`;
const pet = '{"name":"Rex","categoryId":1}';
const post = (headers: string, body: string) => `POST /v1/pets HTTP/1.1\r\nHost: a\r\n${auth}Content-Type: application/json\r\n${headers}\r\n${body}`;

/**
 * [what, the raw request, the statuses of the answers in order (each of 400
 * and over the Error body, with `code` when given as [status, code])].
 * The client keeps its side open: after an error the server must close.
 */
const refused: Array<[string, string, Array<number | [number, string]>]> = [
  ['an HTTP/1.1 request without Host', 'GET /v1/pets HTTP/1.1\r\n\r\n', [[400, 'bad_request']]],
  ['two Host headers', 'GET /v1/pets HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n', [[400, 'bad_request']]],
  ['two equal Host headers', `GET /v1/pets HTTP/1.1\r\nHost: a\r\n${auth}Host: a\r\n\r\n`, [[400, 'bad_request']]],
  ['Expect: 999-junk', `GET /v1/pets HTTP/1.1\r\nHost: a\r\n${auth}Expect: 999-junk\r\n\r\n`, [[417, 'expectation_failed']]],
  // An answer that said `Connection: close` is the last one: the bytes after it get no answer of their own (RFC 9112 §9.6).
  ['Expect: 999-junk with garbage after it', `GET /v1/pets HTTP/1.1\r\nHost: a\r\n${auth}Expect: 999-junk\r\n\r\nGARBAGE\r\n\r\n`, [[417, 'expectation_failed']]],
  ['a request line that is not HTTP', 'hello there\r\n\r\n', [[400, 'bad_request']]],
  ['a method that is not a token', 'G@T /v1/pets HTTP/1.1\r\nHost: a\r\n\r\n', [[400, 'bad_request']]],
  ['a header name with a space', 'GET /v1/pets HTTP/1.1\r\nHost: a\r\nX A: b\r\n\r\n', [[400, 'bad_request']]],
  ['a header value with a control character', 'GET /v1/pets HTTP/1.1\r\nHost: a\r\nX-A: b\x01c\r\n\r\n', [[400, 'bad_request']]],
  ['headers over 16 KiB', `GET /v1/pets HTTP/1.1\r\nHost: a\r\nX-Big: ${'a'.repeat(17_000)}\r\n\r\n`, [[431, 'headers_too_large']]],
  ['a request line over 16 KiB', `GET /v1/pets?q=${'a'.repeat(17_000)} HTTP/1.1\r\nHost: a\r\n\r\n`, [[431, 'headers_too_large']]],
  ['a chunk size that is not hex', post('Transfer-Encoding: chunked\r\n', 'zz\r\nabc\r\n0\r\n\r\n'), [[400, 'bad_request']]],
  ['chunk extensions over 16 KiB', post('Transfer-Encoding: chunked\r\n', `3;x=${'y'.repeat(20_000)}\r\nabc\r\n0\r\n\r\n`), [[413, 'payload_too_large']]],
  ['chunk data without its CRLF', post('Transfer-Encoding: chunked\r\n', '3\r\nabcX0\r\n\r\n'), [[400, 'bad_request']]],
  ['a bare LF for line ends', 'GET /v1/pets HTTP/1.1\nHost: a\n\n', [[400, 'bad_request']]],
  ['Content-Length with Transfer-Encoding', post('Content-Length: 3\r\nTransfer-Encoding: chunked\r\n', '3\r\nabc\r\n0\r\n\r\n'), [[400, 'bad_request']]],
  ['two different Content-Length values', post('Content-Length: 3\r\nContent-Length: 4\r\n', 'abcd'), [[400, 'bad_request']]],
  ['a transfer coding not ending in chunked', post('Transfer-Encoding: gzip\r\n', 'abcd'), [[400, 'bad_request']]],
  ['an unknown transfer coding before chunked', post('Transfer-Encoding: gzip, chunked\r\n', '3\r\nabc\r\n0\r\n\r\n'), [[501, 'not_implemented']]],
  ['an absolute-form target of another scheme', 'GET ftp://a/v1/pets HTTP/1.1\r\nHost: a\r\n\r\n', [[400, 'bad_request']]],
  ['the target * with GET', 'GET * HTTP/1.1\r\nHost: a\r\n\r\n', [[400, 'bad_request']]],
  ['CONNECT (the mock is no proxy)', 'CONNECT a:443 HTTP/1.1\r\nHost: a:443\r\n\r\n', [[501, 'not_implemented']]],
  ['the HTTP/2 preface', 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', [[400, 'bad_request']]],
  ['a NUL in the path', 'GET /v1/pe\0ts HTTP/1.1\r\nHost: a\r\n\r\n', [[400, 'bad_request']]],
  ['an unknown HTTP version', 'GET /v1/pets HTTP/1.7\r\nHost: a\r\n\r\n', [[400, 'bad_request']]],
  // The good request is answered first, in order (RFC 9112 §9.3.2); then the garbage gets its 400.
  ['garbage pipelined after a good request', `GET /v1/pets HTTP/1.1\r\nHost: a\r\n${auth}\r\nGARBAGE\r\n\r\n`, [200, [400, 'bad_request']]],
  ['garbage after two good requests', `GET /v1/pets HTTP/1.1\r\nHost: a\r\n${auth}\r\nGET /v1/pets/1 HTTP/1.1\r\nHost: a\r\n${auth}\r\n\0\r\n`, [200, 200, [400, 'bad_request']]],
];

describe('malformed requests over a raw socket', () => {
  const mock = useMock();

  it.each(refused)('answers %s with Error bodies, then closes the connection', async (_, request, expected) => {
    const answer = await rawExchange(mock.port, request, { halfClose: false });
    const responses = parseResponses(answer.bytes);
    expect(responses.map((r) => r.status)).toEqual(expected.map((e) => (Array.isArray(e) ? e[0] : e)));
    responses.forEach((response, i) => {
      const want = expected[i];
      if (response.status >= 400) expectErrorBody(response, Array.isArray(want) ? want[1] : undefined);
    });
    expect(responses.at(-1)?.headers.connection).toBe('close');
    expect(answer.closed, 'the server closed the connection').toBe(true);
  });

  it.each([
    ['Content-Length', post('Content-Length: 100\r\n', '{"name":')],
    ['chunked', post('Transfer-Encoding: chunked\r\n', '5\r\n{"nam')],
  ])('answers a %s body cut short by the client\'s close with 400 and an Error body', async (_, request) => {
    const responses = parseResponses((await rawExchange(mock.port, request)).bytes);
    expect(responses.map((r) => r.status)).toEqual([400]);
    expectErrorBody(responses[0]!, 'bad_request');
  });

  it('answers a broken body whose request was already answered (401) with a close, not a second answer', async () => {
    // The 401 is written as soon as the headers are read; the chunked body's fault comes after it.
    const answer = await rawExchange(mock.port, 'POST /v1/pets HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcX0\r\n\r\n', { halfClose: false });
    expect(parseResponses(answer.bytes).map((r) => r.status)).toEqual([401]);
    expect(answer.closed).toBe(true);
  });

  it('serves an HTTP/1.0 request without Host (RFC 9112 §3.2 requires Host of HTTP/1.1 only)', async () => {
    const answer = await rawExchange(mock.port, `GET /v1/pets?limit=2 HTTP/1.0\r\n${auth}\r\n`);
    const [response] = parseResponses(answer.bytes);
    expect(response?.status).toBe(200);
    expect(JSON.parse(String(response?.body))).toHaveLength(2);
  });

  it.each([
    ['without a version', `GET /v1/pets/1\r\n${auth}\r\n`],
    ['as HTTP/0.9', `GET /v1/pets/1 HTTP/0.9\r\n${auth}\r\n`],
  ])('serves an HTTP/0.9 request %s, which node reads, without Host, then closes', async (_, request) => {
    const answer = await rawExchange(mock.port, request, { halfClose: false });
    const [response] = parseResponses(answer.bytes);
    expect(response?.status).toBe(200);
    expect(answer.closed).toBe(true);
  });

  it('routes an absolute-form target by its path, whatever its authority (RFC 9112 §3.2.2)', async () => {
    const answer = await rawExchange(mock.port, `GET http://elsewhere.example/v1/pets/1 HTTP/1.1\r\nHost: a\r\n${auth}\r\n`);
    const [response] = parseResponses(answer.bytes);
    expect(response?.status).toBe(200);
    expect(JSON.parse(String(response?.body))).toMatchObject({ id: 1 });
  });

  it.each(['HTTP://elsewhere.example', 'Http://elsewhere.example'])('routes an absolute-form target whose scheme is written %s as the lower-case one (RFC 3986 §3.1: a scheme is case-insensitive)', async (origin) => {
    const answer = await rawExchange(mock.port, `GET ${origin}/v1/pets/1 HTTP/1.1\r\nHost: a\r\n${auth}\r\n`);
    const [response] = parseResponses(answer.bytes);
    expect(response?.status).toBe(200);
    expect(JSON.parse(String(response?.body))).toMatchObject({ id: 1 });
  });

  it('answers OPTIONS * with 204 and the methods in Allow (RFC 9110 §9.3.7)', async () => {
    const answer = await rawExchange(mock.port, 'OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n');
    const [response] = parseResponses(answer.bytes);
    expect(response?.status).toBe(204);
    expect(response?.headers.allow).toBe('GET, HEAD, POST, PUT, DELETE, OPTIONS');
  });

  it('keeps Expect: 100-continue working: 100, then the answer', async () => {
    const answer = await rawExchange(mock.port, post(`Content-Length: ${pet.length}\r\nExpect: 100-continue\r\n`, pet));
    const responses = parseResponses(answer.bytes);
    expect(responses.map((r) => r.status)).toEqual([100, 201]);
    expect(JSON.parse(String(responses[1]?.body))).toMatchObject({ name: 'Rex', categoryId: 1 });
  });

  it.each([
    ['h2c', 'Upgrade: h2c\r\nConnection: Upgrade, HTTP2-Settings\r\nHTTP2-Settings: AAMAAABkAAQCAAAAAAIAAAAA\r\n'],
    ['websocket', 'Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n'],
  ])('answers a request asking for an upgrade to %s as HTTP/1.1 (RFC 9110 §7.8), then closes: a request after it is not left unread', async (_, fields) => {
    const get = (extra: string) => `GET /v1/pets?limit=1 HTTP/1.1\r\nHost: a\r\n${auth}${extra}\r\n`;
    // The second request on the same connection: the client must be told to send it on another.
    const answer = await rawExchange(mock.port, get(fields) + get(''), { halfClose: false });
    const responses = parseResponses(answer.bytes);
    expect(responses.map((r) => r.status)).toEqual([200]);
    expect(responses[0]?.headers.connection).toBe('close');
    expect(answer.closed).toBe(true);
  });

  it('still answers a normal request afterwards', async () => {
    expect((await mock.authed('/pets?limit=1')).status).toBe(200);
  });
});
