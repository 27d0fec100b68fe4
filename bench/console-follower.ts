import { API_KEY } from './config.js';

/** What an open console received from the journal stream, counted by event. */
export interface FollowedEvents {
  entries: number;
  summaries: number;
  /** Entries the `entries` events carried, one by one. */
  entriesCarried: number;
  /** Requests the `summary` events counted. */
  requestsSummarised: number;
}

export interface ConsoleFollower {
  /** The counts so far: take one before and one after a run, and subtract. */
  counts(): FollowedEvents;
  stop(): Promise<void>;
}

/**
 * The mock-console kind's open console: follows the shared journal's
 * stream (GET /__mock/journal/stream) as the console page does, reading
 * every event, for as long as the server runs. It runs in the benchmark's
 * process beside the load generator, and only counts: drawing is the
 * browser's work on the QA's machine, not the mock's.
 */
export async function followConsole(origin: string): Promise<ConsoleFollower> {
  const abort = new AbortController();
  const counts: FollowedEvents = { entries: 0, summaries: 0, entriesCarried: 0, requestsSummarised: 0 };
  const position = { after: undefined as number | undefined };
  const open = async (): Promise<ReadableStream<Uint8Array>> => {
    const query = position.after === undefined ? '' : `?after=${position.after}`;
    const response = await fetch(`${origin}/__mock/journal/stream${query}`, { headers: { authorization: `Bearer ${API_KEY}` }, signal: abort.signal });
    if (response.status !== 200 || !response.body) throw new Error(`GET /__mock/journal/stream on ${origin} answered ${response.status}`);
    return response.body;
  };
  const first = await open();
  // A stream lives 10 minutes, then says `reconnect` (docs/admin-and-console.md, "The journal stream"): the console opens the next at once, and so does this.
  // A stream cut short otherwise (the server stopped) just stops counting: a run whose console received nothing is noted (measure-load.ts).
  const reading = (async () => {
    let body = first;
    for (;;) {
      await read(body, counts, position);
      if (abort.signal.aborted) return;
      body = await open();
    }
  })().catch(() => undefined);
  return {
    counts: () => ({ ...counts }),
    async stop() {
      abort.abort();
      await reading;
    },
  };
}

async function read(body: ReadableStream<Uint8Array>, counts: FollowedEvents, position: { after: number | undefined }): Promise<void> {
  const decoder = new TextDecoder();
  let buffered = '';
  for await (const chunk of body) {
    buffered += decoder.decode(chunk, { stream: true });
    // Server-Sent Events: an event ends at a blank line (HTML standard, "Server-sent events").
    let end: number;
    while ((end = buffered.indexOf('\n\n')) !== -1) {
      count(buffered.slice(0, end), counts, position);
      buffered = buffered.slice(end + 2);
    }
  }
}

function count(event: string, counts: FollowedEvents, position: { after: number | undefined }): void {
  const name = /^event: (.*)$/m.exec(event)?.[1];
  const data = /^data: (.*)$/m.exec(event)?.[1];
  if (name === 'reconnect' && data !== undefined) {
    position.after = (JSON.parse(data) as { after: number }).after;
  } else if (name === 'entries' && data !== undefined) {
    counts.entries += 1;
    counts.entriesCarried += (JSON.parse(data) as unknown[]).length;
  } else if (name === 'summary' && data !== undefined) {
    counts.summaries += 1;
    counts.requestsSummarised += (JSON.parse(data) as { count: number }).count;
  }
}

/** `after` minus `before`, field by field. */
export const followedDuring = (before: FollowedEvents, after: FollowedEvents): FollowedEvents => ({
  entries: after.entries - before.entries,
  summaries: after.summaries - before.summaries,
  entriesCarried: after.entriesCarried - before.entriesCarried,
  requestsSummarised: after.requestsSummarised - before.requestsSummarised,
});
