/**
 * The least a proxy on node:http does: each request piped to the target
 * through a pool of keep-alive connections and the answer piped back, with
 * no routing, no check, no journal and no header handling. What it costs
 * is the floor under any node proxy on the same machine, the mock's
 * proxy mode included (bench/proxy.ts measures both).
 *
 *   node dist/bench/bare-proxy-server.js --port N --target http://127.0.0.1:M
 */
import { Agent, createServer, request } from 'node:http';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { port: { type: 'string' }, host: { type: 'string', default: '127.0.0.1' }, target: { type: 'string' } } });
if (values.target === undefined || values.port === undefined) throw new Error('bare-proxy-server needs --port N --target URL');
const target = new URL(values.target);
const agent = new Agent({ keepAlive: true, maxSockets: 64, maxFreeSockets: 64 });

createServer((incoming, outgoing) => {
  const headers = { ...incoming.headers, host: target.host };
  const out = request({ hostname: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers, agent }, (answer) => {
    outgoing.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
    answer.pipe(outgoing);
  });
  out.on('error', () => outgoing.destroy());
  incoming.pipe(out);
}).listen(Number(values.port), values.host, () => process.stdout.write(`bare proxy listening on http://${values.host}:${values.port}\n`));
