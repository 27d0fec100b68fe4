/**
 * What the mock's engine writes its log through: the few calls it makes of
 * a pino logger, so the node server hands in pino, and an engine running
 * in a test or a browser hands in nothing (`silentLog`) or its own.
 */
export interface Log {
  info(message: string): void;
  info(fields: object, message?: string): void;
  warn(message: string): void;
  warn(fields: object, message?: string): void;
  error(message: string): void;
  error(fields: object, message?: string): void;
  debug(message: string): void;
  debug(fields: object, message?: string): void;
  isLevelEnabled(level: string): boolean;
}

const nothing = (): void => undefined;

/** A log that writes nothing: the engine's default outside the node server. */
export const silentLog: Log = { info: nothing, warn: nothing, error: nothing, debug: nothing, isLevelEnabled: () => false };
