import type { Exchange } from './types.js';

/**
 * A request as a curl line to paste into a shell: the key stays redacted
 * (`<API key>`, to be replaced by hand). Text with control characters is
 * quoted with $'…' so what is pasted is what was sent.
 */
export function curlLine(request: Exchange['request']): string {
  const parts = ['curl', '-sS', '-i'];
  if (request.method !== 'GET') parts.push('-X', request.method);
  parts.push(quote(request.url));
  for (const [name, value] of Object.entries(request.headers)) {
    if (name === 'accept') continue;
    for (const one of Array.isArray(value) ? value : [value]) parts.push('-H', quote(`${name}: ${one}`));
  }
  // curl sends its own Content-Type with --data; an explicit one above wins, and none is replaced by -H 'content-type:' (sent empty)
  if (request.body !== undefined) {
    if (!('content-type' in request.headers)) parts.push('-H', quote('content-type:'));
    parts.push('--data-binary', quote(request.body));
  }
  return parts.join(' ');
}

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

function quote(text: string): string {
  if (!CONTROL.test(text)) return `'${text.replaceAll("'", `'\\''`)}'`;
  // ANSI-C quoting (bash, zsh, ksh): escapes for the control characters, the quote and the backslash.
  // eslint-disable-next-line no-control-regex
  return `$'${text.replace(/[\\'\u0000-\u001f\u007f]/g, (c) => (c === '\\' || c === "'" ? `\\${c}` : `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`))}'`;
}
