import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener, type HttpBindings } from '@hono/node-server';
import { lowerCaseScheme } from '../../src/mock/http/transport/scheme-case.js';
import { pino } from 'pino';
import type { Contract } from '../../src/document/contract.js';
import { createMockApp } from '../../src/mock/http/app.js';
import { openStore } from '../../src/mock/core/store/open-store.js';
import { scenariosInFolder } from '../../src/mock/core/scenarios/scenarios-in-folder.js';
import { createScenarioLibrary } from '../../src/mock/core/scenarios/scenario-library.js';
import { defaultScenariosDir } from '../../src/mock/core/scenarios/find-scenario.js';
import type { Pet } from '../../src/mock/core/catalogue/pet.js';
import { requestError } from '../../src/mock/http/transport/request-errors.js';
import { listen } from '../../src/mock/http/listen.js';
import { answerClientErrors } from '../support/client-errors.js';
import { FAULTY_SERVER_KEY, type ServerFetch } from '../faulty-servers/defect.js';

/**
 * A spelling server: the real mock, on a
 * fresh store, behind one wrapper, over real HTTP on an ephemeral port of
 * 127.0.0.1, as test/faulty-servers/faulty-server.ts starts one, plus two
 * hooks below HTTP a key check in front of a router may have: `front` sees
 * (and may rewrite) node's request before the adaptor builds a `Request`
 * from it (a front end that turns `\` into `/`, or supplies a missing Host),
 * and `server` may listen to the node server's other events
 * (`checkContinue`).
 */
export interface SpellingServerSpec {
  /** Readable, unique: the test's name. */
  name: string;
  /** The class of spellings it reads otherwise (U6, F13, …). */
  spelling: string;
  /** Who sends that spelling. */
  source: string;
  /** What it does wrong (faulty) or the choice it makes (correct). */
  behaviour: string;
  /** The interface statement it breaks (faulty) or why its choice is defensible (correct). */
  statement: string;
  wrap?: (fetch: ServerFetch) => ServerFetch;
  /** Called for each request before the adaptor reads it: may rewrite `incoming`, or mark it (see `marks`). */
  front?: (incoming: IncomingMessage) => void;
  /** Given the node server and the adaptor's listener: may listen to other events. */
  server?: (server: Server, listener: (incoming: IncomingMessage, outgoing: ServerResponse) => void) => void;
}

/** Marks a front hook leaves on node's request for the wrapper: what the request looked like before the front end. */
export interface Marked {
  spelledRawUrl?: string;
  spelledVia?: string;
}

export const marks = (env: HttpBindings): Marked => env.incoming as unknown as Marked;

export interface SpellingServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

export async function startSpellingServer(spec: SpellingServerSpec | undefined, { contract, pets }: { contract: Contract; pets: readonly Pet[] }): Promise<SpellingServer> {
  const store = await openStore({ library: createScenarioLibrary({ contract, source: scenariosInFolder(contract, defaultScenariosDir()) }), start: { pets } });
  const app = createMockApp({ contract, store, apiKeys: [FAULTY_SERVER_KEY], logger: pino({ level: 'silent' }) });
  const served: ServerFetch = spec?.wrap ? spec.wrap(app.fetch) : app.fetch;
  // A target the adaptor cannot turn into a Request (`/v1\\pets`) answered as the mock's command answers it: 400 with an Error body.
  const adaptor = getRequestListener((request, env) => served(request, env as HttpBindings), { errorHandler: requestError({}, () => undefined) });
  const listener = (incoming: IncomingMessage, outgoing: ServerResponse) => {
    spec?.front?.(incoming);
    lowerCaseScheme(incoming);
    void adaptor(incoming, outgoing);
  };
  const server = createServer(listener);
  spec?.server?.(server, listener);
  answerClientErrors(server);
  await listen(server, 0, '127.0.0.1');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${contract.basePath}`,
    port,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await store.close();
    },
  };
}
