import { checkStatement } from './exchange-check-ids.js';
import type { Finding, ReceivedResponse } from './exchange.js';

type NewFinding = Omit<Finding, 'exchange'>;

/** Get an animal (deprecated): "It is to be removed on 5 December 2030." */
const GET_PET_REMOVAL = Date.UTC(2030, 11, 5);
const STATEMENT = checkStatement('exchange-deprecation-signal');

/**
 * A deprecation signal that contradicts what the interface states: only
 * getPet is deprecated, its removal is on 5 December 2030 and its
 * replacement is `GET /pets`. So a `Sunset` (RFC 8594) with another date,
 * a `successor-version` link (RFC 5829) to anything but `/pets`, or any
 * such signal (`Deprecation`, RFC 9745, included) on listPets or createPet
 * is a failure, however the rule that got it is judged. A signal the
 * interface does not state (how getPet's deprecation is sent) and its
 * absence are the advisory rule get-deprecation-headers' to judge.
 */
export function deprecationFindings(operationId: string | undefined, response: ReceivedResponse): NewFinding[] {
  if (operationId === undefined) return [];
  const headers = response.headers;
  const finding = (message: string, expected: string, header: string): NewFinding => ({ check: 'exchange-deprecation-signal', level: 'error', hard: true, message, expected: `${expected} (${STATEMENT})`, path: `$.headers.${header}` });
  const successors = successorLinks(headers.link ?? '');
  if (operationId !== 'getPet') {
    return [
      ...(headers.sunset !== undefined ? [finding(`${operationId} answered Sunset: ${headers.sunset}`, `no Sunset: only getPet is deprecated`, 'sunset')] : []),
      ...(headers.deprecation !== undefined ? [finding(`${operationId} answered Deprecation: ${headers.deprecation}`, `no Deprecation: only getPet is deprecated`, 'deprecation')] : []),
      ...(successors.length > 0 ? [finding(`${operationId} answered a successor-version link to ${successors.join(', ')}`, `no successor-version: only getPet is deprecated`, 'link')] : []),
    ];
  }
  const findings: NewFinding[] = [];
  const sunset = Date.parse(headers.sunset ?? '');
  // An unreadable date states no date: the advisory rule judges how the signal is sent.
  if (!Number.isNaN(sunset) && sunset !== GET_PET_REMOVAL) findings.push(finding(`Sunset is ${headers.sunset}`, 'Sunset: Thu, 05 Dec 2030 00:00:00 GMT, the removal date', 'sunset'));
  const elsewhere = successors.filter((target) => !/\/pets(\?[^#]*)?$/.test(target));
  if (elsewhere.length > 0) findings.push(finding(`the successor-version link names ${elsewhere.join(', ')}`, 'a successor-version, if any, that is GET /pets (with the status filter)', 'link'));
  return findings;
}

/** The targets of the `Link` field's links (RFC 8288 §3) whose rel holds successor-version (RFC 5829). */
function successorLinks(link: string): string[] {
  const targets: string[] = [];
  for (const match of link.matchAll(/<([^>]*)>([^,<]*)/g)) {
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^;\s]+))/i.exec(match[2] ?? '');
    if ((rel?.[1] ?? rel?.[2] ?? '').toLowerCase().split(/\s+/).includes('successor-version')) targets.push(match[1] ?? '');
  }
  return targets;
}
