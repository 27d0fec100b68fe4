import { spawn } from 'node:child_process';
import { describe, it } from 'vitest';
import { loadContract } from '../../src/document/load-contract.js';
import { createResponseValidator } from '../../src/document/response-validator.js';
import { loadFixtureCatalogue } from '../../src/mock/core/fixtures/load-catalogue.js';
import { runSuite } from '../../src/contract-tests/run-suite.js';
import { curlLine } from '../../src/verdict/curl-line.js';
import { REDACTED_KEY } from '../../src/verdict/redact-key.js';
import { FAULTY_SERVER_KEY, type Defect } from './defect.js';
import { startFaultyServer } from './faulty-server.js';
import { variationFieldDefects } from './variation-field-defects.js';
import { variationRequestDefects } from './variation-request-defects.js';

/**
 * A key bypass is shown with both requests: the one as the harness always
 * writes it, which gets 401 without the key, and the one written the other
 * way, which gets in. For each server that lets a field, a media type, a
 * method, an HTTP version, Expect or a reused connection in without the
 * key, the replay lines the report prints for the rule that catches it are
 * pasted into bash while the server runs: among those without the key, one
 * gets 401 and one a 2xx. A line that sends a keyed request first on the
 * same connection (`--next`) is run with the faulty server's own key, and
 * judged by its last answer. Nothing is printed with the key in it.
 */

const contract = loadContract();
const catalogue = loadFixtureCatalogue(contract);
if (!catalogue.ok) throw new Error(catalogue.error);
const pets = catalogue.value.pets;
const validator = createResponseValidator();

/** Runs a replay line in bash: the final status of each answer it printed (1xx skipped). */
async function paste(line: string): Promise<number[]> {
  const out = await new Promise<string>((resolve) => {
    const child = spawn('bash', ['-c', `${line.replaceAll(REDACTED_KEY, FAULTY_SERVER_KEY)} --max-time 10 2>/dev/null`], { stdio: ['ignore', 'pipe', 'ignore'] });
    let text = '';
    child.stdout.setEncoding('latin1').on('data', (chunk: string) => (text += chunk));
    child.on('close', () => resolve(text));
  });
  return [...out.matchAll(/^HTTP\/\d(?:\.\d)? (\d{3})/gm)].map((m) => Number(m[1])).filter((status) => status >= 200);
}

const keyless = (line: string) => !line.includes(REDACTED_KEY) || line.includes(' --next ');

const bypasses = [...variationFieldDefects, ...variationRequestDefects].filter((defect) => /the key skipped|without the key|stored without|past the key check/i.test(defect.name));

describe('a key bypass of a field, media type, method, version or connection is replayed with both requests', () => {
  it.for(bypasses.map((defect) => [defect.name, defect] as [string, Defect]))('%s', { timeout: 90_000 }, async ([, defect], { expect }) => {
    const server = await startFaultyServer(defect, { contract, pets });
    try {
      const rule = defect.caughtBy[0] as string;
      const run = await runSuite({ baseUrl: server.url, apiKey: FAULTY_SERVER_KEY, readOnly: false, validator: await validator, only: [rule] });
      if (!run.ok) throw new Error(run.error.message);
      const findings = run.report.results.find((r) => r.id === rule)?.findings.filter((f) => f.level === 'error') ?? [];
      expect(findings.length, `${rule} failed`).toBeGreaterThan(0);
      const bypass = findings.find((f) => /without|no Authorization|wrong key/.test(f.message)) ?? findings[0];
      const lines = (bypass?.reproduce?.curl.split('\n') ?? (bypass?.exchange ? [curlLine(bypass.exchange.request)] : [])).filter(keyless);
      const last = await Promise.all(lines.map(async (line) => (await paste(line)).at(-1)));
      expect(last, lines.join('\n')).toContain(401);
      expect(last.some((status) => status !== undefined && status >= 200 && status < 300), lines.join('\n')).toBe(true);
    } finally {
      await server.close();
    }
  });
});
