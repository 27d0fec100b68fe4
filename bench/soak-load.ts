import autocannon from 'autocannon';
import type { Stream } from './soak-traffic.js';
import type { Tally } from './soak-tally.js';

/** Seconds without an answer after which autocannon counts a request as timed out. */
const TIMEOUT_S = 30;

/** A stream running under autocannon: `done` when its time is up or it is stopped. */
export interface RunningStream {
  stream: Stream;
  done: Promise<void>;
  stop(): void;
}

/**
 * Runs one stream against `origin` for `durationS`, counting every answer
 * by status (and a 5xx's Error code) and every connection error by code.
 */
export function runStream(origin: string, stream: Stream, durationS: number, tally: Tally): RunningStream {
  const onResponse = (status: number, body: string): void => tally.answer(stream.name, status, body);
  let instance: autocannon.Instance | undefined;
  const done = new Promise<void>((resolve, reject) => {
    instance = autocannon(
      {
        url: origin,
        connections: stream.connections,
        duration: durationS,
        timeout: TIMEOUT_S,
        requests: stream.requests.map((request) => ({ ...request, onResponse })),
      },
      (error: unknown) => (error ? reject(error instanceof Error ? error : new Error(String(error))) : resolve()),
    );
    instance.on('reqError', (error: NodeJS.ErrnoException) => tally.error(stream.name, error.code ?? error.message));
  });
  return { stream, done, stop: () => instance?.stop() };
}
