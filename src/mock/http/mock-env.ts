/** The Hono environment of the mock: the headers middleware add to every response (see respond.ts). */
export interface MockEnv {
  Variables: {
    responseHeaders: Record<string, string>;
    /** The stub that answered (`id` or `#index`), or null; with `unmatched`, why none did. */
    stub: string | null;
    unmatched: string;
  };
}
