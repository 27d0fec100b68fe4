/**
 * The reference the mock is measured against: the same three operations on
 * bare `node:http`, with no routing library, validation or CORS; the key
 * check, filter, slice and JSON.stringify per request are bench/same-work.ts.
 *
 *   node dist/bench/baseline-server.js --port N --fixtures fixtures/pets.json
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { parseArgs } from 'node:util';
import { sameWork, type Answer } from './same-work.js';

const { values } = parseArgs({
  options: { port: { type: 'string' }, host: { type: 'string', default: '127.0.0.1' }, fixtures: { type: 'string' } },
});
if (values.fixtures === undefined) throw new Error('baseline-server needs --fixtures FILE');
const work = sameWork(values.fixtures);

function send(res: ServerResponse, { status, body }: Answer): void {
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

function handle(req: IncomingMessage, res: ServerResponse): void {
  const url = req.url ?? '/';
  const queryAt = url.indexOf('?');
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  const authorization = req.headers.authorization;

  if (path === '/v1/pets' && req.method === 'GET') return send(res, work.listPets(authorization, queryAt === -1 ? '' : url.slice(queryAt + 1)));
  if (path === '/v1/pets' && req.method === 'POST') {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => send(res, work.createPet(authorization, Buffer.concat(chunks).toString('utf8'))));
    return;
  }
  if (path.startsWith('/v1/pets/') && req.method === 'GET') return send(res, work.getPet(authorization, path.slice('/v1/pets/'.length)));
  send(res, { status: 404, body: '{"code":"route_not_found","message":"No route.","status":404}' });
}

const server = createServer(handle);
server.listen(Number(values.port ?? 0), values.host, () => {
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : values.port;
  process.stdout.write(`baseline listening on http://${values.host}:${port}/v1\n`);
});
// A clean exit on SIGTERM, so `--cpu-prof` can write its profile.
process.on('SIGTERM', () => process.exit(0));
