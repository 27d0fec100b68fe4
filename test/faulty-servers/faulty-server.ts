import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { lowerCaseScheme } from '../../src/mock/http/transport/scheme-case.js';
import type { AddressInfo } from 'node:net';
import { getRequestListener, type HttpBindings } from '@hono/node-server';
import { pino } from 'pino';
import type { Contract } from '../../src/document/contract.js';
import { createMockApp } from '../../src/mock/http/app.js';
import { openStore } from '../../src/mock/core/store/open-store.js';
import { scenariosInFolder } from '../../src/mock/core/scenarios/scenarios-in-folder.js';
import { createScenarioLibrary } from '../../src/mock/core/scenarios/scenario-library.js';
import { defaultScenariosDir } from '../../src/mock/core/scenarios/find-scenario.js';
import { wrapCatalogues } from '../support/wrap-catalogues.js';
import { petView, viewedCatalogue } from './pet-view.js';
import type { Pet } from '../../src/mock/core/catalogue/pet.js';
import { FAULTY_SERVER_KEY, type Defect } from './defect.js';
import { requestError } from '../../src/mock/http/transport/request-errors.js';
import { listen } from '../../src/mock/http/listen.js';
import { answerClientErrors } from '../support/client-errors.js';

export interface FaultyServer {
  /** The API's base URL, e.g. `http://127.0.0.1:40123/v1`. */
  url: string;
  close(): Promise<void>;
}

/**
 * Starts the real mock, on a fresh memory store of `pets`, behind one defect
 * (none for the control), over real HTTP on an ephemeral port of 127.0.0.1.
 */
export async function startFaultyServer(defect: Defect | undefined, { contract, pets }: { contract: Contract; pets: readonly Pet[] }): Promise<FaultyServer> {
  const store = await openStore({ library: createScenarioLibrary({ contract, source: scenariosInFolder(contract, defaultScenariosDir() )}), start: { pets } });
  const change = defect?.catalogue;
  const app = createMockApp({
    contract,
    store: change ? wrapCatalogues(store, (inner) => viewedCatalogue(change(petView(inner)), inner)) : store,
    apiKeys: [FAULTY_SERVER_KEY],
    logger: pino({ level: 'silent' }),
  });
  const served = defect?.wrap ? defect.wrap(app.fetch) : app.fetch;
  // A target the adaptor cannot turn into a Request (`/v1\\pets`) answered as the mock's command answers it: 400 with an Error body.
  const adaptor = getRequestListener((request, env) => served(request, env as HttpBindings), { errorHandler: requestError({}, () => undefined) });
  const server = createServer((incoming: IncomingMessage, outgoing: ServerResponse) => {
    defect?.front?.(incoming);
    lowerCaseScheme(incoming);
    void adaptor(incoming, outgoing);
  });
  defect?.server?.(server);
  answerClientErrors(server);
  await listen(server, 0, '127.0.0.1');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${contract.basePath}`,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        // A faulty server may leave requests unanswered: nothing is waited for.
        server.closeAllConnections();
      });
      await store.close();
    },
  };
}
