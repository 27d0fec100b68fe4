import type { Context } from 'hono';
import type { ScenarioState } from '../core/scenarios/scenario-control.js';
import type { MockEnv } from './mock-env.js';

/**
 * The scenario state that answers this request: the one `Prefer: scenario=`
 * picked, else its session's active one. Read with `c.get`: Hono's `c.var`
 * copies every variable into a new object on each read, which showed up in
 * the request path's CPU profile.
 */
export const servingState = (c: Context<MockEnv>): ScenarioState => c.get('scenario') ?? c.get('session').control.active;
