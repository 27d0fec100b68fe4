import { describe, expect, it } from 'vitest';
import { createResponseValidator } from '../document/response-validator.js';
import { charsetOf, checkExchange } from './exchange-checks.js';
import { mediaTypesOf } from '../shared/media-types.js';

/**
 * The checks of every exchange on one answer, without a server: here the
 * charset a JSON answer is labelled with (RFC 8259 §8.1, §11) and the one
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
