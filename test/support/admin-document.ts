import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { packageRoot } from '../../src/shared/package-root.js';
import { parseYaml } from '../../src/shared/parse-yaml.js';

type Json = Record<string, any>;

/**
 * Checks the admin API's answers against openapi/mock-admin.yaml, as the
 * fidelity check does the API's against the contract: the status is
 * documented for the operation (or 405, 401 or 403 for another method) and the body
 * fits its schema. Paths the document has no entry for (an unknown admin
 * path's 404) and CORS preflights are not checked. Returns the problem, or
 * undefined.
 */
export function adminDocumentChecker(): (method: string, path: string, status: number, body: unknown) => string | undefined {
  const document = parseYaml(readFileSync(join(packageRoot(), 'openapi', 'mock-admin.yaml'), 'utf8')) as Json;
  // The document's own keywords (example, int32) are not validation rules here; `nullable` is, and ajv knows it.
  const ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true });
  ajv.addSchema(document, 'admin');
  const resolve = (node: Json): Json => (typeof node.$ref === 'string' ? resolve(pointer(document, node.$ref)) : node);
  // Templated paths (`/sessions/{id}`) match any one segment there; a literal path wins over a template.
  const templates = Object.keys(document.paths as Json)
    .sort((a, b) => Number(a.includes('{')) - Number(b.includes('{')))
    .map((template) => ({ template, pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`) }));
  const itemOf = (path: string): Json | undefined => {
    const found = templates.find(({ pattern }) => pattern.test(path));
    return found && (document.paths[found.template] as Json);
  };

  return (method, path, status, body) => {
    if (method === 'OPTIONS') return undefined;
    const item = itemOf(path.replace(/^\/__mock/, '').replace(/\?.*$/, ''));
    if (!item) return undefined;
    const operation = item[method.toLowerCase()] as Json | undefined;
    // Another method than the path's: 405, or the guard's 401 and 403, which come before routing.
    const otherMethod: Json = { 405: document.components.responses.MethodNotAllowed, 401: document.components.responses.Unauthorized, 403: document.components.responses.Forbidden };
    const response = (operation ? operation.responses[String(status)] : otherMethod[status]) as Json | undefined;
    if (!response) return `${method} ${path}: status ${status} is not documented`;
    const schema = resolve(response).content?.['application/json']?.schema as Json | undefined;
    if (!schema) return undefined;
    const validate = ajv.compile({ $ref: `admin${schema.$ref ?? ''}` });
    return validate(body) ? undefined : `${method} ${path} ${status}: ${ajv.errorsText(validate.errors)}`;
  };
}

function pointer(document: Json, ref: string): Json {
  return ref.replace(/^#\//, '').split('/').reduce((node: Json, key) => node[key] as Json, document);
}
