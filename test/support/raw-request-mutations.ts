import fc from 'fast-check';

/**
 * Malformed HTTP/1.1 requests for the raw-HTTP fuzz test: valid requests
 * (below) with one to three mutations of these kinds (docs/reference.md: "Malformed
 * requests"):
 * - a byte flipped, inserted (any byte, CR, LF, NUL, SP, `:` and other
 *   delimiters weighted up) or deleted, anywhere: request line, headers, body;
 * - the request cut short at any byte;
 * - Host removed or repeated; Content-Length repeated with another value;
 *   Transfer-Encoding added beside Content-Length, or with an unknown coding;
 * - a chunk size that is not hex, chunk data without its CRLF;
 * - bare LF line ends (all, or one line's);
 * - garbage pipelined after the request;
 * - another request target: absolute-form (http, https, ftp), `*`, a NUL, a
 *   very long path; another method token or HTTP version;
 * - a control character in a header name or value; headers over 16 KiB;
 * - an `Expect` other than `100-continue`; the HTTP/2 preface instead.
 */
export function rawRequestMutations(key: string): fc.Arbitrary<Buffer> {
  const auth = `Authorization: Bearer ${key}\r\n`;
  const body = '{"name":"Fuzz","categoryId":2}';
  const seeds = [
    `GET /v1/pets?limit=3 HTTP/1.1\r\nHost: localhost\r\n${auth}\r\n`,
    `GET /v1/pets/1 HTTP/1.1\r\nHost: localhost\r\n${auth}Accept: application/json\r\n\r\n`,
    `POST /v1/pets HTTP/1.1\r\nHost: localhost\r\n${auth}Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    `POST /v1/pets HTTP/1.1\r\nHost: localhost\r\n${auth}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`,
    'GET /__mock/health HTTP/1.1\r\nHost: localhost\r\n\r\n',
    'OPTIONS /v1/pets HTTP/1.1\r\nHost: localhost\r\nOrigin: http://app.test\r\nAccess-Control-Request-Method: POST\r\n\r\n',
    `GET /v1/pets?limit=1 HTTP/1.1\r\nHost: localhost\r\n${auth}\r\nGET /v1/pets/2 HTTP/1.1\r\nHost: localhost\r\n${auth}\r\n`,
  ];
  return fc.tuple(fc.constantFrom(...seeds), fc.array(mutation(), { minLength: 1, maxLength: 3 })).map(([seed, mutations]) =>
    mutations.reduce<Buffer>((request, mutate) => mutate(request), Buffer.from(seed, 'latin1')),
  );
}

type Mutation = (request: Buffer) => Buffer;

/**
 * A position anywhere in the request, as a fraction of its length, so one
 * draw fits every seed. Uniform: fc.double is uniform over the doubles (most
 * of them tiny) and biased to the ends, which put nearly every mutation on byte 0.
 */
const position = fc.noBias(fc.integer({ min: 0, max: 2 ** 30 - 1 })).map((n) => n / 2 ** 30);
const at = (request: Buffer, where: number) => Math.floor(where * request.length);
const interesting = fc.oneof(fc.integer({ min: 0, max: 255 }), fc.constantFrom(13, 10, 0, 32, 58, 9, 127, 0x80, 0xff, 44, 59, 34));
const text = (request: Buffer) => request.toString('latin1');
const bytes = (value: string) => Buffer.from(value, 'latin1');
/** Replace in the head (before the blank line) only, so a body's text is left alone. */
const inHead = (request: Buffer, edit: (head: string) => string): Buffer => {
  const all = text(request);
  const end = all.indexOf('\r\n\r\n');
  return end === -1 ? bytes(edit(all)) : bytes(edit(all.slice(0, end + 2)) + all.slice(end + 2));
};
const headerLine = (request: Buffer, line: string) => inHead(request, (head) => head.replace('\r\n', `\r\n${line}\r\n`));

function mutation(): fc.Arbitrary<Mutation> {
  return fc.oneof(
    fc.tuple(position, interesting).map(([where, byte]): Mutation => (r) => Buffer.concat([r.subarray(0, at(r, where)), Buffer.from([byte]), r.subarray(at(r, where) + 1)])),
    fc.tuple(position, interesting).map(([where, byte]): Mutation => (r) => Buffer.concat([r.subarray(0, at(r, where)), Buffer.from([byte]), r.subarray(at(r, where))])),
    position.map((where): Mutation => (r) => Buffer.concat([r.subarray(0, at(r, where)), r.subarray(at(r, where) + 1)])),
    // At least one byte: an empty request tells nothing.
    position.map((where): Mutation => (r) => r.subarray(0, Math.max(1, at(r, where)))),
    fc.constantFrom<Mutation>(
      (r) => inHead(r, (head) => head.replace(/Host: [^\r]*\r\n/i, '')),
      (r) => headerLine(r, 'Host: other.example'),
      (r) => headerLine(r, 'Content-Length: 7'),
      (r) => headerLine(r, 'Transfer-Encoding: chunked'),
      (r) => headerLine(r, 'Transfer-Encoding: gzip, chunked'),
      (r) => headerLine(r, 'Expect: 999-junk'),
      (r) => headerLine(r, 'Expect: 100-continue'),
      (r) => headerLine(r, `X-Big: ${'b'.repeat(17_000)}`),
      (r) => headerLine(r, 'X-Ctl: a\x01b'),
      (r) => headerLine(r, 'X Bad: name'),
      (r) => bytes(text(r).replace(/\r\n/g, '\n')),
      (r) => bytes(text(r).replace('\r\n', '\n')),
      (r) => bytes(text(r).replace(/\r\n([0-9a-f]+)\r\n/, '\r\nzz\r\n')),
      (r) => bytes(text(r).replace(/\r\n0\r\n\r\n$/, 'X0\r\n\r\n')),
      (r) => Buffer.concat([r, bytes('GARBAGE \x00\x01\r\n\r\n')]),
      (r) => bytes(text(r).replace(/ \/(\S*) HTTP/, ' http://elsewhere.example/$1 HTTP')),
      (r) => bytes(text(r).replace(/ \/(\S*) HTTP/, ' https://elsewhere.example:99/$1 HTTP')),
      (r) => bytes(text(r).replace(/ \/(\S*) HTTP/, ' ftp://elsewhere.example/$1 HTTP')),
      (r) => bytes(text(r).replace(/ \/\S* HTTP/, ' * HTTP')),
      (r) => bytes(text(r).replace(/ \/(\S*) HTTP/, ' /v1/\x00$1 HTTP')),
      (r) => bytes(text(r).replace(/ \/(\S*) HTTP/, ` /v1/${'p'.repeat(17_000)} HTTP`)),
      (r) => bytes(text(r).replace(/^[A-Z]+/, 'CONNECT')),
      (r) => bytes(text(r).replace(/^[A-Z]+/, 'G(T')),
      (r) => bytes(text(r).replace('HTTP/1.1', 'HTTP/1.0')),
      (r) => bytes(text(r).replace('HTTP/1.1', 'HTTP/2.0')),
      () => bytes('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'),
    ),
  );
}
