import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { checkExchange, pathBelowBase } from '../../src/verdict/exchange-checks.js';
import { createHttpClient, DEFAULT_MAX_BODY_BYTES } from '../../src/contract-tests/http-client.js';
import type { ApiRequest } from '../../src/contract-tests/types.js';
import type { OperationId } from '../../src/verdict/exchange.js';
import { loadContract } from '../../src/document/load-contract.js';
import { createResponseValidator } from '../../src/document/response-validator.js';
import { loadFixtureCatalogue } from '../../src/mock/core/fixtures/load-catalogue.js';
import { DEFECTS } from '../faulty-servers/all-defects.js';
import { FAULTY_SERVER_KEY } from '../faulty-servers/defect.js';
import { startFaultyServer } from '../faulty-servers/faulty-server.js';
import { startMock, useBuiltCli, type RunningMock } from '../support/built-cli.js';

/**
 * Every deliberately faulty server in turn behind one proxy: a fixed set of
 * requests, sent with the harness's own HTTP client through the proxy, and
 * for each answer the target sent, the proxy's violations are exactly the
 * check ids the harness's checks give the same answer as the client got
 * it. So a fault that shows in these exchanges reads the same in the
 * proxy's journal as in a harness report.
 */
useBuiltCli();
const contract = loadContract();
const catalogue = loadFixtureCatalogue(contract);
if (!catalogue.ok) throw new Error(catalogue.error);
const validatorLoading = createResponseValidator();

const PROBES: ApiRequest[] = [
  { method: 'GET', path: '/pets' },
  { method: 'GET', path: '/pets?limit=5' },
  { method: 'GET', path: '/pets?limit=100' },
  { method: 'GET', path: '/pets?status=sold' },
  { method: 'GET', path: '/pets?status=available&limit=3' },
  { method: 'GET', path: '/pets?limit=0' },
  { method: 'GET', path: '/pets/1' },
  { method: 'GET', path: '/pets/2' },
  { method: 'GET', path: '/pets/999999' },
  { method: 'GET', path: '/pets/abc' },
  { method: 'POST', path: '/pets', headers: { 'content-type': 'application/json' }, body: '{"name":"Probe","categoryId":2}' },
  { method: 'POST', path: '/pets', headers: { 'content-type': 'application/json' }, body: '{"name":"Probe"}' },
  { method: 'POST', path: '/pets', headers: { 'content-type': 'text/plain' }, body: 'not json' },
  { method: 'GET', path: '/pets', auth: 'none' },
];

/** A TCP switch in front of whichever faulty server is on: switching closes every connection, so none reaches the last one. */
function tcpSwitch(): { server: Server; to(port: number): void } {
  let target = 0;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect({ host: '127.0.0.1', port: target });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket)).on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  return {
    server,
    to(port) {
      target = port;
      for (const socket of sockets) socket.destroy();
    },
  };
}

let mock: RunningMock;
const relay = tcpSwitch();
beforeAll(async () => {
  await new Promise<void>((resolve) => relay.server.listen(0, '127.0.0.1', resolve));
});
afterAll(() => relay.server.close());

describe('each faulty server through the proxy', () => {
  it('the proxy\'s violations of each answer are the harness\'s check ids for it', async () => {
    mock = await startMock(['--proxy', `http://127.0.0.1:${(relay.server.address() as { port: number }).port}/v1`, '--quiet', '--proxy-timeout', '5000']);
    const origin = new URL(mock.url).origin;
    const validator = await validatorLoading;
    const send = createHttpClient({ baseUrl: mock.url, apiKey: FAULTY_SERVER_KEY, timeoutMs: 10_000, maxBodyBytes: DEFAULT_MAX_BODY_BYTES, retries: 0 });
    const mismatches: string[] = [];
    const visible = new Set<string>();
    let compared = 0;
    // Defects that hang are the proxy's timeout (its own 504, not the target's answer): the forwarding tests cover that.
    for (const defect of DEFECTS.filter((d) => d.timeoutMs === undefined)) {
      const server = await startFaultyServer(defect, { contract, pets: catalogue.value.pets });
      relay.to(Number(new URL(server.url).port));
      await delay(20);
      expect((await fetch(`${origin}/__mock/journal`, { method: 'DELETE', headers: { authorization: 'Bearer animal-store-dev-key' } })).status).toBeLessThan(300);
      const harness: string[][] = [];
      for (const probe of PROBES) {
        const exchange = await send(probe);
        const operation = validator.operationFor(probe.method, pathBelowBase(`${mock.url}${probe.path}`, contract.basePath));
        const findings = checkExchange(validator, operation, { ...exchange, operation: operation?.iid as OperationId | undefined });
        harness.push([...new Set(findings.filter((f) => f.level === 'error').map((f) => f.check ?? 'exchange-response-schema'))].sort());
      }
      const { entries } = (await (await fetch(`${origin}/__mock/journal`)).json()) as { entries: Array<{ upstream?: string; violations?: Array<{ rule: string }> }> };
      await server.close();
      expect(entries.length, defect.name).toBe(PROBES.length);
      entries.forEach((entry, i) => {
        if (entry.upstream !== 'answered') return;
        compared++;
        const proxy = [...new Set((entry.violations ?? []).map((v) => v.rule))].sort();
        if (proxy.length > 0) visible.add(defect.name);
        if (proxy.join() !== (harness[i] as string[]).join()) mismatches.push(`${defect.name}, ${PROBES[i]?.method} ${PROBES[i]?.path}: proxy ${proxy.join() || 'none'}, harness ${(harness[i] as string[]).join() || 'none'}`);
      });
    }
    expect(mismatches).toEqual([]);
    expect(compared).toBeGreaterThan(DEFECTS.length * 10);
    // Defects these requests reach show; most need what the harness's rules send (a sequence, a generated case, a variant of a field).
    expect([...visible]).toEqual(expect.arrayContaining(['limit off by one (limit + 1 animals)', 'Pets items lack name']));
  }, 300_000);
});
