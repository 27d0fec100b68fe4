import type { FaultOptions } from '../../core/faults/fault-kinds.js';
import { escapeHtml } from '../../../shared/html-escape.js';
import { htmlPageFault } from './html-page-fault.js';

export const gatewayPage = (by: string): string =>
  [
    '<html>',
    '<head><title>502 Bad Gateway</title></head>',
    '<body>',
    '<center><h1>502 Bad Gateway</h1></center>',
    `<hr><center>Simulated by the mock: ${escapeHtml(by)}.</center>`,
    '</body>',
    '</html>',
    '',
  ].join('\r\n');

/**
 * `gateway-page`: 502 with the HTML page a load balancer sends when the
 * service behind it is down (nginx's, word for word but the last line), in
 * place of the interface's Error body: what a client that parses every
 * answer as JSON meets in production.
 */
export const gatewayPageFault = htmlPageFault<FaultOptions['gateway-page']>(502, 'text/html', gatewayPage);
