/**
 * `animal-store-mock/msw`: MSW handlers answered by the mock engine, for
 * `setupServer` (tests), `setupWorker` (a browser) and Storybook. MSW is a
 * peer dependency: the app's own. docs/in-tests-and-the-browser.md.
 */
export { createHandlers, type HandlersOptions, type MockHandlers } from '../mock/engine/create-handlers.js';
