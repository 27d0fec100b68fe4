import { errorBody } from '../../core/errors.js';
import type { Recorder } from '../proxy/recorder.js';
import { sendError } from '../respond.js';
import { exchange, json, type AdminRouter } from './admin-router.js';

/**
 * `GET /__mock/recording`: `--record DIR`'s recording (active or not, the
 * folder, what it holds); `POST /__mock/recording/stop` writes it and
 * records nothing more, `…/start` records again. Without `--record` each
 * is a 404 that says how to start one: a request never picks the folder.
 */
export function recordingRoutes(router: AdminRouter, recorder: Recorder | undefined): void {
  const none = errorBody('route_not_found', 'There is no recording: start the mock with --proxy URL --record DIR (the folder is the command line\'s to choose).');
  router.on('GET', '/recording', (c) => (recorder ? json(c, 200, recorder.status()) : sendError(exchange(c), none)));
  router.on('POST', '/recording/start', (c) => (recorder ? json(c, 200, recorder.start()) : sendError(exchange(c), none)));
  router.on('POST', '/recording/stop', (c) => (recorder ? json(c, 200, recorder.stop()) : sendError(exchange(c), none)));
}
