import { connect as connectTcp, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';
import { bodyReader, type Transport } from './body-reader.js';
import { contentOf, readHead } from './one-connection.js';

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
    const socket: Socket =
      target.protocol === 'https:'
        ? connectTls({ host: target.hostname, port: Number(target.port || 443), servername: target.hostname })
        : connectTcp({ host: target.hostname.replace(/^\[|\]$/g, ''), port: Number(target.port || 80) });
    // The target as written, dot segments and percent-encoding kept (a variation sends them on purpose).
    const path = url.replace(/^[a-z]+:\/\/[^/?#]*/i, '') || '/';
    const fields = Object.entries(headers).flatMap(([name, value]) => [value].flat().map((one) => `${name}: ${one}\r\n`)).join('');
    const bytes = body === undefined ? undefined : Buffer.from(body);
    const length = bytes === undefined ? '' : `content-length: ${bytes.length}\r\n`;
    let read = Buffer.alloc(0);
    let finished = false;
    const done = (result: Awaited<ReturnType<Transport>> | Error) => {
      if (finished) return;
      finished = true;
      clearTimeout(deadline);
      socket.destroy();
      if (result instanceof Error) reject(result);
      else resolve(result);
    };
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
    const deadline = setTimeout(() => done(Object.assign(new Error('timed out'), { name: 'TimeoutError' })), limits.timeoutMs);
    socket.on('data', (chunk: Buffer) => {
      read = Buffer.concat([read, chunk]);
      if (read.length > limits.maxBodyBytes + 65_536) return done(Object.assign(new Error('fetch failed'), { cause: { message: 'the answer passed the body cap' } }));
      step(false);
    });
    socket.on('end', () => step(true));
    socket.on('error', (error: NodeJS.ErrnoException) => done(Object.assign(new Error('fetch failed'), { cause: error })));
    socket.write(`${method} ${path} HTTP/1.0\r\nhost: ${target.host}\r\n${fields}${length}\r\n`);
    if (bytes !== undefined) socket.write(bytes);
  });
