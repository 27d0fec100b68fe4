/**
 * The reference the mock is measured against: the same three operations on
 * bare `node:http`, with no routing library, validation, auth or CORS.
 * Every answer is built with JSON.stringify per request, as the mock does.
 *
 *   node dist/bench/baseline-server.js --port N --fixtures fixtures/pets.json
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { parseArgs } from 'node:util';

interface Pet {
  id: number;
  name: string;
  categoryId: number;
  status?: string;
}

const { values } = parseArgs({
  options: { port: { type: 'string' }, host: { type: 'string', default: '127.0.0.1' }, fixtures: { type: 'string' } },
});
if (values.fixtures === undefined) throw new Error('baseline-server needs --fixtures FILE');

const pets: Pet[] = (JSON.parse(readFileSync(values.fixtures, 'utf8')) as Pet[]).map(toPet);
const byId = new Map(pets.map((pet) => [pet.id, pet]));
let lastId = pets.reduce((max, pet) => Math.max(max, pet.id), 0);

function toPet(value: Pet): Pet {
  const pet: Pet = { id: value.id, name: value.name, categoryId: value.categoryId };
  if (value.status !== undefined) pet.status = value.status;
  return pet;
}

function send(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

function handle(req: IncomingMessage, res: ServerResponse): void {
  const url = req.url ?? '/';
  const queryAt = url.indexOf('?');
  const path = queryAt === -1 ? url : url.slice(0, queryAt);

  if (path === '/v1/pets' && req.method === 'GET') {
    const limit = Number(new URLSearchParams(queryAt === -1 ? '' : url.slice(queryAt + 1)).get('limit') ?? 20);
    send(res, 200, JSON.stringify(pets.slice(0, limit)));
    return;
  }
  if (path === '/v1/pets' && req.method === 'POST') {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let sent: Pet;
      try {
        sent = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Pet;
      } catch {
        send(res, 400, '{"code":"malformed_json"}');
        return;
      }
      lastId += 1;
      const pet = toPet({ ...sent, id: lastId });
      pets.push(pet);
      byId.set(pet.id, pet);
      send(res, 201, JSON.stringify(pet));
    });
    return;
  }
  if (path.startsWith('/v1/pets/') && req.method === 'GET') {
    const pet = byId.get(Number(path.slice('/v1/pets/'.length)));
    if (pet) send(res, 200, JSON.stringify(pet));
    else send(res, 404, '{"code":"pet_not_found"}');
    return;
  }
  send(res, 404, '{"code":"route_not_found"}');
}

const server = createServer(handle);
server.listen(Number(values.port ?? 0), values.host, () => {
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : values.port;
  process.stdout.write(`baseline listening on http://${values.host}:${port}/v1\n`);
});
// A clean exit on SIGTERM, so `--cpu-prof` can write its profile.
process.on('SIGTERM', () => process.exit(0));
