/**
 * `animal-store-mock/fetch`: the mock in-process, as one `fetch`, in any
 * runtime (node, a browser, a service worker). docs/in-tests-and-the-browser.md.
 */
export { createMock, type MockEngine } from '../mock/engine/create-mock.js';
export type { CreateMockOptions } from '../mock/engine/engine-start.js';
export type { Log } from '../mock/core/log/log.js';
export type { Pet, PetStatus } from '../mock/core/catalogue/pet.js';
