import { describe, expect, it } from 'vitest';
import { createResponseValidator } from '../document/response-validator.js';
import { cacheDirectives, charsetOf, checkExchange } from './exchange-checks.js';
import { mediaTypesOf } from '../shared/media-types.js';

/**
 * The checks of every exchange on one answer, without a server: here the
 * charset a JSON answer is labelled with (RFC 8259 §8.1, §11), a byte order
 * mark before its JSON text (§8.1) and the one
 * media type of its Content-Type (RFC 9110 §8.3). The faulty
 * servers prove the checks over HTTP (test/faulty-servers/).
 */
const validatorLoading = createResponseValidator();
const PET = '{"id":1,"name":"Rex","categoryId":1,"status":"available"}';

async function checksOf(contentType: string): Promise<string[]> {
  const validator = await validatorLoading;
  const operation = validator.operationFor('GET', '/pets/1');
  const findings = checkExchange(validator, operation, {
    operation: 'getPet',
    request: { method: 'GET', url: 'http://127.0.0.1:4010/v1/pets/1', headers: {} },
    response: { status: 200, headers: { 'content-type': contentType }, body: PET, json: JSON.parse(PET) },
    ms: 0,
  });
  return [...new Set(findings.map((finding) => finding.check as string))];
}

describe('charsetOf', () => {
  it.each([
    ['application/json', undefined],
    ['application/json; charset=utf-8', 'utf-8'],
    ['application/json;CHARSET="UTF-8"', 'UTF-8'],
    ['application/json; foo=bar; charset = iso-8859-1', 'iso-8859-1'],
    ['application/json; charset="a\\"b"', 'a"b'],
  ])('%s: %s', (type, charset) => {
    expect(charsetOf(type)).toBe(charset);
  });
});

describe('exchange-json-charset', () => {
  it.each(['application/json', 'application/json; charset=utf-8', 'Application/JSON; Charset="UTF-8"'])('%s passes', async (type) => {
    expect(await checksOf(type)).not.toContain('exchange-json-charset');
  });

  it.each(['application/json; charset=iso-8859-1', 'application/json;charset="utf-16"', 'application/json; charset=utf8'])('%s is a finding', async (type) => {
    // Only this check: prism's validator takes any parameters of application/json.
    expect(await checksOf(type)).toEqual(['exchange-json-charset']);
  });

  it('leaves a type other than application/json to exchange-media-type alone', async () => {
    const checks = await checksOf('text/plain; charset=latin1');
    expect(checks).toContain('exchange-media-type');
    expect(checks).not.toContain('exchange-json-charset');
  });
});

describe('mediaTypesOf', () => {
  it.each([
    ['application/json', ['application/json']],
    ['application/json, text/html', ['application/json', 'text/html']],
    ['application/json; charset=utf-8,application/json', ['application/json; charset=utf-8', 'application/json']],
    ['application/json; note="a, b"', ['application/json; note="a, b"']],
    ['application/json; note="a\\", b"', ['application/json; note="a\\", b"']],
    ['application/json, ', ['application/json']],
    ['application/json; note="a, b\\', ['application/json; note="a, b\\']],
    ['', []],
  ])('%s: %j', (type, types) => {
    expect(mediaTypesOf(type)).toEqual(types);
  });
});

describe('exchange-content-type-once', () => {
  it.each(['application/json', 'application/json; charset=utf-8', 'application/json; note="a, b"'])('%s passes', async (type) => {
    expect(await checksOf(type)).not.toContain('exchange-content-type-once');
  });

  // Two field lines reach the checks joined with `, ` (RFC 9110 §5.3), as one line listing two types does.
  it.each(['application/json, application/json', 'application/json, text/html', 'text/html; charset=utf-8, application/json', 'application/json; charset=utf-8, application/json; charset=iso-8859-1'])('%s is a finding', async (type) => {
    // Only this check: which media type and charset the body has cannot be told, so they are not judged apart.
    expect(await checksOf(type)).toEqual(['exchange-content-type-once']);
  });
});

/** The checks an answer to `method path` with these request fields gets. */
async function checksOfAnswer(method: string, path: string, requestHeaders: Record<string, string>, response: { status: number; headers?: Record<string, string>; body?: string }): Promise<string[]> {
  const validator = await validatorLoading;
  const body = response.body ?? '';
  const findings = checkExchange(validator, validator.operationFor(method, path), {
    operation: undefined,
    request: { method, url: `http://127.0.0.1:4010/v1${path}`, headers: requestHeaders },
    response: { status: response.status, headers: response.headers ?? {}, body, json: parsed(body) },
    ms: 0,
  });
  return [...new Set(findings.map((finding) => finding.check as string))];
}

/** A body as the harness's client reads it: its JSON value, or undefined when it is not JSON (a byte order mark first included). */
function parsed(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

describe('exchange-json-bom (RFC 8259 §8.1)', () => {
  const JSON_TYPE = { 'content-type': 'application/json; charset=utf-8' };
  const NOT_FOUND = '{"code":"pet_not_found","message":"no animal 1","status":404}';

  it('is the one finding of a Pet or an Error body after a byte order mark: its schema and Error body are not judged apart', async () => {
    expect(await checksOfAnswer('GET', '/pets/1', {}, { status: 200, headers: JSON_TYPE, body: `\uFEFF${PET}` })).toEqual(['exchange-json-bom']);
    expect(await checksOfAnswer('GET', '/pets/1', {}, { status: 404, headers: JSON_TYPE, body: `\uFEFF${NOT_FOUND}` })).toEqual(['exchange-json-bom']);
  });

  it('passes a byte order mark inside a name, and leaves a body of another media type to exchange-media-type', async () => {
    const named = PET.replace('Rex', '\uFEFFRex');
    expect(await checksOfAnswer('GET', '/pets/1', {}, { status: 200, headers: JSON_TYPE, body: named })).toEqual([]);
    expect(await checksOfAnswer('GET', '/pets/1', {}, { status: 404, headers: { 'content-type': 'text/plain' }, body: `\uFEFF${NOT_FOUND}` })).not.toContain('exchange-json-bom');
  });
});

describe('answers without content (RFC 9110 §9.3.2, §15.3.5, §15.4.5)', () => {
  it('a 304 to a request with If-None-Match or If-Modified-Since is neither an undocumented status nor of another media type', async () => {
    expect(await checksOfAnswer('GET', '/pets/1', { 'If-None-Match': '"a"' }, { status: 304 })).toEqual([]);
    expect(await checksOfAnswer('GET', '/pets', { 'if-modified-since': 'Sun, 29 Nov 2026 08:00:00 GMT' }, { status: 304 })).toEqual([]);
  });

  it('a 206 to Range: bytes=0- holding the whole representation is the 200 it stands for, judged as that; a part of it, or unasked, an undocumented status', async () => {
    const json = { 'content-type': 'application/json' };
    const bytes = Buffer.byteLength(PET);
    expect(await checksOfAnswer('GET', '/pets/1', { Range: 'bytes=0-' }, { status: 206, headers: { ...json, 'content-range': `bytes 0-${bytes - 1}/${bytes}` }, body: PET })).toEqual([]);
    expect(await checksOfAnswer('GET', '/pets/1', { Range: 'bytes=0-' }, { status: 206, headers: { ...json, 'content-range': `bytes 0-${bytes - 1}/${bytes}` }, body: '{"id":1}' })).toContain('exchange-documented-status');
    expect(await checksOfAnswer('GET', '/pets/1', { Range: 'bytes=0-' }, { status: 206, headers: { ...json, 'content-range': `bytes 0-${bytes - 1}/${bytes}` }, body: '{"id":"1","name":"Rex"}' })).toContain('exchange-documented-status');
    expect(await checksOfAnswer('GET', '/pets/1', {}, { status: 206, headers: { ...json, 'content-range': `bytes 0-${bytes - 1}/${bytes}` }, body: PET })).toContain('exchange-documented-status');
    // Judged as the 200: a Pet that breaks its schema is found as in any 200.
    const wrong = '{"id":"one","name":"Rex","categoryId":1}';
    const wrongBytes = Buffer.byteLength(wrong);
    expect(await checksOfAnswer('GET', '/pets/1', { range: 'bytes=0-' }, { status: 206, headers: { ...json, 'content-range': `bytes 0-${wrongBytes - 1}/${wrongBytes}` }, body: wrong })).toContain('exchange-response-schema');
  });

  it('a 202 to Prefer: respond-async is no answer of the operation yet; unasked, an undocumented status', async () => {
    expect(await checksOfAnswer('GET', '/pets', { Prefer: 'respond-async' }, { status: 202 })).toEqual([]);
    expect(await checksOfAnswer('GET', '/pets', {}, { status: 202 })).toContain('exchange-documented-status');
  });

  it('a 304 to a request without a precondition is an undocumented status', async () => {
    expect(await checksOfAnswer('GET', '/pets/1', {}, { status: 304 })).toEqual(['exchange-documented-status']);
  });

  it('an answer to HEAD, a 401 included, and an empty success to OPTIONS need no content type nor Error body', async () => {
    expect(await checksOfAnswer('HEAD', '/pets', {}, { status: 401 })).toEqual([]);
    expect(await checksOfAnswer('OPTIONS', '/pets', {}, { status: 200 })).toEqual([]);
    expect(await checksOfAnswer('OPTIONS', '/pets', {}, { status: 204 })).toEqual([]);
  });

  it('an answer with content to OPTIONS is judged as any other', async () => {
    expect(await checksOfAnswer('OPTIONS', '/pets', {}, { status: 200, headers: { 'content-type': 'text/plain' }, body: '"x"' })).toEqual(['exchange-media-type']);
  });
});

describe('501 (RFC 9110 §9.1)', () => {
  it('passes to a method the document gives the path no operation for', async () => {
    const error = { status: 501, headers: { 'content-type': 'application/json' }, body: '{"code":"not_implemented","message":"no","status":501}' };
    expect(await checksOfAnswer('FROB', '/pets', {}, error)).toEqual([]);
    expect(await checksOfAnswer('PUT', '/pets/1', {}, error)).toEqual([]);
  });

  it('is a 5xx to GET and HEAD, which every server must support, and to a documented operation', async () => {
    const error = { status: 501, headers: { 'content-type': 'application/json' }, body: '{"code":"not_implemented","message":"no","status":501}' };
    expect(await checksOfAnswer('HEAD', '/pets', {}, error)).toContain('exchange-no-5xx');
    expect(await checksOfAnswer('GET', '/store/orders', {}, error)).toContain('exchange-no-5xx');
    expect(await checksOfAnswer('POST', '/pets', {}, error)).toContain('exchange-no-5xx');
  });
});

describe('exchange-http-date (RFC 9110 §5.6.7)', () => {
  const JSON_TYPE = { 'content-type': 'application/json' };
  const NOT_FOUND = '{"code":"pet_not_found","message":"no animal 1","status":404}';
  const dated = (headers: Record<string, string>) => checksOfAnswer('GET', '/pets/1', {}, { status: 200, headers: { ...JSON_TYPE, ...headers }, body: PET });

  it.each([
    ['date', 'Sun, 06 Nov 1994 08:49:37 GMT'],
    ['last-modified', 'Sun, 29 Nov 2026 11:54:13 GMT'],
    ['expires', 'Thu, 29 Feb 2024 23:59:60 GMT'],
    ['retry-after', '120'],
    ['retry-after', 'Wed, 05 Dec 2029 00:00:00 GMT'],
  ])('%s: %s passes', async (field, value) => {
    expect(await dated({ [field]: value })).toEqual([]);
  });

  it.each([
    ['date', 'Sunday, 06-Nov-94 08:49:37 GMT'], // RFC 850, which recipients read and no sender may write
    ['date', 'Sun Nov  6 08:49:37 1994'], // asctime
    ['last-modified', 'Sun Nov 29 2026 11:54:13 GMT+0000 (Coordinated Universal Time)'], // Date.prototype.toString
    ['last-modified', '2026-11-29T11:54:13.000Z'], // ISO 8601
    ['last-modified', 'sun, 29 nov 2026 11:54:13 gmt'], // IMF-fixdate is case-sensitive
    ['last-modified', 'Sun, 29 Nov 2026 11:54:13 UTC'],
    ['expires', '0'],
    ['expires', 'Mon, 29 Nov 2026 11:54:13 GMT'], // the 29th is a Sunday
    ['expires', 'Fri, 29 Feb 2030 00:00:00 GMT'], // no such day
    ['date', 'Sun, 29 Nov 2026 24:00:00 GMT'],
    ['date', 'Sun, 29 Nov 2026 11:54:13 GMT, Sun, 29 Nov 2026 11:54:14 GMT'], // two field lines, joined
    ['retry-after', '1.5'],
  ])('%s: %s is the one finding', async (field, value) => {
    expect(await dated({ [field]: value })).toEqual(['exchange-http-date']);
  });

  it('judges an answer without content and an error too', async () => {
    const date = { date: '2026-11-29 11:54:13' };
    expect(await checksOfAnswer('HEAD', '/pets', {}, { status: 401, headers: date })).toEqual(['exchange-http-date']);
    expect(await checksOfAnswer('GET', '/pets/1', {}, { status: 404, headers: { ...JSON_TYPE, ...date }, body: NOT_FOUND })).toEqual(['exchange-http-date']);
  });
});

describe('exchange-etag (RFC 9110 §8.8.3)', () => {
  const JSON_TYPE = { 'content-type': 'application/json' };
  const tagged = (etag: string) => checksOfAnswer('GET', '/pets/1', {}, { status: 200, headers: { ...JSON_TYPE, etag }, body: PET });

  it.each(['"a1b2"', 'W/"a1b2"', '""', 'W/""', '"sha-256:x/y+z=="', '"\u00e9t\u00e9"', '"W/"'])('%s passes', async (etag) => {
    expect(await tagged(etag)).toEqual([]);
  });

  it.each([
    'a1b2', // unquoted, as a framework writing a hash as it is
    'w/"a1b2"', // W/ is case-sensitive
    'W/ "a1b2"',
    '"a1b2',
    '"a b"', // no space inside
    '"a"b"',
    "'a1b2'",
    ' "a1b2"',
    '"a1b2", "c3d4"', // two field lines, joined: ETag holds one entity-tag
    'W/a1b2',
  ])('%s is the one finding', async (etag) => {
    expect(await tagged(etag)).toEqual(['exchange-etag']);
  });

  it('judges an answer without content (a 304, a HEAD) and an error too', async () => {
    const etag = { etag: 'a1b2' };
    expect(await checksOfAnswer('GET', '/pets/1', { 'if-none-match': '"a1b2"' }, { status: 304, headers: etag })).toEqual(['exchange-etag']);
    expect(await checksOfAnswer('HEAD', '/pets', {}, { status: 200, headers: etag })).toEqual(['exchange-etag']);
    const notFound = '{"code":"pet_not_found","message":"no animal 1","status":404}';
    expect(await checksOfAnswer('GET', '/pets/1', {}, { status: 404, headers: { ...JSON_TYPE, ...etag }, body: notFound })).toEqual(['exchange-etag']);
  });
});

describe('cacheDirectives', () => {
  it.each([
    ['public, max-age=60', [['public', ''], ['max-age', '60']]],
    ['S-MaxAge="600",Private', [['s-maxage', '600'], ['private', '']]],
    ['private="set-cookie, x-a", public', [['private', 'set-cookie, x-a'], ['public', '']]],
    ['', []],
  ])('%s: %j', (value, directives) => {
    expect([...cacheDirectives(value)]).toEqual(directives);
  });
});

describe('exchange-cache-control (RFC 9111 §3.5)', () => {
  const JSON_TYPE = { 'content-type': 'application/json' };
  const KEY = { Authorization: 'Bearer k' };
  const cached = (headers: Record<string, string>, requestHeaders: Record<string, string> = KEY, status = 200) =>
    checksOfAnswer('GET', '/pets/1', requestHeaders, { status, headers: { ...JSON_TYPE, ...headers }, body: status === 200 ? PET : '{"code":"pet_not_found","message":"no animal 1","status":404}' });

  it.each<Record<string, string>>([
    { 'cache-control': 'private, max-age=60' },
    { 'cache-control': 'no-cache' },
    { 'cache-control': 'max-age=60' },
    { 'cache-control': 'public, no-store' },
    { 'cache-control': 'Public, Private' },
    { 'cache-control': 's-maxage=600', vary: 'Accept, Authorization' },
    { 'cache-control': 'public', vary: '*' },
    { 'cache-control': 'no-cache="public"' },
    { 'cache-control': 'public, no-cache' },
    { 'cache-control': 'must-revalidate, max-age=0' },
  ])('%j passes', async (headers) => {
    expect(await cached(headers)).toEqual([]);
  });

  it.each<Record<string, string>>([
    { 'cache-control': 'public' },
    { 'cache-control': 'PUBLIC, max-age=300' },
    { 'cache-control': 'max-age=0, s-maxage=600' },
    { 'cache-control': 'S-MAXAGE="600"' },
    { 'cache-control': 'private="set-cookie", public' },
    { 'cache-control': 'public', vary: 'Accept' },
    { 'cache-control': 'must-revalidate, max-age=60' },
  ])('%j is the one finding', async (headers) => {
    expect(await cached(headers)).toEqual(['exchange-cache-control']);
  });

  it('judges a HEAD, and passes an answer to a request without a key and an error', async () => {
    expect(await checksOfAnswer('HEAD', '/pets', { authorization: 'Bearer k' }, { status: 200, headers: { 'cache-control': 'public' } })).toEqual(['exchange-cache-control']);
    expect(await cached({ 'cache-control': 'public' }, {})).toEqual([]);
    expect(await cached({ 'cache-control': 'public' }, KEY, 404)).toEqual([]);
  });
});
