/**
 * One Redis command over a fresh TCP connection, in raw RESP: enough for the
 * test helpers to ask "are you ready?" and for their own tests to SET and
 * GET, with no client library (the mock's client is what the other Redis
 * tests exercise; this must not depend on it).
 */
import { connect } from 'node:net';

const REPLY_TIMEOUT_MS = 2_000;

/** A reply: simple string, integer, bulk string, or null (the nil bulk string). Error replies reject. */
export type RedisReply = string | number | null;

/**
 * Sends `args` as a RESP array of bulk strings to 127.0.0.1:`port` and
 * resolves with the one reply; rejects on an error reply, a refused or
 * closed connection, a reply type it does not read (arrays, RESP3), or no
 * whole reply within two seconds. With `password`, an AUTH goes first on the
 * same connection (a Redis with `requirepass`).
 */
export function redisCommand(port: number, args: string[], password?: string): Promise<RedisReply> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    let received = Buffer.alloc(0);
    const finish = (outcome: () => void): void => {
      socket.destroy();
      outcome();
    };
    socket.setTimeout(REPLY_TIMEOUT_MS, () => finish(() => reject(new Error(`redis on port ${port}: no reply to ${args[0]} within ${REPLY_TIMEOUT_MS} ms`))));
    socket.once('error', (error) => finish(() => reject(error)));
    socket.once('close', () => reject(new Error(`redis on port ${port}: connection closed before a whole reply to ${args[0]}`)));
    // AUTH's reply is one line: +OK, or the error that rejects.
    let authReplyDone = password === undefined;
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      try {
        if (!authReplyDone) {
          const lineEnd = received.indexOf('\r\n');
          if (lineEnd < 0) return;
          parseReply(received.subarray(0, lineEnd + 2));
          received = received.subarray(lineEnd + 2);
          authReplyDone = true;
          if (received.length === 0) return;
        }
        const reply = parseReply(received);
        if (reply !== INCOMPLETE) finish(() => resolve(reply));
      } catch (error) {
        finish(() => reject(error));
      }
    });
    socket.write((password === undefined ? '' : encodeCommand(['AUTH', password])) + encodeCommand(args));
  });
}

/** RESP's request form: an array of bulk strings, lengths in bytes. */
function encodeCommand(args: string[]): string {
  return `*${args.length}\r\n` + args.map((arg) => `$${Buffer.byteLength(arg)}\r\n${arg}\r\n`).join('');
}

const INCOMPLETE = Symbol('incomplete');

/** The reply in `data`, or INCOMPLETE while more bytes are due. */
function parseReply(data: Buffer): RedisReply | typeof INCOMPLETE {
  const lineEnd = data.indexOf('\r\n');
  if (lineEnd < 0) return INCOMPLETE;
  const line = data.subarray(1, lineEnd).toString('utf8');
  switch (String.fromCharCode(data[0] ?? 0)) {
    case '+':
      return line;
    case '-':
      throw new Error(`redis answered an error: ${line}`);
    case ':':
      return Number(line);
    case '$': {
      const length = Number(line);
      if (length < 0) return null;
      const start = lineEnd + 2;
      return data.length < start + length + 2 ? INCOMPLETE : data.subarray(start, start + length).toString('utf8');
    }
    default:
      throw new Error(`redis answered a reply type this helper does not read: ${JSON.stringify(data.subarray(0, 40).toString('utf8'))}`);
  }
}
