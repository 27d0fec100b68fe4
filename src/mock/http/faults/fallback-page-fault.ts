import type { FaultOptions } from '../../core/faults/fault-kinds.js';
import { escapeHtml } from '../../../shared/html-escape.js';
import { htmlPageFault } from './html-page-fault.js';

export const fallbackPage = (by: string): string =>
  [
    '<!doctype html>',
    '<html lang="en">',
    '<head><meta charset="utf-8"><title>Animal Store</title><script type="module" src="/assets/index.js"></script></head>',
    `<body><div id="root"></div><!-- Simulated by the mock: ${escapeHtml(by)}. --></body>`,
    '</html>',
    '',
  ].join('\n');

/**
 * `fallback-page`: 200 with a single-page app's `index.html`, as a web
 * server or CDN whose catch-all route (`try_files $uri /index.html`) sends
 * it for a path it should have passed to the API: what a client that
 * trusts a 2xx and parses it as JSON meets ("Unexpected token '<'").
 */
export const fallbackPageFault = htmlPageFault<FaultOptions['fallback-page']>(200, 'text/html; charset=utf-8', fallbackPage);
