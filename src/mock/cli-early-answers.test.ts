import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startMock, tmpDir, useBuiltCli } from '../../test/support/built-cli.js';
import { findCommand } from '../../test/support/find-command.js';
import {
  curlUpload,
  fetchUpload,
  rawUpload,
  UPLOAD_SIZES,
  writeUploadFiles,
  type Upload,
  type UploadOutcome,
} from '../../test/support/upload-clients.js';

/**
 * A server that answers before it has read a request's body must still let
 * the client read that answer (RFC 9112 §9.6): a client uploading a body
 * too large gets the 413 with its Error body, never "fetch failed" or a
 * reset. Tried as users' clients send, with a CPU burner beside the mock so
 * that the client's writes and the mock's close race as on a busy machine.
 */
useBuiltCli();

const KEY = 'animal-store-dev-key';
const CURL = findCommand('curl');
const json = { 'content-type': 'application/json' };
const authed = { ...json, authorization: `Bearer ${KEY}` };
let burner: ChildProcess | undefined;
let files: Map<number, string>;

beforeAll(() => {
  burner = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
  files = writeUploadFiles(tmpDir());
});
afterAll(() => void burner?.kill('SIGKILL'));

type Client = 'fetch' | 'curl' | 'raw';

/** The i-th upload of a series: its size cycles through 1.5 to 64 MiB; every fourth is chunked. */
const nth = (url: string, i: number, headers: Record<string, string>): Upload => ({
  url,
  bytes: UPLOAD_SIZES[i % UPLOAD_SIZES.length] as number,
  headers,
  chunked: i % 4 === 3,
});

/** `count` uploads from one client, one after another; each outcome that is not `status` with an Error body of `code`, with its upload. */
async function series(client: Client, url: string, count: number, headers: Record<string, string>, status: number, code: string): Promise<string[]> {
  const port = Number(new URL(url).port);
  const wrong: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const upload = nth(url, i, headers);
    let outcome: UploadOutcome;
    if (client === 'fetch') outcome = await fetchUpload(upload);
    // Half of curl's with its default Expect: 100-continue, half sending the body at once.
    else if (client === 'curl') outcome = await curlUpload(CURL as string, upload, files.get(upload.bytes) as string, i % 2 === 0);
    // Half writing slowly while reading, half writing the whole body before reading a byte.
    else outcome = await rawUpload(port, upload, i % 2 === 0);
    const label = `#${i} ${upload.bytes} bytes${upload.chunked ? ' chunked' : ''}`;
    if ('error' in outcome) wrong.push(`${label}: ${outcome.error}`);
    else if (outcome.status !== status) wrong.push(`${label}: ${outcome.status} ${outcome.body.slice(0, 200)}`);
    else {
      const body = JSON.parse(outcome.body) as Record<string, unknown>;
      if (body.code !== code || body.status !== status || typeof body.message !== 'string') wrong.push(`${label}: ${outcome.body.slice(0, 200)}`);
    }
  }
  return wrong;
}

const TIMEOUT = 240_000;
const CLIENTS: Client[] = ['fetch', 'curl', 'raw'];

describe('a body over the limit (1 MiB): every client reads the 413, 200 uploads each', () => {
  it.each(CLIENTS)('%s', { timeout: TIMEOUT }, async (client) => {
    expect(CURL, 'curl is needed (.ci/run installs it)').toBeDefined();
    const mock = await startMock(['--quiet']);
    expect(await series(client, mock.url, 200, authed, 413, 'payload_too_large')).toEqual([]);
    expect(mock.stderr()).toBe('');
  });
});

describe('a large body without a key: every client reads the 401, 40 uploads each', () => {
  it.each(CLIENTS)('%s', { timeout: TIMEOUT }, async (client) => {
    const mock = await startMock(['--quiet']);
    expect(await series(client, mock.url, 40, json, 401, 'unauthorized')).toEqual([]);
  });
});

describe('a large body with a wrong key: every client reads the 401, 20 uploads each', () => {
  it.each(CLIENTS)('%s', { timeout: TIMEOUT }, async (client) => {
    const mock = await startMock(['--quiet']);
    expect(await series(client, mock.url, 20, { ...json, authorization: 'Bearer not-the-key' }, 401, 'unauthorized')).toEqual([]);
  });
});

describe("the profile's own refusal of a large body (400 body_too_large past 16 KiB): every client reads it, 40 uploads each", () => {
  it.each(CLIENTS)('%s', { timeout: TIMEOUT }, async (client) => {
    const profile = readFileSync(join(process.cwd(), 'profiles', 'default.yaml'), 'utf8').replace(
      /body-size: .*/,
      'body-size: { max: 16384, refused: { status: 400, code: body_too_large } }',
    );
    const file = join(tmpDir(), 'small-bodies.yaml');
    writeFileSync(file, profile);
    const mock = await startMock(['--quiet', '--profile', file]);
    expect(await series(client, mock.url, 40, authed, 400, 'body_too_large')).toEqual([]);
  });
});

describe('proxy mode, its own answer while the body arrives (the target cannot be reached: 502): every client reads it, 40 uploads each', () => {
  it.each(CLIENTS)('%s', { timeout: TIMEOUT }, async (client) => {
    // A port nothing listens on: each connection to it is refused at once.
    const mock = await startMock(['--quiet', '--proxy', `http://127.0.0.1:${await freePort()}/v1`]);
    expect(await series(client, mock.url, 40, authed, 502, 'upstream_unavailable')).toEqual([]);
  });
});
