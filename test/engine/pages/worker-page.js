// A page whose service worker answers the API through the mock engine (MSW's setupWorker), as an app in development would.
import { setupWorker } from 'msw/browser';
import { createHandlers } from '../../../dist/src/entries/msw.js';

const animalStore = createHandlers();
const worker = setupWorker(...animalStore.handlers);
await worker.start({ serviceWorker: { url: '/mockServiceWorker.js' }, quiet: true, onUnhandledRequest: 'bypass' });
const key = { authorization: 'Bearer animal-store-dev-key' };
/** One call of the app: its status and body as text, as the page got them. */
window.api = async (path, init = {}) => {
  const response = await fetch(path, { ...init, headers: { ...key, ...init.headers } });
  return { status: response.status, text: await response.text() };
};
window.reset = () => animalStore.reset();
document.body.dataset.ready = 'yes';
