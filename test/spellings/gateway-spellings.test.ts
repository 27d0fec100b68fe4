import { describe, it } from 'vitest';
import { variationGatewayDefects } from '../faulty-servers/variation-gateway-defects.js';
import { bothCurlLinesReproduce, runSpelling } from './run-spelling.js';
import type { SpellingServerSpec } from './spelling-server.js';

/**
 * The faulty servers of test/faulty-servers/variation-gateway-defects.ts
 * that read Host, X-Forwarded-Prefix or Upgrade, run through the built CLI:
 * the report's two keyless curl lines (the plain request, then the one
 * with the field), pasted into bash, get 401 and a 2xx. They show that a
 * curl line sends the Host the harness wrote (`-H 'host: localhost:PORT'`,
 * curl keeps a Host given) and the upgrade fields as sent.
 */

const spec = (start: string): SpellingServerSpec => {
  const defect = variationGatewayDefects.find((d) => d.name.startsWith(start));
  if (!defect?.wrap) throw new Error(`no gateway defect "${start}"`);
  return { name: defect.name, spelling: start, source: 'any client', behaviour: defect.name, statement: defect.breaks, wrap: defect.wrap };
};

const CASES = [
  { start: 'Host localhost', rule: 'vary-list-pets' },
  { start: 'the key required only where X-Forwarded-Prefix', rule: 'vary-get-pet' },
  { start: 'a request carrying Upgrade (h2c', rule: 'vary-list-pets' },
];

describe('servers reading Host, X-Forwarded-Prefix or Upgrade', () => {
  it.for(CASES)('$start: both keyless curl lines of $rule reproduce', { timeout: 90_000 }, async ({ start, rule }, { expect, annotate }) => {
    const result = await runSpelling(spec(start));
    await annotate(`caught by ${result.failed.join(', ') || 'no contract rule'}`);
    expect(result.exitCode).toBe(1);
    expect(result.failed).toContain(rule);
    expect(bothCurlLinesReproduce(result, rule), `the keyless curl lines of ${rule}: ${JSON.stringify(result.pasted.get(rule))}`).toBe(true);
  });
});
