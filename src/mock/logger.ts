import { pino, type Logger } from 'pino';
import pretty from 'pino-pretty';

export type LogFormat = 'pretty' | 'json';

export interface LoggerOptions {
  format: LogFormat;
  /** `--quiet`: only warnings and errors (the per-request lines are info). */
  quiet: boolean;
  destination?: NodeJS.WritableStream;
}

/**
 * pino for the mock's log: JSON lines for machines (`--log-format json`, and
 * by default when stdout is not a terminal), or one readable line per event
 * through pino-pretty, kept synchronous so lines are never lost on exit.
 */
export function createLogger({ format, quiet, destination = process.stdout }: LoggerOptions): Logger {
  const level = quiet ? 'warn' : 'info';
  if (format === 'json') return pino({ level, base: undefined }, destination);
  const stream = pretty({
    destination,
    sync: true,
    colorize: (destination as { isTTY?: boolean }).isTTY === true,
    ignore: 'pid,hostname,method,path,status,ms,deprecated',
    translateTime: 'HH:MM:ss.l',
    singleLine: true,
  });
  return pino({ level, base: undefined }, stream);
}
