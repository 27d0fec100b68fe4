import { bodyReader, type Transport } from './body-reader.js';
import { contentOf, fieldLines, openSocket, readHead, settleOnce } from './one-connection.js';

/**
 * Sends a request in HTTP/1.0 (RFC 9112 §2.3) on a connection of its own,
 * as nginx writes to its upstreams by default and `curl -0` does: node's
 * client writes only HTTP/1.1. Host is sent (RFC 9110 §7.2: a 1.0 request
 * may lack it, but then a server with several names cannot tell which is
 * meant), a body goes with its length, and the answer is read to its end or
 * to the connection's close (RFC 9112 §9.3: a 1.0 connection is not kept).
 */
export const sendHttp10: Transport = (url, method, headers, body, limits) =>
  new Promise((resolve, reject) => {
    const target = new URL(url);
    const socket = openSocket(target);
    // The target as written, dot segments and percent-encoding kept (a variation sends them on purpose); the absolute-form is the whole URL (RFC 9112 §3.2.2).
    const path = limits.target ?? (url.replace(/^[a-z]+:\/\/[^/?#]*/i, '') || '/');
    const bytes = body === undefined ? undefined : Buffer.from(body);
    const length = bytes === undefined ? '' : `content-length: ${bytes.length}\r\n`;
    let read = Buffer.alloc(0);
    const { done, limit } = settleOnce(socket, resolve, reject);
    const step = (ended: boolean) => {
      const head = readHead(read, method === 'HEAD');
      const content = head && contentOf(read, head, ended);
      if (head && content) {
        const reader = bodyReader(head.status, head.headers, limits);
        reader.add(content.content);
        return done(reader.decoded());
      }
      if (ended) done(Object.assign(new Error('fetch failed'), { cause: { message: 'the server closed the connection' } }));
    };
    limit(limits.timeoutMs, () => done(Object.assign(new Error('timed out'), { name: 'TimeoutError' })));
    socket.on('data', (chunk: Buffer) => {
      read = Buffer.concat([read, chunk]);
      if (read.length > limits.maxBodyBytes + 65_536) return done(Object.assign(new Error('fetch failed'), { cause: { message: 'the answer passed the body cap' } }));
      step(false);
    });
    socket.on('end', () => step(true));
    socket.on('error', (error: NodeJS.ErrnoException) => done(Object.assign(new Error('fetch failed'), { cause: error })));
    // A Host of the request's own form (generate/host-field.ts) instead of the URL's, never both (RFC 9112 §3.2: one Host line).
    const host = Object.keys(headers).some((name) => name.toLowerCase() === 'host') ? '' : `host: ${target.host}\r\n`;
    socket.write(`${method} ${path} HTTP/1.0\r\n${host}${fieldLines(headers)}${length}\r\n`);
    if (bytes !== undefined) socket.write(bytes);
  });
