import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { CONTRACT_BIN, startRawServer } from '../../test/support/contract-cli.js';
import { byId, parseHtml, select, textOf, type HtmlElement } from '../../test/support/html-tree.js';
import { childEnv } from '../../test/support/processes.js';
import { useContractRun } from '../../test/support/contract-run-fixture.js';
import { createHttpClient, REDACTED_KEY } from '../contract-tests/http-client.js';

/**
 * The key never reaches a report, in whatever form a server echoes it: the
 * built harness in a child process against a server that accepts any key
 * and sends back what it was sent, in each of the forms below, in its own
 * header and in a PHP-style JSON body; the four reports of one run (pretty
 * on stdout, JSON, JUnit, HTML) are read back as text and searched.
 */
const { processes, servers, dir } = useContractRun('redact-key');

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
const b64url = (text: string) => Buffer.from(text, 'utf8').toString('base64url');
const hex = (n: number) => n.toString(16).padStart(2, '0');
/** Every character but letters and digits through `escape`, as escapers of pages and JSON do. */
const escapeOthers = (text: string, escape: (code: number) => string) => text.replace(/[^A-Za-z0-9]/g, (c) => escape(c.charCodeAt(0)));

/** A credential written back character by character: in JSON, in URLs, in pages. */
const TEXT_ECHOES: Record<string, (token: string) => string> = {
  plain: (token) => token,
  // PHP's json_encode: `/` written `\/`.
  'json-slash': (token) => JSON.stringify(token).slice(1, -1).replaceAll('/', '\\/'),
  'json-unicode': (token) => [...token].map((c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`).join(''),
  percent: (token) => encodeURIComponent(token),
  // A form's encoding: `+` for a space, and lower-case hex as some encoders write it.
  'percent-form': (token) => new URLSearchParams({ k: token }).toString().slice(2).replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase()),
  'percent-all': (token) => [...Buffer.from(token, 'utf8')].map((byte) => `%${hex(byte)}`).join(''),
  'html-hex': (token) => escapeOthers(token, (code) => `&#x${hex(code).toUpperCase()};`),
  'html-decimal': (token) => escapeOthers(token, (code) => `&#${code};`),
  'html-named': (token) => token.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] as string),
};

/** A credential in base64, alone or with what was around it. */
const BASE64_ECHOES: Record<string, (token: string, header: string) => string> = {
  base64: (token) => b64(token),
  base64url: (token) => b64url(token),
  'base64-header': (_, header) => b64(header),
  'base64url-header': (_, header) => b64url(header),
  'base64-header-json': (_, header) => b64(header).replaceAll('/', '\\/'),
  'basic-user': (token) => b64(`user:${token}`),
  'basic-empty-password': (token) => b64(`${token}:`),
  'basic-empty-user': (token) => b64(`:${token}`),
};

const echoes = (token: string, header: string): Record<string, string> => ({
  ...Object.fromEntries(Object.entries(TEXT_ECHOES).map(([name, echo]) => [name, echo(token)])),
  ...Object.fromEntries(Object.entries(BASE64_ECHOES).map(([name, echo]) => [name, echo(token, header)])),
});

/** The tokens of an Authorization header that carry the key: not the scheme, not the harness's fixed wrong key. */
const tokensOf = (header: string): string[] => header.split(/[\s,]+/).filter((t) => t.length >= 8 && t !== 'contract-test-wrong-key');

/** Every string in a parsed report (values, keys, attributes), so that escaping by the report's format hides nothing from the search. */
const strings = (value: unknown): string[] =>
  typeof value === 'string' ? [value] : value && typeof value === 'object' ? Object.entries(value).flatMap(([k, v]) => [k, ...strings(v)]) : [];

/** Any 8 characters in a row of a token, in any echo; any 10 characters in a row of its base64 echoes: none may appear. */
function leaks(text: string, tokens: readonly string[]): string[] {
  const found = new Set<string>();
  const windows = (of: string, size: number) => Array.from({ length: Math.max(0, of.length - size + 1) }, (_, i) => of.slice(i, i + size));
  for (const token of tokens) {
    for (const [form, echo] of Object.entries(TEXT_ECHOES)) {
      for (const part of windows(token, 8)) if (text.includes(echo(part))) found.add(`${form} of ${part}`);
    }
    for (const [form, echo] of Object.entries(BASE64_ECHOES)) {
      for (const part of windows(echo(token, `Bearer ${token}`), 10)) if (text.includes(part)) found.add(`${form} of ${token}: ${part}`);
    }
  }
  return [...found];
}

describe.concurrent('the key in the forms a server echoes it (the built CLI, every reporter)', { timeout: 60_000 }, () => {
  // The reviewer's key, base64-like with `/` and `+`; and one with a space, quotes, `&` and `<`.
  it.each([
    ['Zm9vYmFy/c2VjcmV0+a2V5', 'list-limit-1,auth-near-misses-list-pets'],
    ['qa key "beta" & <ok>/1', 'list-limit-1'],
  ])('key %j: shown as <API key> in each echo, in no report in any form', async (key, only) => {
    const received = new Set<string>();
    const server = await startRawServer((request, response) => {
      const header = request.headers.authorization ?? '';
      received.add(header);
      const token = header.slice(header.indexOf(' ') + 1);
      const forms = echoes(token, header);
      const headers = Object.fromEntries(Object.entries(forms).map(([name, value]) => [`x-echo-${name}`, value]));
      response.writeHead(200, { 'content-type': 'application/json', ...headers, 'x-echo-url': request.url ?? '' });
      response.end(JSON.stringify({ seen: header, forms }).replaceAll('/', '\\/'));
    });
    servers.push(server);
    const folder = join(dir(), b64url(key));
    const [html, json, xml] = ['html', 'json', 'xml'].map((ext) => join(folder, `report.${ext}`)) as [string, string, string];
    const args = ['--base-url', server.url, '--api-key', key, '--only', only, '--reporter', 'html', '--output', html, '--reporter', 'json', '--output', json, '--reporter', 'junit', '--output', xml];
    const run = await processes.node([CONTRACT_BIN, ...args], { env: childEnv(), cwd: dir() });
    expect(run.code, run.stderr).toBe(1);

    const page = parseHtml(readFileSync(html, 'utf8'));
    const reports = {
      'pretty (stdout)': run.stdout,
      stderr: run.stderr,
      json: strings(JSON.parse(readFileSync(json, 'utf8'))).join('\n'),
      junit: strings(new XMLParser({ ignoreAttributes: false, htmlEntities: true }).parse(readFileSync(xml, 'utf8'))).join('\n'),
      html: strings(page).join('\n'),
    };
    expect([...received]).toContain(`Bearer ${key}`);
    const tokens = [...received].flatMap(tokensOf);
    for (const [where, text] of Object.entries(reports)) expect(leaks(text, [key, ...tokens]), where).toEqual([]);

    // The echoes were shown: each header of the failing answer, with the key in its place.
    // (The example of the first cause: every rule run got the same echoing 200.)
    const response = textOf(select(byId(page, 'cause-1'), 'pre', 'response')[0] as HtmlElement).split('\n');
    for (const form of Object.keys(echoes(key, `Bearer ${key}`))) {
      const line = response.find((l) => l.startsWith(`x-echo-${form}: `));
      expect(line, form).toContain(REDACTED_KEY);
    }
  });
});

describe('a body cut short inside an echo of the key (the HTTP client, in process)', () => {
  const key = 'Zm9vYmFy/c2VjcmV0+a2V5';
  // The kept start of a cut body is 4,096 bytes; each echo below is cut inside its escape of the key's `/` (`%2` of `%2F`, `\` of `\/`).
  it.each([
    ['percent-encoded', encodeURIComponent(key), 10],
    ['JSON-escaped', TEXT_ECHOES['json-slash']?.(key) as string, 9],
  ])('%s: neither the key nor its first characters, nor the start of an escape, are kept', async (_, echoed, kept) => {
    const server = await startRawServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(`${'x'.repeat(4096 - kept)}${echoed}${'x'.repeat(2 * 1024 * 1024)}`);
    });
    servers.push(server);
    const send = createHttpClient({ baseUrl: server.url, apiKey: key, timeoutMs: 10_000, maxBodyBytes: 1024 * 1024, retries: 0 });
    const exchange = await send({ method: 'GET', path: '/pets' });
    expect(exchange.response?.unread).toBeDefined();
    expect(exchange.response?.body).toBe('x'.repeat(4096 - kept));
  });
});
