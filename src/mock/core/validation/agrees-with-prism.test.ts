import { beforeAll, describe, expect, it } from 'vitest';
import { loadDocument } from '../../../document/load-document.js';
import { getHttpOperationsFromSpec, prismValidators, type IHttpOperation } from '../../../document/prism.js';
import { useMock } from '../../../../test/support/use-mock.js';
import { parseExactJson } from '../../../shared/exact-json/parse-exact-json.js';

/**
 * prism-http's validateInput is the reference for what the document allows.
 * The mock compiles its own validators from the same document (prism's takes
 * 35-55 µs a call, too slow for the request path), so this test checks that
 * both give the same verdict on the same requests. Where the mock is
 * stricter on purpose, the case is listed as a divergence with its reason,
 * and the test checks the divergence is still exactly that.
 */
const DIVERGENCES: Record<string, string> = {
  'GET /pets?limit=1e1': 'prism coerces query strings with Number(); the mock reads only decimal integers',
  'GET /pets?limit=0x10': 'the same: hexadecimal is not an integer a client means',
  'GET /pets?limit=%205': 'the same: a padded number',
  'GET /pets?limit=': 'prism treats an empty value as absent; the mock says the value is not an integer',
};

const queries = [
  '', '?limit=1', '?limit=100', '?limit=0', '?limit=101', '?limit=-1', '?limit=abc', '?limit=1.5', '?limit=1e1', '?limit=0x10',
  '?limit=%205', '?limit=', '?status=available', '?status=pending', '?status=sold', '?status=Sold', '?status=unknown',
  '?limit=2&status=sold', '?limit=1&limit=2', '?other=1',
];
const bodies = [
  '{"name":"Rex","categoryId":1}', '{"name":"Rex","categoryId":1,"status":"sold"}', '{"name":"Rex","categoryId":1,"extra":true}',
  '{"name":"","categoryId":0}', '{}', '{"name":"Rex"}', '{"categoryId":1}', '{"name":1,"categoryId":1}', '{"name":"Rex","categoryId":"1"}',
  '{"name":"Rex","categoryId":1.5}', '{"name":"Rex","categoryId":9007199254740993}', '{"name":"Rex","categoryId":9223372036854775808}', '{"name":"Rex","categoryId":1,"status":"gone"}',
  '{"name":"Rex","categoryId":1,"status":null}', '[]', '"Rex"', '42', 'null',
];

describe('the mock and prism-http agree on which requests the document allows', () => {
  const mock = useMock();
  let operations: IHttpOperation[];
  beforeAll(async () => {
    operations = await getHttpOperationsFromSpec(loadDocument());
  });
  const operation = (iid: string) => operations.find((o) => o.iid === iid) as IHttpOperation;

  it.each(queries)('GET /pets%s', async (search) => {
    const query: Record<string, string | string[]> = {};
    for (const [name, value] of new URLSearchParams(search)) {
      const previous = query[name];
      query[name] = previous === undefined ? value : [...[previous].flat(), value];
    }
    const prism = prismValidators.validateInput({ resource: operation('listPets') as never, element: { method: 'get', url: { path: '/pets', query }, headers: {} } });
    const res = await mock.authed(`/pets${search}`);
    expectVerdicts(`GET /pets${search}`, prism._tag === 'Right', res.status);
  });

  it.each(bodies)('POST /pets %s', async (body) => {
    const prism = prismValidators.validateInput({
      resource: operation('createPet') as never,
      // prism judges int64 as ±(2^53−1) on JavaScript numbers: it is shown the body's exact-reading view, where that range is int64's (see shared/exact-json/).
      element: { method: 'post', url: { path: '/pets' }, headers: { 'content-type': 'application/json', 'content-length': String(body.length) }, body: parseExactJson(body).view },
    });
    const res = await mock.authed('/pets', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expectVerdicts(`POST /pets ${body}`, prism._tag === 'Right', res.status);
  });
});

function expectVerdicts(request: string, prismAllows: boolean, status: number): void {
  expect([200, 201, 400]).toContain(status);
  const mockAllows = status !== 400;
  if (request in DIVERGENCES) {
    expect({ request, prismAllows, mockAllows }).toEqual({ request, prismAllows: true, mockAllows: false });
  } else {
    expect({ request, mockAllows }).toEqual({ request, mockAllows: prismAllows });
  }
}
