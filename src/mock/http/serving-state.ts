import type { Context } from 'hono';
import type { ScenarioState } from '../scenarios/scenario-control.js';
import type { MockEnv } from './mock-env.js';

/** The scenario state that answers this request: the one `Prefer: scenario=` picked, else its session's active one. */
export const servingState = (c: Context<MockEnv>): ScenarioState => c.var.scenario ?? c.var.session.control.active;
