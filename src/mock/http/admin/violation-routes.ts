import type { ViolationTally } from '../../core/proxy/violation-tally.js';
import { json, type AdminRouter } from './admin-router.js';

/**
 * `GET /__mock/violations`: what proxy mode's checks found in the target's
 * answers, grouped by the statement broken, most recently seen first;
 * `DELETE` empties it. Without `--proxy` there is no target, and the list
 * stays empty (`proxy: false` says why).
 */
export function violationRoutes(router: AdminRouter, violations: ViolationTally | undefined): void {
  const shown = () => ({ proxy: violations !== undefined, maxGroups: violations?.maxGroups ?? 0, violations: violations?.groups() ?? [] });
  router.on('GET', '/violations', (c) => json(c, 200, shown()));
  router.on('DELETE', '/violations', (c) => {
    violations?.clear();
    return json(c, 200, shown());
  });
}
