import type { ServerResponse } from 'node:http';

/** The headers of every Server-Sent Events answer. */
export const EVENT_STREAM_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream; charset=utf-8',
  // Never a cached copy of a live stream (RFC 9111 §5.2.2.5).
  'cache-control': 'no-store',
  // nginx buffers a proxied answer by default, which would hold events back until its buffer fills.
  'x-accel-buffering': 'no',
};

/** One open Server-Sent Events answer. */
export interface EventStream {
  /** The answer's body, for the Response. */
  readonly body: ReadableStream<Uint8Array>;
  /**
   * Writes events (`event: NAME`, `data: JSON` on one line: JSON.stringify
   * escapes every line break) as one chunk. Refused (false, nothing
   * written) while the previous chunk waits in the process: a reader that
   * does not read never makes the process hold more than one chunk for it.
   */
  send(events: ReadonlyArray<{ event: string; data: unknown }>): boolean;
  /** A comment line (`: keep-alive`), which readers ignore, when the stream has been silent for `silentMs`. */
  keepAlive(silentMs: number): void;
  /** Whether the previous chunk is still waiting in the process (not yet handed to the kernel). */
  waiting(): boolean;
  /** Bytes sent but not yet taken by the kernel (in the stream, and in node's buffers). */
  queued(): number;
  /** Ends the answer; with `now`, closes the connection at once too (the server is stopping). */
  end(now?: boolean): void;
}

const encoder = new TextEncoder();

/**
 * A stream for node's response `res`, returned as the Response's body:
 * @hono/node-server reads a chunk, writes it to `res`, and reads the next
 * one at once, or after `drain` when node's buffer is full. So what waits
 * in the process for this answer is the chunk it has not read yet (the
 * stream counts bytes: a negative desired size) and `res.writableLength`
 * (node's buffer and its socket's); `send` writes only when both are
 * empty. `onCancel`: the connection closed, or its reader went away.
 */
export function eventStream(res: ServerResponse, onCancel: () => void): EventStream {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let open = true;
  let lastWrite = performance.now();
  const socket = res.socket;
  const gone = (): void => {
    socket?.off('end', readerLeft);
    if (!open) return;
    open = false;
    onCancel();
  };
  // The reader went away. The server keeps half-open connections open to answer them
  // (create-http-server.ts), so its FIN alone closes nothing: a stream would go on until a write failed.
  function readerLeft(): void {
    gone();
    res.destroy();
  }
  // Counted in bytes, so what waits in the stream before node takes it is known (`queued`).
  const body = new ReadableStream<Uint8Array>({ start: (given) => void (controller = given), cancel: gone }, { highWaterMark: 0, size: (chunk) => chunk.byteLength });
  // The connection closed (the server destroyed it, or a write failed): node's own word, whatever the adapter does with the body.
  res.once('close', gone);
  socket?.once('end', readerLeft);
  // Gone already, while the journal was first read: those events were missed.
  if (!socket || socket.destroyed || socket.readableEnded) queueMicrotask(readerLeft);
  const write = (text: string): void => {
    lastWrite = performance.now();
    controller.enqueue(encoder.encode(text));
  };
  /** Bytes in the stream that node has not taken yet (a negative desired size), and in node's buffers for this answer. */
  const queued = (): number => Math.max(0, -(controller.desiredSize ?? 0)) + res.writableLength;
  const waiting = (): boolean => queued() > 0;
  return {
    body,
    send(events) {
      if (!open || waiting()) return false;
      let text = '';
      for (const { event, data } of events) text += `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
      if (text !== '') write(text);
      return true;
    },
    keepAlive(silentMs) {
      // Proxies close connections idle for long (nginx: 60 s by default); a comment keeps this one in use.
      if (open && !waiting() && performance.now() - lastWrite >= silentMs) write(': keep-alive\n\n');
    },
    waiting,
    queued,
    end(now = false) {
      if (open) controller.close();
      open = false;
      socket?.off('end', readerLeft);
      // A reader that does not read would hold the server's close, which waits for every connection.
      if (now) res.socket?.destroy();
    },
  };
}
