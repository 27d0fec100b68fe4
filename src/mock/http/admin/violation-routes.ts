import { errorBody } from '../../core/errors.js';
import type { ViolationTally } from '../../core/proxy/violation-tally.js';
import type { ProxyReportFormat } from '../proxy/proxy-report.js';
import { respond, sendError } from '../respond.js';
import { exchange, json, type AdminRouter } from './admin-router.js';

/** `?format=` of `GET /__mock/violations/report`: the harness's reporters, and the media type each is sent as. */
const REPORT_FORMATS: Record<string, { format: ProxyReportFormat; type: string }> = {
  json: { format: '.json', type: 'application/json' },
  junit: { format: '.xml', type: 'application/xml; charset=utf-8' },
  html: { format: '.html', type: 'text/html; charset=utf-8' },
};

/**
 * `GET /__mock/violations`: what proxy mode's checks found in the target's
 * answers, grouped by the statement broken, most recently seen first;
 * `DELETE` empties it. Without `--proxy` there is no target, and the list
 * stays empty (`proxy: false` says why); with it, `target` names the
 * target's base (it holds no credentials: start-up refuses a URL with
 * them), so the console can say who answered a row. `GET /__mock/violations/report`
 * gives them as the harness's report, on demand (`--proxy-report` writes
 * the same at the stop).
 */
export function violationRoutes(router: AdminRouter, violations: ViolationTally | undefined, report: ((format: ProxyReportFormat) => string) | undefined, target: string | undefined): void {
  const shown = () => ({ proxy: violations !== undefined, ...(target === undefined ? {} : { target }), maxGroups: violations?.maxGroups ?? 0, violations: violations?.groups() ?? [] });
  router.on('GET', '/violations', (c) => json(c, 200, shown()));
  router.on('DELETE', '/violations', (c) => {
    violations?.clear();
    return json(c, 200, shown());
  });
  router.on('GET', '/violations/report', (c) => {
    const x = exchange(c);
    const asked = c.req.query('format') ?? 'json';
    const chosen = REPORT_FORMATS[asked];
    if (!chosen) return sendError(x, errorBody('invalid_parameter', `format must be json, junit or html, got ${JSON.stringify(asked.slice(0, 40))}`));
    if (!report) return sendError(x, errorBody('route_not_found', 'There is no report without --proxy: the mock forwards nothing, so nothing is checked.'));
    // The HTML page holds text the target sent: nothing in it may load or run (its own policy says the same).
    return respond(x, 200, report(chosen.format), { 'content-type': chosen.type, 'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'" });
  });
}
