import type { OpenApiDocument } from '../../../document/openapi-types.js';
import type { OperationSpec } from '../../../document/operations.js';

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
 * The document /docs renders, as JSON: the mock's own, with
 * - one relative server, the base path (`/v1`), and no `servers` on a path
 *   or an operation, so "try it" calls the mock that served the page
 *   (see thisMock);
 * - the key explained where the page shows it (explainKeys);
 * - each deprecated operation's sunset date where the page shows it
 *   (noteSunsets);
 * - no optional parameter filled in before the reader chooses (noPrefill);
 * - where to watch the requests, and how to ask for an error (explainMock).
 * The same for every request, so it is built once.
 */
export function referenceDocument(options: ReferenceDocumentOptions): string {
  const document = structuredClone(options.document) as unknown as Loose;
  thisMock(document, options.basePath);
  explainKeys(document, options);
  noteSunsets(document, options.operations);
  noPrefill(document);
  explainMock(document);
  return JSON.stringify(document);
}

/** An object a document may hold in that place; anything else is left alone (the mock accepts documents the page still has to render). */
const record = (value: unknown): Loose | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Loose) : undefined;

/**
 * Swagger UI resolves a relative server URL against the document's own URL
 * (OpenAPI 3.0.3 §4.7.5), so `/v1` reaches the mock at whatever scheme,
 * host and port the browser used: a container's published port, or a
 * proxy ending TLS (an `http://` URL built from the request would be
 * blocked there as mixed content). Nothing of the request's Host is echoed.
 * A path's or an operation's `servers` would override it (§4.7.9, §4.7.10),
 * and the mock serves every operation under the base path alone.
 */
function thisMock(document: Loose, basePath: string): void {
  document.servers = [{ url: basePath === '' ? '/' : basePath, description: 'This mock' }];
  for (const pathItem of Object.values(record(document.paths) ?? {})) {
    const item = record(pathItem);
    if (!item) continue;
    delete item.servers;
    for (const operation of Object.values(item)) delete record(operation)?.servers;
  }
}

/** An `http` scheme with `scheme: bearer` (case-insensitive, RFC 9110 §11.1): the one whose Authorize field sends `Authorization: Bearer <key>`. */
const isBearer = (scheme: Loose): boolean =>
  scheme.type === 'http' && typeof scheme.scheme === 'string' && scheme.scheme.toLowerCase() === 'bearer';

/** Text added to a description the document may or may not already have. */
const append = (target: Loose, note: string): void => {
  const text = typeof target.description === 'string' ? target.description.trimEnd() : '';
  target.description = text === '' ? note : `${text}\n\n${note}`;
};

/**
 * The mock wants `Authorization: Bearer <key>` on every API request, whatever
 * the document's schemes. A bearer scheme's Authorize field sends just that,
 * so the note goes there. Other schemes send something else (an `apiKey` in
 * `X-Key`), which the mock refuses, and without any scheme the page has no
 * Authorize button: then the note goes in the document's description, shown
 * at the top of the page, and says so.
 */
function explainKeys(document: Loose, { defaultKey, defaultKeyAccepted }: ReferenceDocumentOptions): void {
  const keys =
    `The keys this mock accepts are set with \`--api-key\` or \`MOCK_API_KEYS\` when it starts; without either, it accepts \`${defaultKey}\`. ` +
    (defaultKeyAccepted
      ? `This one accepts \`${defaultKey}\`.`
      : `This one was started with keys of its own, which are not shown here: ask whoever started it (\`${defaultKey}\` is refused).`);
  const schemes = Object.values(record(record(document.components)?.securitySchemes) ?? {})
    .map(record)
    .filter((scheme): scheme is Loose => scheme !== undefined && isBearer(scheme));
  for (const scheme of schemes) append(scheme, `${keys} Enter the key alone under Authorize, without \`Bearer\`.`);
  if (schemes.length > 0) return;
  const info = record(document.info) ?? {};
  document.info = info;
  append(
    info,
    `This mock answers 401 to an API request without \`Authorization: Bearer <key>\`. ` +
      `This document declares no bearer scheme, so Try it cannot send that header: call the mock with curl or your app instead. ${keys}`,
  );
}

/**
 * What a reader of the page needs of the mock itself, at the top of the
 * page: the console, and `Prefer: code=` for an error, outside the contract
 * for an outage. The page's Try it sends no `Prefer` (the document declares
 * none), so the note says where to send it from. The console's link is
 * relative: it reaches the mock that served the page, as the server does.
 */
function explainMock(document: Loose): void {
  const info = record(document.info) ?? {};
  document.info = info;
  append(
    info,
    'This page is served by the mock. Every request it answers shows in the [QA console](/__mock/), where a journal row can be made to answer with an error, a delay or a fault, for one session. ' +
      'To ask for an error from curl or an app, send `Prefer: code=STATUS`: a status the operation documents gives its example (`Prefer: code=404` on getPet), ' +
      'and an outage the document lists for no operation, `code=500`, `502`, `503`, `504` or `429`, gives an Error body (with `Retry-After: 1` on 503 and 429) and `Preference-Applied: code=STATUS, outside-contract`.',
  );
}

/**
 * The renderer shows `deprecated` but not `x-sunset`, so the date goes into
 * text it does show: the summary, the line seen while the operation is
 * folded, and the description when the document's own text does not give it.
 */
function noteSunsets(document: Loose, operations: ReadonlyMap<string, OperationSpec>): void {
  const paths = record(document.paths) ?? {};
  for (const operation of operations.values()) {
    if (!operation.deprecated || !operation.sunset) continue;
    const target = record(record(paths[operation.path])?.[operation.method.toLowerCase()]);
    if (!target) continue;
    const date = operation.sunset.toISOString().slice(0, 10);
    // Seen without opening the operation: a frontend developer scanning the list learns the date before writing the call.
    const summary = typeof target.summary === 'string' ? target.summary : '';
    if (!summary.includes(date)) target.summary = `${summary === '' ? operation.operationId : summary} (sunset ${date})`;
    if (typeof target.description === 'string' && target.description.includes(date)) continue;
    // The header as the mock sends it (RFC 8594 §3: an HTTP-date), so a reader can match the page to what the client receives.
    append(target, `Sunset: ${date}. The operation is to be removed then; the mock sends \`Sunset: ${operation.sunset.toUTCString()}\` (RFC 8594).`);
  }
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/**
 * Swagger UI fills a parameter's field with its `example` when "Try it out"
 * opens, and sends it: listPets' `status: available` then filters the list
 * without the reader having asked. An optional parameter's example moves
 * into its description, where it still informs; a required one keeps it (the
 * field must hold something to send). A schema's own `example` fills the
 * field too, so a referenced schema is copied into the parameter without it
 * (the component itself keeps it, for the bodies that use it).
 */
function noPrefill(document: Loose): void {
  for (const pathItem of Object.values(record(document.paths) ?? {})) {
    const item = record(pathItem);
    if (!item) continue;
    const operations = METHODS.map((method) => record(item[method])).filter((operation): operation is Loose => operation !== undefined);
    for (const holder of [item, ...operations]) {
      const parameters = Array.isArray(holder.parameters) ? holder.parameters : [];
      for (const parameter of parameters.map(record)) {
        if (!parameter || parameter.required === true) continue;
        const schema = ownSchema(document, record(parameter.schema));
        if (schema) parameter.schema = schema;
        const example = parameter.example ?? schema?.example;
        if (example === undefined) continue;
        append(parameter, `For example \`${JSON.stringify(example)}\`; leave it empty to send none.`);
        delete parameter.example;
        delete schema?.example;
      }
    }
  }
}

/** The parameter's schema as its own copy: a local `$ref` resolved (one level, as the renderer reads it), anything else cloned. */
function ownSchema(document: Loose, schema: Loose | undefined): Loose | undefined {
  if (!schema) return undefined;
  const ref = typeof schema.$ref === 'string' ? /^#\/components\/schemas\/([^/]+)$/.exec(schema.$ref)?.[1] : undefined;
  if (typeof schema.$ref === 'string' && ref === undefined) return schema;
  const target = ref === undefined ? schema : record(record(record(document.components)?.schemas)?.[ref]);
  return target ? structuredClone(target) : schema;
}
