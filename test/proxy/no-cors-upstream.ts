import { createServer } from 'node:http';
import { closeServer, listen } from '../support/built-cli.js';

export interface NoCorsUpstream {
  /** Its base, `http://127.0.0.1:PORT/v1`. */
  url: string;
  close(): Promise<void>;
}

/**
 * A staging as browser apps often meet it through a local mock: it serves
 * listPets and createPet for one key, and sends no CORS field of its own,
 * or, with `ownCors`, an `Access-Control-Allow-Origin` for its own site
 * only. Its answers vary by `Accept-Encoding`, as a compressing server's do.
 */
export async function startNoCorsUpstream(key: string, { ownCors = false } = {}): Promise<NoCorsUpstream> {
  const pets: Array<{ id: number; name: string; categoryId: number; status?: string }> = [{ id: 1, name: 'Rex', categoryId: 1, status: 'available' }];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const headers: Record<string, string> = { 'content-type': 'application/json', vary: 'Accept-Encoding', ...(ownCors && { 'access-control-allow-origin': 'https://staging.example' }) };
      const send = (status: number, body: unknown): void => {
        res.writeHead(status, headers);
        res.end(JSON.stringify(body));
      };
      if (req.headers.authorization !== `Bearer ${key}`) return send(401, { code: 'unauthorized', message: 'a valid key is needed', status: 401 });
      if (req.method === 'GET' && req.url?.startsWith('/v1/pets')) return send(200, pets);
      if (req.method === 'POST' && req.url === '/v1/pets') {
        const pet = { id: pets.length + 1, ...(JSON.parse(Buffer.concat(chunks).toString('utf8')) as { name: string; categoryId: number }) };
        pets.push(pet);
        return send(201, pet);
      }
      send(404, { code: 'not_found', message: 'no such resource', status: 404 });
    });
  });
  const port = await listen(server);
  return {
    url: `http://127.0.0.1:${port}/v1`,
    close: () => {
      server.closeAllConnections();
      return closeServer(server);
    },
  };
}
