import type { Logger } from 'pino';
import type { Contract } from '../../../document/contract.js';
import { proxyMode, type ProxyMode } from './proxy-mode.js';

/** `--proxy`, `--proxy-timeout`, `--upstream-key`, `--proxy-fallback`, `--record` and `--proxy-report`, as the server is given them. */
export interface ProxyOptions {
  target: URL;
  timeoutMs: number;
  upstreamKey: string | undefined;
  /** `--proxy-fallback mock`: answer from the mock while the target is away. */
  fallback: 'mock' | undefined;
  /** `--record DIR`: the folder the recorded scenario is written into, absolute. */
  recordDir: string | undefined;
  /** `--proxy-report FILE`: the violations written there when the mock stops, absolute. */
  reportFile: string | undefined;
  /** The contract document the checks read (the one the mock serves). */
  documentPath: string | undefined;
}

/**
 * Proxy mode, with the harness's response validator for the document the
 * mock serves. Loaded only with `--proxy`: prism-http's validator costs a
 * mock that never forwards a request nothing at start-up.
 */
export async function startProxyMode(options: ProxyOptions, contract: Contract, logger: Logger): Promise<ProxyMode> {
  const { createResponseValidator } = await import('../../../document/response-validator.js');
  const validator = await createResponseValidator(options.documentPath);
  const { recordDir } = options;
  const record = recordDir === undefined ? undefined : { dir: recordDir, contract, tell: (level: 'info' | 'warn' | 'error', message: string) => logger[level](message) };
  const { reportFile } = options;
  const report = reportFile === undefined ? undefined : { file: reportFile, tell: (level: 'info' | 'error', message: string) => logger[level](message) };
  return proxyMode({ ...options, basePath: contract.basePath, validator, record, report });
}
