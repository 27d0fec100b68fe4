import { describe, expect, it } from 'vitest';
import { DEFAULT_API_KEY } from '../shared/default-api-key.js';
import { runToExit, startMock, statusOrCut, useBuiltCli } from '../../test/support/built-cli.js';
import { scenarioFolder, scenarioWith } from '../../test/support/scenario-folder.js';

/** `--shutdown-grace` (and MOCK_SHUTDOWN_GRACE): how long SIGTERM waits for requests in flight, as the operator sets it. */
useBuiltCli();
const folder = scenarioFolder();
folder.write(
  'latency.yaml',
  scenarioWith('latency', [
    { id: 'short', match: { operation: 'listPets' }, fault: { latency: { fixedMs: 1200 } } },
    { id: 'long', match: { operation: 'getPet' }, fault: { latency: { fixedMs: 12_000 } } },
  ]),
);

describe('--shutdown-grace', () => {
  it.each([
    ['--shutdown-grace 2', ['--shutdown-grace', '2'], {}],
    ['MOCK_SHUTDOWN_GRACE=2', [], { MOCK_SHUTDOWN_GRACE: '2' }],
  ])('%s: SIGTERM answers what ends within 2 s, closes the rest at 2 s and says so, then exits 0', { timeout: 30_000 }, async (_, flags, env) => {
    const mock = await startMock(['--scenarios', folder.dir, '--scenario', 'latency', '--no-watch', ...flags], env);
    const short = statusOrCut(mock, '/pets?limit=1', DEFAULT_API_KEY);
    const long = statusOrCut(mock, '/pets/1', DEFAULT_API_KEY);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const started = Date.now();
    mock.child.kill('SIGTERM');
    expect(await short).toBe(200);
    expect(await long).toBe(0);
    expect(await mock.exited).toEqual({ code: 0, signal: null });
    // Cut at the end of the 2 s, not the default 8 s (the exit itself may lag on a loaded machine).
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
    expect(Date.now() - started).toBeLessThan(7000);
    expect(mock.stdout()).toContain('the shutdown grace period of 2 s is over: closing the connections still open, their requests unanswered');
  });

  it('by default, a stop with a request held longer exits 0 before docker stop\'s (and Compose\'s) 10 s would send SIGKILL', { timeout: 30_000 }, async () => {
    const mock = await startMock(['--scenarios', folder.dir, '--scenario', 'latency', '--no-watch']);
    const long = statusOrCut(mock, '/pets/1', DEFAULT_API_KEY);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const started = Date.now();
    mock.child.kill('SIGTERM');
    expect(await mock.exited).toEqual({ code: 0, signal: null });
    expect(await long).toBe(0);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(mock.stdout()).toContain('the shutdown grace period of 8 s is over');
  });

  it('is refused past an hour, or when not whole seconds, naming where it came from', async () => {
    const flag = await runToExit(['--shutdown-grace', '3601']);
    expect([flag.code, flag.stderr]).toEqual([2, expect.stringContaining('--shutdown-grace must be whole seconds from 0 to 3600, got "3601"')]);
    const variable = await runToExit([], { MOCK_SHUTDOWN_GRACE: '1.5' });
    expect([variable.code, variable.stderr]).toEqual([2, expect.stringContaining('MOCK_SHUTDOWN_GRACE must be whole seconds from 0 to 3600, got "1.5"')]);
  });
});
