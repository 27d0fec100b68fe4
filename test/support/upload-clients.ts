import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { parseResponses } from './raw-http.js';

/**
 * Clients that upload a body the server may refuse before reading it, as
 * users' clients do: Node's fetch (undici), curl, and raw sockets. Each
 * resolves to what the client could read: the answer's status and body, or
 * the error it reported instead (a network error, "write EPIPE"…).
 */
export type UploadOutcome = { status: number; body: string } | { error: string };

export interface Upload {
  /** The API's base URL, `http://127.0.0.1:PORT/v1`. */
  url: string;
  bytes: number;
  headers: Record<string, string>;
  /** Sent chunked (no Content-Length): the server counts it as it arrives. */
  chunked?: boolean;
}

const MIB = 1024 * 1024;
/** One buffer of the largest body, sliced for each upload. */
const body = Buffer.alloc(64 * MIB, 'a');

/** The sizes uploads cycle through: 1.5 to 64 MiB, more of the small ones, as a test would pick them. */
export const UPLOAD_SIZES = [1.5, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64].map((mib) => Math.round(mib * MIB));

export async function fetchUpload(upload: Upload): Promise<UploadOutcome> {
  const slice = body.subarray(0, upload.bytes);
  const init: RequestInit & { duplex?: 'half' } = { method: 'POST', headers: upload.headers };
  if (upload.chunked) {
    init.body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < slice.length; at += MIB) controller.enqueue(slice.subarray(at, at + MIB));
        controller.close();
      },
    });
    init.duplex = 'half';
  } else init.body = slice;
  try {
    const response = await fetch(`${upload.url}/pets`, init);
    return { status: response.status, body: await response.text() };
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return { error: `${(error as Error).message}: ${cause?.code ?? cause?.message ?? ''}` };
  }
}

/** The bodies curl uploads from, one file per size, written once into `dir`. */
export function writeUploadFiles(dir: string): Map<number, string> {
  const files = new Map<number, string>();
  for (const bytes of UPLOAD_SIZES) {
    const file = join(dir, `body-${bytes}.json`);
    writeFileSync(file, body.subarray(0, bytes));
    files.set(bytes, file);
  }
  return files;
}

/**
 * curl as a user runs it. `expectContinue`: curl's own default for a body
 * over 1 MiB (`Expect: 100-continue`, so the server may answer before any
 * of the body is sent); without it, the body is sent at once.
 */
export function curlUpload(curl: string, upload: Upload, file: string, expectContinue: boolean): Promise<UploadOutcome> {
  const headers = Object.entries(upload.headers).flatMap(([name, value]) => ['-H', `${name}: ${value}`]);
  const args = ['-sS', '-X', 'POST', ...headers, '--data-binary', `@${file}`, '-w', '\n%{http_code}', `${upload.url}/pets`];
  if (!expectContinue) args.push('-H', 'Expect:');
  if (upload.chunked) args.push('-H', 'Transfer-Encoding: chunked');
  return new Promise((resolve) => {
    const child: ChildProcess = spawn(curl, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    child.once('close', (code) => {
      const split = out.lastIndexOf('\n');
      if (code !== 0 || split === -1) resolve({ error: `curl exited ${code}: ${err.trim()}` });
      else resolve({ status: Number(out.slice(split + 1)), body: out.slice(0, split) });
    });
  });
}

/**
 * A raw socket. `slowly`: the body goes in 64 KiB writes, each after the
 * last was taken, while the answer is read as it comes (then the client
 * stops sending, as curl and browsers do). Otherwise the whole body is
 * written before a byte is read, as simple clients do.
 */
export function rawUpload(port: number, upload: Upload, slowly: boolean): Promise<UploadOutcome> {
  const head = [
    'POST /v1/pets HTTP/1.1',
    'Host: 127.0.0.1',
    ...Object.entries(upload.headers).map(([name, value]) => `${name}: ${value}`),
    upload.chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${upload.bytes}`,
    '',
    '',
  ].join('\r\n');
  const slice = body.subarray(0, upload.bytes);
  return new Promise((resolve) => {
    const received: Buffer[] = [];
    let answered = false;
    let writeError: string | undefined;
    const socket = connect(port, '127.0.0.1');
    const finish = (): void => {
      socket.destroy();
      try {
        const [answer] = parseResponses(Buffer.concat(received));
        resolve(answer ? { status: answer.status, body: answer.body.toString('utf8') } : { error: `no answer (${writeError ?? 'closed'})` });
      } catch (error) {
        resolve({ error: `${(error as Error).message} (${writeError ?? 'closed'})` });
      }
    };
    socket.on('data', (chunk: Buffer) => {
      received.push(chunk);
      try {
        // A whole answer: done, whatever is left of the body.
        if (parseResponses(Buffer.concat(received)).length > 0) {
          answered = true;
          finish();
        }
      } catch {
        // Not whole yet.
      }
    });
    socket.on('error', (error: NodeJS.ErrnoException) => (writeError ??= error.code ?? error.message));
    socket.once('close', () => (answered ? undefined : finish()));
    const frame = (part: Buffer): Buffer[] => (upload.chunked ? [Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from('\r\n')] : [part]);
    // A client that writes everything first reads nothing until then.
    if (!slowly) socket.pause();
    socket.once('connect', async () => {
      socket.write(head);
      const step = slowly ? 64 * 1024 : slice.length;
      for (let at = 0; at < slice.length && !answered && !socket.destroyed; at += step) {
        const part = slice.subarray(at, at + step);
        const taken = frame(part).map((piece) => socket.write(piece)).every(Boolean);
        if (!taken) await new Promise((drained) => socket.once('drain', drained).once('close', drained));
      }
      if (upload.chunked && !answered && !socket.destroyed) socket.write('0\r\n\r\n');
      socket.resume();
    });
  });
}
