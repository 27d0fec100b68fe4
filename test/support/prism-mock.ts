/**
 * `prism mock openapi/animal-store.yaml` as far as the harness can tell it
 * apart, for the tests of the wrong-target verdict: @stoplight/prism-cli is
 * not installed, so this is prism-http's own router and mocker (the code
 * `prism mock` runs for every request) behind a node:http server shaped as
 * prism-cli's: the body is parsed before routing, and a body that is not
 * JSON gets 400; an error of prism's (no path matched: 404) is its
 * problem+json. Like `prism mock`, it serves the document's paths at the
 * root (`/pets`), whatever its `servers` say, so a harness asked to test
 * `…/v1` gets 404 for every route. Not a test file itself.
 */
import { createRequire } from 'node:module';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { pino } from 'pino';
import { getHttpOperationsFromSpec, type IHttpOperation } from '../../src/document/prism.js';
import { packageRoot } from '../../src/shared/package-root.js';
import { startRawServer, type TestServer } from './contract-cli.js';

const require = createRequire(import.meta.url);

interface PrismOutput {
  status: number;
  headers: Record<string, string>;
  data: unknown;
}
interface PrismClient {
  request(url: string, input: { method: string; headers: Record<string, string>; body?: unknown }): Promise<PrismOutput>;
}
const { createClientFromOperations } = require('@stoplight/prism-http/dist/client') as {
  createClientFromOperations(operations: IHttpOperation[], config: object): PrismClient;
};

/** prism-cli's mock configuration: static examples, requests validated, security checked, no upstream. */
const MOCK_CONFIG = { mock: { dynamic: false }, validateRequest: true, validateResponse: false, checkSecurity: true, errors: false, upstreamProxy: undefined, isProxy: false };

const readBody = (request: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    let text = '';
    request.setEncoding('utf8').on('data', (chunk: string) => (text += chunk)).on('end', () => resolve(text)).on('error', reject);
  });

/** Starts it on a free port; its `url` is the base the harness would be given (`…/v1`), which this server does not serve. */
export async function startPrismMock(): Promise<TestServer> {
  const operations = await getHttpOperationsFromSpec(join(packageRoot(), 'openapi', 'animal-store.yaml'));
  // prism logs at a level of its own, `success`, as prism-cli's logger defines it.
  const logger = pino({ level: 'silent', customLevels: { success: 35 } });
  const client = createClientFromOperations(operations, { ...MOCK_CONFIG, logger });
  return startRawServer((request, response) => {
    void (async () => {
      const text = await readBody(request);
      const problem = (status: number, type: string, title: string, detail: string) => {
        response.writeHead(status, { 'content-type': 'application/problem+json' });
        response.end(JSON.stringify({ type, title, status, detail }));
      };
      let body: unknown;
      if (text !== '' && /json/i.test(request.headers['content-type'] ?? '')) {
        try {
          body = JSON.parse(text);
        } catch (error) {
          return problem(400, 'https://stoplight.io/prism/errors#UNPROCESSABLE_ENTITY', 'Invalid JSON', (error as Error).message);
        }
      }
      const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : (value ?? '')]));
      try {
        const output = await client.request(request.url ?? '/', { method: (request.method ?? 'GET').toLowerCase(), headers, ...(body === undefined ? {} : { body }) });
        response.writeHead(output.status, output.headers);
        response.end(output.data === undefined ? '' : JSON.stringify(output.data));
      } catch (error) {
        // A prism error's name is its problem type's URL.
        const prismError = error as { name: string; status?: number; message: string; detail?: string };
        problem(prismError.status ?? 500, prismError.name, prismError.message, prismError.detail ?? '');
      }
    })();
  });
}
