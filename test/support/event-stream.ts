/** One Server-Sent Event as a test reads it. */
export interface ReadEvent {
  event: string;
  data: any;
}

/** A journal stream read over fetch, as the console reads it (headers allowed, unlike EventSource). */
export interface OpenedStream {
  status: number;
  headers: Headers;
  /** The next event, or a rejection after `ms` ("within a second" is 1,000). */
  next(ms?: number): Promise<ReadEvent>;
  /** Events until one named `name` (included). */
  until(name: string, ms?: number): Promise<ReadEvent[]>;
  /** Every comment line read so far (`: keep-alive`). */
  comments: string[];
  /** Resolves when the server has ended the stream. */
  ended: Promise<void>;
  close(): void;
}

/** fetches `url` and reads its body as Server-Sent Events (the WHATWG parsing rules this stream needs: `event:`, `data:`, comments, blank line). */
export async function openStream(url: string, init: RequestInit = {}): Promise<OpenedStream> {
  const abort = new AbortController();
  const res = await fetch(url, { ...init, signal: abort.signal });
  const queue: ReadEvent[] = [];
  const waiters: Array<() => void> = [];
  const comments: string[] = [];
  let done = false;
  const ended = (async () => {
    if (!res.body) return;
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of res.body) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        let at: number;
        while ((at = buffer.indexOf('\n\n')) !== -1) {
          const block = buffer.slice(0, at);
          buffer = buffer.slice(at + 2);
          let event = 'message';
          let data = '';
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) comments.push(line);
            else if (line.startsWith('event: ')) event = line.slice(7);
            else if (line.startsWith('data: ')) data += line.slice(6);
          }
          if (data !== '') queue.push({ event, data: JSON.parse(data) });
          waiters.splice(0).forEach((wake) => wake());
        }
      }
    } catch {
      // Aborted by close().
    } finally {
      done = true;
      waiters.splice(0).forEach((wake) => wake());
    }
  })();
  const next = async (ms = 1000): Promise<ReadEvent> => {
    const deadline = Date.now() + ms;
    while (queue.length === 0) {
      if (done) throw new Error('the stream ended');
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no event within ${ms} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return queue.shift() as ReadEvent;
  };
  return {
    status: res.status,
    headers: res.headers,
    next,
    async until(name, ms = 1000) {
      const read: ReadEvent[] = [];
      for (;;) {
        const event = await next(ms);
        read.push(event);
        if (event.event === name) return read;
      }
    },
    comments,
    ended,
    close: () => abort.abort(),
  };
}
