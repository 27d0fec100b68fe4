import { setTimeout as delay } from 'node:timers/promises';
import type { Child } from './children.js';
import { API_KEY, POLL_INTERVAL_MS, READY_TIMEOUT_MS } from './config.js';
import { httpRequest } from './http-request.js';

/**
 * Polls `GET /v1/pets` every few milliseconds until it answers 200. A
 * refused connection means "not listening yet"; any other status is a
 * broken set-up. `base` is where the API is served (Prism serves it at the
 * root: ``).
 */
export async function waitReady(origin: string, child: Child, base = '/v1'): Promise<void> {
  const deadline = performance.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (child.exited()) {
      throw new Error(`${child.label} exited (code ${child.process.exitCode}) before answering:\n${child.output()}`);
    }
    let status: number | undefined;
    try {
      ({ status } = await httpRequest(`${origin}${base}/pets`, { headers: { authorization: `Bearer ${API_KEY}` } }));
    } catch {
      status = undefined;
    }
    if (status === 200) return;
    if (status !== undefined) throw new Error(`${child.label} answered GET ${base}/pets with ${status}, not 200`);
    if (performance.now() > deadline) throw new Error(`${child.label} did not answer within ${READY_TIMEOUT_MS} ms:\n${child.output()}`);
    await delay(POLL_INTERVAL_MS);
  }
}
