import { errorBody } from '../../core/errors.js';
import { checkSessionStub } from '../../core/session-stubs/check-session-stub.js';
import { MAX_SESSION_STUBS, type SessionStub } from '../../core/session-stubs/session-stubs.js';
import { stubScenarioFile } from '../../core/session-stubs/stub-scenario-file.js';
import type { Session } from '../../core/store/mock-store.js';
import { respond, sendError } from '../respond.js';
import { bodySize } from '../steps/body-size.js';
import { asMiddleware, exchange, json, sessionOf, type AdminRouter, type AdminRoutesOptions } from './admin-router.js';
import { openForWrite } from './open-session.js';

/** The largest stub body: a stub's response body is an answer's, and the admin API's other writes take as much. */
const MAX_STUB_BYTES = 64 * 1024;

/**
 * A session's own stubs: list, add, remove, and one saved as a scenario
 * file. Each acts on the request's session (`X-Mock-Session`, else the
 * shared default); adding is a write, so it needs a key as every admin
 * write does, and starts the session if it is not running, as an
 * activation does.
 */
export function stubRoutes(router: AdminRouter, { contract, store, sessionPerKey = false }: AdminRoutesOptions): void {
  router.on('GET', '/stubs', async (c) => json(c, 200, await listed(sessionOf(c))));

  router.on('POST', '/stubs', asMiddleware(bodySize(MAX_STUB_BYTES)), async (c) => {
    const x = exchange(c);
    let body: unknown;
    try {
      body = JSON.parse(await c.req.text()) as unknown;
    } catch {
      return sendError(x, errorBody('malformed_json', 'the body is not well-formed JSON; send one stub, as a scenario file writes it: {"match": {"operation": "getPet"}, "fault": {"then": {"status": 500}}}'));
    }
    const opened = await openForWrite(x, store, sessionPerKey);
    if ('refused' in opened) return opened.refused;
    const { session, started } = opened;
    const stub = checkSessionStub(contract, body, (await session.stubs.list()).map((s) => s.id));
    if (!stub.ok) {
      // A refused stub leaves no session behind that it alone started, as a refused activation does not.
      if (started && session.id !== null) await store.end(session.id);
      return sendError(x, stub.error);
    }
    const refused = await session.stubs.add(stub.value);
    if (refused === 'full') {
      return sendError(x, errorBody('too_many_stubs', `the session holds ${MAX_SESSION_STUBS} stubs, as many as a session may: remove one (DELETE /__mock/stubs/ID) before adding another`));
    }
    if (refused === 'taken') return sendError(x, errorBody('invalid_body', `$.id ${stub.value.id} names a stub the session has already: remove it first, or give another id`));
    return respond(x, 201, JSON.stringify({ session: session.id, stub: stub.value }), { location: `/__mock/stubs/${stub.value.id}` });
  });

  router.on('DELETE', '/stubs/:id', async (c) => {
    const id = c.req.param('id') ?? '';
    const session = sessionOf(c);
    if (!(await session.stubs.remove(id))) return sendError(exchange(c), unknownStub(session, id));
    return json(c, 200, await listed(session));
  });

  router.on('GET', '/stubs/:id/scenario', async (c) => {
    const id = c.req.param('id') ?? '';
    const session = sessionOf(c);
    const stub = (await session.stubs.list()).find((s) => s.id === id);
    if (!stub) return sendError(exchange(c), unknownStub(session, id));
    const { name, text } = stubScenarioFile(stub, (await session.control.active()).scenario?.catalogue);
    // RFC 9512: application/yaml; RFC 6266: a download, named as the scenario must be to load.
    return respond(exchange(c), 200, text, { 'content-type': 'application/yaml; charset=utf-8', 'content-disposition': `attachment; filename="${name}"` });
  });
}

async function listed(session: Session): Promise<{ session: string | null; max: number; stubs: readonly SessionStub[] }> {
  return { session: session.id, max: MAX_SESSION_STUBS, stubs: await session.stubs.list() };
}

const unknownStub = (session: Session, id: string) =>
  errorBody('unknown_stub', `session ${session.id ?? '(the shared default)'} has no stub ${JSON.stringify(id.slice(0, 80))}; GET /__mock/stubs lists its stubs`);
