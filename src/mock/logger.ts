import { createRequire } from 'node:module';
import { pino, type Logger } from 'pino';
import type { PrettyOptions, PrettyStream } from 'pino-pretty';

// pino-pretty is loaded only for pretty logs (it adds ~30 ms to start-up).
const require = createRequire(import.meta.url);
const loadPretty = (): ((options: PrettyOptions) => PrettyStream) => require('pino-pretty') as (options: PrettyOptions) => PrettyStream;

export type LogFormat = 'pretty' | 'json';

/** The levels `--log-level` takes: a request's line is info (a health check's, debug); `--quiet` is warn. */
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface LoggerOptions {
  format: LogFormat;
  /** The least severe level written. */
  level: LogLevel;
  destination?: NodeJS.WritableStream;
}

/**
 * pino for the mock's log: JSON lines for machines (`--log-format json`, and
 * by default when stdout is not a terminal), or one readable line per event
 * through pino-pretty, kept synchronous so lines are never lost on exit.
 */
export function createLogger({ format, level, destination = process.stdout }: LoggerOptions): Logger {
  if (format === 'json') return pino({ level, base: undefined }, destination);
  const stream = loadPretty()({
    destination,
    sync: true,
    colorize: (destination as { isTTY?: boolean }).isTTY === true,
    ignore: 'pid,hostname,method,path,status,ms,deprecated,rule,statement,detail',
    translateTime: 'HH:MM:ss.l',
    singleLine: true,
  });
  return pino({ level, base: undefined }, stream);
}
