/**
 * What is wrong with a target's base URL, or undefined: the one rule for the
 * command's `--base-url`, an environment's, `--compare-with`, and
 * `runContract`. It must be http(s) and end in `/v1` (a trailing slash
 * aside): every path a rule sends is the document's, below `/v1`, so a URL
 * without it would fail every rule rather than say what is wrong.
 */
export function baseUrlProblem(baseUrl: string, named = 'the base URL'): string | undefined {
  if (/^https?:\/\/[^/]+(\/.*)?\/v1\/?$/.test(baseUrl) && parses(baseUrl)) return undefined;
  return `${named} must be http(s) and end in /v1, got ${JSON.stringify(baseUrl)}`;
}

function parses(url: string): boolean {
  try {
    new URL(url);
    return true;
  } catch {
    return false;
  }
}
