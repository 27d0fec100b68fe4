import type { RunningMock } from './built-cli.js';

/** One answer the load got, as a client sees it. */
export interface LoadAnswer {
  process: number;
  method: string;
  path: string;
  /** 0: no answer at all (the connection failed). */
  status: number;
  /** The Error body's `code`, when the body is one. */
  code: string | undefined;
  /** A 4xx or 5xx with a whole Error body (`code`, `message`, `status` equal to the answer's). */
  errorBody: boolean;
  retryAfter: string | null;
  body: string;
  /** When it was sent (performance.now()), and how long it took. */
  at: number;
  ms: number;
}

export interface Created {
  key: string;
  pet: { id: number; name: string };
  /** When its create was sent. */
  at: number;
}

export interface Load {
  answers: LoadAnswer[];
  /** Every create answered 201: what the mock acknowledged. */
  created: Created[];
  stop(): Promise<void>;
}

/** Sends a request with the key and records what came back, whatever it was. */
export async function send(mocks: readonly RunningMock[], process: number, key: string, method: string, path: string, body?: unknown): Promise<LoadAnswer & { json: any }> {
  const started = performance.now();
  const headers: Record<string, string> = { authorization: `Bearer ${key}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  try {
    const res = await fetch(`${mocks[process]?.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(30_000) });
    const text = await res.text();
    let json: any;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    const errorBody = typeof json?.code === 'string' && typeof json?.message === 'string' && json?.status === res.status;
    return { process, method, path, status: res.status, code: json?.code, errorBody, retryAfter: res.headers.get('retry-after'), body: text, at: started, ms: performance.now() - started, json };
  } catch (error) {
    return { process, method, path, status: 0, code: undefined, errorBody: false, retryAfter: null, body: String(error), at: started, ms: performance.now() - started, json: undefined };
  }
}

/**
 * Creates and reads animals on every process with every key, each loop
 * creating on one process and reading what it acknowledged on the next, until
 * stopped. Every answer is kept, for the test to judge.
 */
export function startLoad(mocks: readonly RunningMock[], keys: readonly string[]): Load {
  const answers: LoadAnswer[] = [];
  const created: Created[] = [];
  let running = true;
  let n = 0;
  const loop = async (process: number, key: string): Promise<void> => {
    while (running) {
      n += 1;
      const made = await send(mocks, process, key, 'POST', '/pets', { name: `Load ${n}`, categoryId: 1 });
      answers.push(made);
      if (made.status === 201) created.push({ key, pet: made.json, at: made.at });
      const other = (process + 1) % mocks.length;
      const mine = created.filter((c) => c.key === key);
      const last = mine[mine.length - 1];
      if (last) answers.push(await send(mocks, other, key, 'GET', `/pets/${last.pet.id}`));
      answers.push(await send(mocks, other, key, 'GET', '/pets?limit=5'));
    }
  };
  const loops = mocks.flatMap((_, process) => keys.map((key) => loop(process, key)));
  return {
    answers,
    created,
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}
