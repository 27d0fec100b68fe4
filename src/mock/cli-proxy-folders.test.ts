import { describe, expect, it } from 'vitest';
import { mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fixture, freePort, runToExit, startMock, stop, tmpDir, useBuiltCli } from '../../test/support/built-cli.js';

/**
 * `--record DIR` where no folder can be made, and `--proxy-report FILE` in
 * a kernel file system: start-up stops with exit code 2 and one line
 * naming the path and the reason. Under /proc a recursive mkdir never
 * returns, so these cases also show start-up does not hang: a hang fails
 * them by the test's timeout. A report folder gone by the stop: the stop
 * says so and ends as usual.
 */
useBuiltCli();

/** Proxy mode towards a closed port: the target is never reached, as start-up stops first. */
async function startWithRecord(dir: string): Promise<Awaited<ReturnType<typeof runToExit>>> {
  return runToExit(['--port', String(await freePort()), '--proxy', `http://127.0.0.1:${await freePort()}/v1`, '--record', dir]);
}

describe('--record DIR that cannot be a folder', () => {
  it.each([
    ['/proc/animal-store-test', '/proc is a kernel file system, where no folder can be made or written'],
    ['/proc/animal-store-test/deeper', '/proc is a kernel file system, where no folder can be made or written'],
    ['/sys/animal-store-test', '/sys is a kernel file system, where no folder can be made or written'],
  ])('%s is refused with exit code 2, naming the path and the reason', async (dir, reason) => {
    const result = await startWithRecord(dir);
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe(`animal-store-mock: --record ${dir}: cannot record there: ${reason}`);
  }, 20_000);

  it('a link into /proc is refused as /proc is', async () => {
    const link = join(tmpDir(), 'to-proc');
    symlinkSync('/proc', link);
    const result = await startWithRecord(join(link, 'recording'));
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe(`animal-store-mock: --record ${join(link, 'recording')}: cannot record there: /proc is a kernel file system, where no folder can be made or written`);
  }, 20_000);

  it('a path under a regular file is refused, naming the file', async () => {
    const file = fixture('not-a-folder', 'plain text\n');
    const dir = join(file, 'recording', 'deeper');
    const result = await startWithRecord(dir);
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe(`animal-store-mock: --record ${dir}: cannot record there: ${file} is not a folder`);
  }, 20_000);
});

describe('--proxy-report FILE', () => {
  it('in /proc is refused at start-up with exit code 2', async () => {
    const result = await runToExit(['--port', String(await freePort()), '--proxy', `http://127.0.0.1:${await freePort()}/v1`, '--proxy-report', '/proc/animal-store-report.json']);
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe('animal-store-mock: --proxy-report /proc/animal-store-report.json: /proc is a kernel file system, where no report can be written');
  }, 20_000);

  it('whose folder is gone by the stop: the stop logs why it was not written and exits 0', async () => {
    const folder = join(tmpDir(), 'report-folder');
    mkdirSync(folder);
    const file = join(folder, 'report.json');
    const mock = await startMock(['--proxy', `http://127.0.0.1:${await freePort()}/v1`, '--proxy-report', file, '--log-format', 'json']);
    rmSync(folder, { recursive: true });
    // One request first, as the other stop tests make: the signal handlers are set once start-up has returned.
    expect((await fetch(`${new URL(mock.url).origin}/__mock/health`)).status).toBe(200);
    const exit = await stop(mock);
    expect({ exit, stderr: mock.stderr() }).toEqual({ exit: { code: 0, signal: null }, stderr: '' });
    expect(mock.stdout()).toContain(`"msg":"the proxy report was not written to ${file} (ENOENT)"`);
  }, 20_000);
});
