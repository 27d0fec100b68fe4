/** The Hono environment of the mock: the headers middleware add to every response (see respond.ts). */
export interface MockEnv {
  Variables: { responseHeaders: Record<string, string> };
}
