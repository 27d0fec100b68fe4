/**
 * Hono on @hono/node-server doing exactly the baseline's work
 * (bench/same-work.ts) and nothing else: what Hono itself costs, so the
 * mock's figures can be read against it as well as against node:http.
 *
 *   node dist/bench/bare-hono-server.js --port N --fixtures fixtures/pets.json
 */
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { parseArgs } from 'node:util';
import { sameWork, type Answer } from './same-work.js';

const { values } = parseArgs({
  options: { port: { type: 'string' }, host: { type: 'string', default: '127.0.0.1' }, fixtures: { type: 'string' } },
});
if (values.fixtures === undefined) throw new Error('bare-hono-server needs --fixtures FILE');
const work = sameWork(values.fixtures);

const send = ({ status, body }: Answer): Response => new Response(body, { status, headers: { 'content-type': 'application/json' } });
const queryOf = (url: string): string => {
  const at = url.indexOf('?');
  return at === -1 ? '' : url.slice(at + 1);
};

const app = new Hono()
  .get('/v1/pets', (c) => send(work.listPets(c.req.header('authorization'), queryOf(c.req.url))))
  .post('/v1/pets', async (c) => send(work.createPet(c.req.header('authorization'), await c.req.text())))
  .get('/v1/pets/:petId', (c) => send(work.getPet(c.req.header('authorization'), c.req.param('petId'))));

const server = serve({ fetch: app.fetch, port: Number(values.port ?? 0), hostname: values.host }, (info) => {
  process.stdout.write(`bare-hono listening on http://${values.host}:${info.port}/v1\n`);
});
process.on('SIGTERM', () => {
  server.close();
  process.exit(0);
});
