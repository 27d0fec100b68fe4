import type { HttpBindings } from '@hono/node-server';
import type { IncomingMessage, Server } from 'node:http';
import type { PetView } from './pet-view.js';

/** The mock app's fetch, as the node adaptor calls it: the request and the node objects under it. */
export type ServerFetch = (request: Request, env: HttpBindings) => Response | Promise<Response>;

/**
 * A deliberately faulty server: the real mock with one statement of
 * animal-store-interface.md broken, by rewriting requests before the mock
 * or responses after it (`wrap`), or by a faulty catalogue behind it (`catalogue`).
 * Called a defect, not a fault, so it is not taken for the mock's scenario
 * faults (src/mock/http/faults/), which are a feature of the mock.
 */
export interface Defect {
  /** Readable, unique: the test's name. */
  name: string;
  /** The one interface statement it breaks, quoted or closely paraphrased, with its section. */
  breaks: string;
  wrap?: (fetch: ServerFetch) => ServerFetch;
  /** A front end below HTTP: sees (and may rewrite) node's request before the adaptor builds a `Request` from it (a front end that reads `\` as `/`). */
  front?: (incoming: IncomingMessage) => void;
  /** Each scenario state's catalogue, as objects, changed (the mock's store is wrapped, see wrapCatalogues). */
  catalogue?: (pets: PetView) => PetView;
  /**
   * Given the node server under the mock: may listen to its other events
   * (`checkContinue`, whose listener a key middleware on `request` never sees).
   */
  server?: (server: Server) => void;
  /** The harness's per-request time limit for this defect's run (default: the harness's own). */
  timeoutMs?: number;
  /** The pause before the run reads back what it created (`--settle`; default none, as runSuite's). */
  settleMs?: number;
  /**
   * Contract rules that must be among those that catch it, so that a catch
   * for another reason (say, a side effect) does not count as this defect's.
   */
  caughtBy: readonly string[];
}

/** The one key the faulty servers accept. */
export const FAULTY_SERVER_KEY = 'faulty-server-key';
