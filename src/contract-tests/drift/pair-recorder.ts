import type { Send } from '../http-client.js';
import type { SuiteTap } from '../run-suite.js';
import type { ApiRequest, Probe, SilentLog } from '../types.js';
import type { RecordedExchange } from '../../verdict/exchange.js';

type Observation = Parameters<SilentLog['observe']>;

/** One rule's traffic on one target: its probes in the order sent, and the silent answers it noted. */
export interface RuleTraffic {
  probes: Array<{ request: ApiRequest; probed: Promise<Probe> }>;
  observations: Array<{ point: Observation[0]; answer: string; example: RecordedExchange | string }>;
}

/** One target's run, per rule, with the run's client (to send a request again). */
export interface SideRecording {
  rules: Map<string, RuleTraffic>;
  send: () => Send | undefined;
}

/**
 * Records, per rule, what a suite run sends and notes. Probes are kept in
 * the order the rule calls them, not the order they are answered: rules
 * send some requests at once, and the order of calls is what the seed fixes.
 */
export function pairRecorder(): { tap: SuiteTap; recording: SideRecording } {
  const rules = new Map<string, RuleTraffic>();
  let client: Send | undefined;
  const of = (id: string): RuleTraffic => {
    const traffic = rules.get(id) ?? { probes: [], observations: [] };
    rules.set(id, traffic);
    return traffic;
  };
  return {
    recording: { rules, send: () => client },
    tap: {
      probe: (id, request, probed) => void of(id).probes.push({ request, probed }),
      observe: (id, point, answer, example) => void of(id).observations.push({ point, answer, example }),
      client: (send) => void (client = send),
    },
  };
}
