import type { RecordedExchange } from './exchange.js';
import { cutBody, REQUEST_BODY_SHOWN } from './shown-body.js';

/**
 * A request as a curl line to paste into a shell: the key stays redacted
 * (`<API key>`, to be replaced by hand). Text with control characters is
 * quoted with $'…' so what is pasted is what was sent. A body longer than
 * reports show (REQUEST_BODY_SHOWN) is cut, as everywhere in a report, and
 * the line ends in a shell comment saying so: pasted, it sends the start.
 */
export function curlLine(request: RecordedExchange['request']): string {
  // A request that followed another on the same connection: one curl sends both, reusing the connection (--next).
  if (request.follows) return `${curlLine(request.follows)} --next ${curlLine({ ...request, follows: undefined }).replace(/^curl /, '')}`;
  // HEAD as curl sends it (-I): with -X HEAD curl would wait for content the answer does not have.
  const parts = ['curl', '-sS', request.method === 'HEAD' ? '-I' : '-i'];
  if (request.method !== 'GET' && request.method !== 'HEAD') parts.push('-X', request.method);
  // curl removes dot segments (RFC 3986 §5.2.4) unless told not to: a request that sends them on purpose keeps them.
  if (/\/\.{1,2}(\/|$)/.test(request.url.replace(/[?#].*$/, ''))) parts.push('--path-as-is');
  parts.push(quote(request.url.replace(/#.*$/, '')));
  // A target curl would not send from the URL (the absolute-form, a fragment) is given as sent.
  if (request.target !== undefined) parts.push('--request-target', quote(request.target));
  // HTTP/1.0 (curl -0): a request written in that version on purpose.
  if (request.version === '1.0') parts.push('-0');
  const headers = { ...request.headers };
  // A form's parts as curl -F writes them: shorter than the body, and whole where the body would be cut. curl draws its own boundary and writes the Content-Type with it.
  const form = request.body === undefined ? undefined : formStrings(headers, request.body);
  if (form) for (const name of Object.keys(headers)) if (name.toLowerCase() === 'content-type') delete headers[name];
  // With a body and no Content-Type, the harness sends text/plain;charset=UTF-8, as fetch does (request-form.ts); curl would send a form type.
  if (request.body !== undefined && !form && !Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')) headers['content-type'] = 'text/plain;charset=UTF-8';
  for (const [name, value] of Object.entries(headers)) {
    // `-H 'name:'` would remove the header; `-H 'name;'` sends it empty.
    for (const one of Array.isArray(value) ? value : [value]) parts.push('-H', quote(one === '' ? `${name};` : `${name}: ${one}`));
  }
  // A field deliberately not sent that curl would add of its own (Accept, User-Agent): `-H 'Name:'` removes it.
  for (const name of request.without ?? []) parts.push('-H', quote(`${name}:`));
  // Asked for a content coding: --compressed decodes the answer, as the harness did (the field above says which codings).
  // Over several field lines it is one list (RFC 9110 §5.3).
  const coding = [Object.entries(headers).find(([name]) => name.toLowerCase() === 'accept-encoding')?.[1] ?? []].flat().join(',');
  if (coding !== '' && coding.split(',').some((c) => !['', 'identity'].includes((c.split(';')[0] ?? '').trim().toLowerCase()))) parts.push('--compressed');
  // --data-raw: --data-binary would read a body starting with @ as a file name.
  if (form) return [...parts, ...form.flatMap((field) => ['--form-string', quote(field)])].join(' ');
  if (request.body === undefined) return parts.join(' ');
  const { body, bodyChars } = cutBody(request.body, REQUEST_BODY_SHOWN, request.bodyChars);
  parts.push('--data-raw', quote(body));
  if (bodyChars !== undefined) parts.push(`# the body is cut: its first ${body.length} of ${bodyChars} characters`);
  return parts.join(' ');
}

/**
 * A multipart/form-data body of named text parts (RFC 7578 §4.2) as curl's
 * `--form-string name=value` arguments (the value taken literally: no `@`
 * file, no `;type=`), when they fit what a report shows of a body;
 * undefined for any other body.
 */
function formStrings(headers: Record<string, string | string[]>, body: string): string[] | undefined {
  const type = Object.entries(headers).find(([name]) => name.toLowerCase() === 'content-type')?.[1];
  const boundary = /^multipart\/form-data;\s*boundary=("?)([^";\s]+)\1\s*$/i.exec(typeof type === 'string' ? type : '')?.[2];
  const end = `--${boundary}--\r\n`;
  if (boundary === undefined || !body.endsWith(end)) return undefined;
  const [before, ...parts] = body.slice(0, -end.length).split(`--${boundary}\r\n`);
  const fields = parts.map((part) => /^Content-Disposition: form-data; name="([^"\r\n]*)"\r\n\r\n([\s\S]*)\r\n$/i.exec(part)).map((m) => m && `${m[1]}=${m[2]}`);
  if (before !== '' || fields.length === 0 || fields.some((field) => field === null)) return undefined;
  return fields.join('').length <= REQUEST_BODY_SHOWN ? (fields as string[]) : undefined;
}

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

function quote(text: string): string {
  if (!CONTROL.test(text)) return `'${text.replaceAll("'", `'\\''`)}'`;
  // ANSI-C quoting (bash, zsh, ksh): escapes for the control characters, the quote and the backslash.
  // eslint-disable-next-line no-control-regex
  return `$'${text.replace(/[\\'\u0000-\u001f\u007f]/g, (c) => (c === '\\' || c === "'" ? `\\${c}` : `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`))}'`;
}
