import type { OpenApiDocument } from '../../../contract/openapi-types.js';
import type { OperationSpec } from '../../../contract/operations.js';

export interface ReferenceDocumentOptions {
  /** The contract document as the mock loaded it (never changed here). */
  document: OpenApiDocument;
  operations: ReadonlyMap<string, OperationSpec>;
  /** Where the mock serves the API (`/v1`). */
  basePath: string;
  /** The key accepted when none is configured (`animal-store-dev-key`). */
  defaultKey: string;
  /** Whether this mock accepts it: configured keys are never shown, only where they come from. */
  defaultKeyAccepted: boolean;
}

type Loose = Record<string, unknown>;

/**
 * The document /docs renders: the mock's own, with
 * - `servers` replaced by this mock, as the request reached it, so "try it"
 *   calls the mock whatever host and port it runs on;
 * - each security scheme's description telling which key to enter;
 * - each deprecated operation's sunset date in its summary, the line shown
 *   while the operation is folded, and in its description when the
 *   document's text does not already give it (the renderer shows
 *   `deprecated` but not `x-sunset`).
 * Built once; per request only `servers` changes.
 */
export function referenceDocument(options: ReferenceDocumentOptions): (origin: string) => string {
  const document = structuredClone(options.document) as unknown as Loose;
  explainKeys(document, options);
  noteSunsets(document, options.operations);
  return (origin) => JSON.stringify({ ...document, servers: [{ url: `${origin}${options.basePath}`, description: 'This mock' }] });
}

function explainKeys(document: Loose, { defaultKey, defaultKeyAccepted }: ReferenceDocumentOptions): void {
  const schemes = ((document.components as Loose | undefined)?.securitySchemes ?? {}) as Record<string, Loose>;
  const note =
    `The keys this mock accepts are set with \`--api-key\` or \`MOCK_API_KEYS\` when it starts; without either, it accepts \`${defaultKey}\`. ` +
    (defaultKeyAccepted
      ? `This one accepts \`${defaultKey}\`.`
      : `This one was started with keys of its own, which are not shown here: ask whoever started it (\`${defaultKey}\` is refused).`) +
    ' Enter the key alone under Authorize, without `Bearer`.';
  for (const scheme of Object.values(schemes)) {
    scheme.description = typeof scheme.description === 'string' ? `${scheme.description}\n\n${note}` : note;
  }
}

function noteSunsets(document: Loose, operations: ReadonlyMap<string, OperationSpec>): void {
  const paths = document.paths as Record<string, Record<string, Loose>>;
  for (const operation of operations.values()) {
    if (!operation.deprecated || !operation.sunset) continue;
    const target = paths[operation.path]?.[operation.method.toLowerCase()];
    const date = operation.sunset.toISOString().slice(0, 10);
    if (!target) continue;
    // Seen without opening the operation: a frontend developer scanning the list learns the date before writing the call.
    const summary = typeof target.summary === 'string' ? target.summary : '';
    if (!summary.includes(date)) target.summary = `${summary === '' ? operation.operationId : summary} (sunset ${date})`;
    const description = typeof target.description === 'string' ? target.description : '';
    if (description.includes(date)) continue;
    // RFC 8594: the Sunset header the mock sends on every answer of this operation.
    const note = `Sunset: ${date}. The operation is to be removed then; the mock sends \`Sunset: ${operation.sunset.toUTCString()}\` (RFC 8594).`;
    target.description = description === '' ? note : `${description.trimEnd()}\n\n${note}`;
  }
}
