import type { MockCliOptions } from './cli-options.js';
import type { ProxyFlags } from './read-proxy-flags.js';

/**
 * What the start-up banner says in proxy mode (main.ts), where the mock
 * answers little itself: only what is so there. The target answers what
 * no stub or `Prefer` answers; the catalogue answers only with
 * `--proxy-fallback mock`, while the target is away; the API keys are
 * checked on `/v1` only with `--upstream-key` (else the client's key is
 * the target's), and otherwise serve the admin API's changes alone, when
 * no `--admin-key` takes that over.
 */
export interface ProxyFacts {
  /** The target, and where what it broke shows (no key: a URL holding credentials is refused at start-up). */
  proxy: string;
  /** Who answers a request under the API, in the order they get the chance. */
  answers: string;
  /** Whose CORS a browser's request gets on the target's answers. */
  cors: string;
  /** What the mock's API keys are for in proxy mode. */
  apiKeyUse: string;
  /** The mock checks no API key at all: the banner names none. */
  noApiKey: boolean;
  /** Whether anything answers from the catalogue (the fallback alone). */
  catalogueUsed: boolean;
  /** The key the curl line sends: the mock's own, or a placeholder for the target's. */
  curlKey: string | undefined;
}

/** The facts of `--proxy` and its flags; `origin` is where the mock listens. */
export function proxyFacts(proxy: ProxyFlags, options: Pick<MockCliOptions, 'adminKey' | 'corsOrigins'>, origin: string): ProxyFacts {
  const ownKeys = proxy.upstreamKey !== undefined;
  const away = proxy.fallback === 'mock' ? "the mock's own catalogue (--proxy-fallback mock, marked X-Mock-Fallback)" : "the mock's 502 or 504";
  const extras = [
    ...(proxy.recordDir ? [`recording into ${proxy.recordDir}`] : []),
    ...(proxy.reportFile ? [`report at the stop: ${proxy.reportFile}`] : []),
  ];
  const origins = options.corsOrigins === '*' ? '*' : options.corsOrigins.join(', ');
  return {
    proxy: `${proxy.target.href} (every answer checked: its violations in ${origin}/__mock/violations, the console and the log${extras.map((extra) => `; ${extra}`).join('')})`,
    answers: `the target, for every request under /v1 that no stub or Prefer answers; stubs (the scenario's, the session's) and Prefer answer first, from the mock; while the target cannot be reached or is too slow, ${away}`,
    // Preflights are the mock's own (they carry no request to forward); a browser's request then gets the same policy on the target's answer.
    cors: `the mock's own (--cors-origin ${origins}), on the target's answers too: a request with Origin gets the mock's Access-Control-* fields in place of the target's, and Vary: Origin`,
    apiKeyUse: ownKeys
      ? "clients send it, and the target gets --upstream-key's key instead (never printed)"
      : options.adminKey === undefined
        ? "for the admin API's changes (the console) only; requests under /v1 carry the target's key, which the target judges"
        : "none used: requests under /v1 carry the target's key, which the target judges, and the admin API takes --admin-key",
    noApiKey: !ownKeys && options.adminKey !== undefined,
    catalogueUsed: proxy.fallback === 'mock',
    curlKey: ownKeys ? undefined : '<TARGET_KEY>',
  };
}
