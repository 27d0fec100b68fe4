import type { ServerResponse } from 'node:http';

/** How a large body's sending ended: the bytes written, and whether the whole body went out before the connection closed. */
export interface SentBody {
  sent: number;
  whole: boolean;
}

export interface LargeBody {
  /** Bytes to send; `endless` never ends. */
  size: number | 'endless';
  /** Sends a few bytes every `everyMs` instead of as fast as the client reads: a body that trickles in. */
  everyMs?: number;
}

const CHUNK = Buffer.alloc(64 * 1024, 'x');

/**
 * Answers 200 application/json whose body starts as a listPets page would
 * (`[{"id":1,"name":"xxx…`) and goes on with the name, chunked. It writes
 * only as fast as the client reads (each write waits for `drain`), so the
 * bytes sent tell how far the client read. Resolves when the connection
 * closes, from either side.
 */
export function sendLargeBody(response: ServerResponse, { size, everyMs }: LargeBody): Promise<SentBody> {
  response.writeHead(200, { 'content-type': 'application/json' });
  let sent = 0;
  const write = (chunk: Buffer): boolean => {
    sent += chunk.length;
    return response.write(chunk);
  };
  const left = () => (size === 'endless' ? Infinity : size - sent);
  write(Buffer.from('[{"id":1,"name":"'));
  let timer: NodeJS.Timeout | undefined;
  if (everyMs !== undefined) {
    timer = setInterval(() => (left() > 0 ? write(CHUNK.subarray(0, Math.min(16, left()))) : response.end()), everyMs);
  } else {
    const pump = (): void => {
      while (left() > 0) if (!write(left() >= CHUNK.length ? CHUNK : CHUNK.subarray(0, left()))) return void response.once('drain', pump);
      response.end();
    };
    pump();
  }
  return new Promise((resolve) =>
    response.on('close', () => {
      clearInterval(timer);
      resolve({ sent, whole: response.writableFinished });
    }),
  );
}
