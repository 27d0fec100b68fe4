import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../../shared/package-root.js';
import { FAULT_KINDS } from './fault-kinds.js';
import { nameFault } from './named-fault.js';

const guide = readFileSync(join(packageRoot(), 'docs', 'scenarios-and-faults.md'), 'utf8');
const faults = guide.slice(guide.indexOf('\n## Faults\n'), guide.indexOf('\n## ', guide.indexOf('\n## Faults\n') + 1));

describe('the fault kinds', () => {
  it('each have their row in the Faults table of docs/scenarios-and-faults.md, and every `then` row is a kind\'s', () => {
    expect(faults).toContain('| Fault | What the client gets |');
    const rows = faults.split('\n').filter((line) => line.startsWith('| ') && line.includes('`then: '));
    expect(rows.sort()).toEqual(FAULT_KINDS.map(({ guideRow: { written, gets } }) => `| ${written} | ${gets} |`).sort());
  });

  it('name what a stub writes: a word itself, a mapping by its key, nothing as pass', () => {
    expect(nameFault('hang')).toEqual({ kind: 'hang', options: 'hang' });
    expect(nameFault({ status: 503, retryAfterSeconds: 2 })).toEqual({ kind: 'status', options: { status: 503, retryAfterSeconds: 2 } });
    expect(nameFault({ trickle: { chunkBytes: 1, intervalMs: 5 } }).kind).toBe('trickle');
    expect(nameFault(undefined)).toEqual({ kind: 'pass', options: 'pass' });
  });

  it("are each offered by the console's stub form, or named here as not offered there", () => {
    // A trickle needs two numbers the form does not ask for; pass is the form's delay (latency alone).
    const notOffered = ['trickle', 'pass'];
    const form = readFileSync(join(packageRoot(), 'console', 'stubs.js'), 'utf8');
    const offered = new Set([...form.matchAll(/then: (?:'([a-z-]+)'|\{ (status):)/g)].map((match) => match[1] ?? match[2]));
    expect(FAULT_KINDS.map((kind) => kind.name).filter((name) => !offered.has(name) && !notOffered.includes(name))).toEqual([]);
  });

  it('have unique names', () => {
    expect(new Set(FAULT_KINDS.map((k) => k.name)).size).toBe(FAULT_KINDS.length);
  });
});
