import { checkAnswer, SCENARIOS, sendScenarioRequest } from './scenarios.js';
import type { RunningServer } from './servers.js';

/**
 * Before any load: each server answers each scenario's requests as the
 * operation should (status and body shape), so a fast wrong answer cannot
 * pass for a fast server. Also tells whether both servers send the same
 * bodies for the read operations, i.e. whether the work compared is the same.
 * Returns the problems found (fatal) and notes (differences, not fatal).
 */
export async function smokeCheck(servers: readonly RunningServer[]): Promise<{ problems: string[]; notes: string[] }> {
  const problems: string[] = [];
  const notes: string[] = [];
  for (const scenario of SCENARIOS) {
    const bodies = new Map<string, string>();
    for (const server of servers) {
      for (const request of scenario.requests) {
        const answer = await sendScenarioRequest(server.origin, request);
        const problem = checkAnswer(scenario, answer);
        if (problem) problems.push(`${server.kind} ${request.method} ${request.path}: ${problem}`);
        if (request === scenario.requests[0]) bodies.set(server.kind, answer.body);
      }
    }
    const distinct = new Set(bodies.values());
    if (scenario.name !== 'createPet' && distinct.size > 1) {
      notes.push(`${scenario.name}: the servers' bodies differ (${[...bodies].map(([kind, body]) => `${kind} ${body.length} B`).join(', ')})`);
    }
  }
  return { problems, notes };
}
