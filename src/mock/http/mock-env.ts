import type { ScenarioState } from '../core/scenarios/scenario-control.js';
import type { Session } from '../core/sessions/session-registry.js';

/** The Hono environment of the mock: what middleware hand on to what comes after them. */
export interface MockEnv {
  Variables: {
    /** The headers middleware add to every response (see respond.ts). */
    responseHeaders: Record<string, string>;
    /** The session the request belongs to (set by the session middleware; the shared one without `X-Mock-Session`). */
    session: Session;
    /** The scenario state that answers, when not the session's active one (`Prefer: scenario=NAME`). */
    scenario: ScenarioState;
    /** The stub that answered (`id` or `#index`), or null; with `unmatched`, why none did. */
    stub: string | null;
    unmatched: string;
  };
}
