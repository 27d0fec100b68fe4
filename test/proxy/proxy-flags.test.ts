import { afterAll, describe, expect, it } from 'vitest';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseCli } from '../../src/mock/cli-options.js';
import { DEFAULT_PROXY_TIMEOUT_MS } from '../../src/mock/http/proxy/proxy-mode.js';

/** `--proxy`, `--proxy-timeout`, `--upstream-key`, `--proxy-fallback` and their variables, as the command line reads them. */
/** A file where --record would need a folder. */
const FILE = join(tmpdir(), `proxy-flags-${process.pid}`);
writeFileSync(FILE, '');
afterAll(() => rmSync(FILE, { force: true }));
const parse = (argv: string[], env: NodeJS.ProcessEnv = {}) => parseCli(argv, env, false);

describe('proxy flags', () => {
  it('reads the target, the default timeout, and the key from the flag or the variable', () => {
    expect(parse(['--proxy', 'https://staging.example.com/v1'])).toMatchObject({ kind: 'run', options: { proxy: { timeoutMs: DEFAULT_PROXY_TIMEOUT_MS, upstreamKey: undefined } } });
    const run = parse(['--proxy-timeout', '250'], { MOCK_PROXY: 'http://127.0.0.1:9/v1', MOCK_UPSTREAM_KEY: 'staging-key' });
    expect(run).toMatchObject({ kind: 'run', options: { proxy: { timeoutMs: 250, upstreamKey: 'staging-key' } } });
    expect(run.kind === 'run' && run.options.proxy?.target.href).toBe('http://127.0.0.1:9/v1');
    expect(parse([])).toMatchObject({ kind: 'run', options: { proxy: undefined } });
    expect(parse(['--proxy', 'http://x/v1'])).toMatchObject({ kind: 'run', options: { proxy: { fallback: undefined } } });
    expect(parse(['--proxy', 'http://x/v1', '--proxy-fallback', 'mock'])).toMatchObject({ kind: 'run', options: { proxy: { fallback: 'mock' } } });
    expect(parse(['--proxy', 'http://x/v1'], { MOCK_PROXY_FALLBACK: 'mock' })).toMatchObject({ kind: 'run', options: { proxy: { fallback: 'mock' } } });
  });

  it.each([
    [['--proxy', 'ftp://x/v1'], 'http or https'],
    [['--proxy', 'http://user:secret@x/v1'], 'must not hold credentials'],
    [['--proxy', 'http://x'], 'version segment'],
    [['--proxy', 'http://x/v1?a=1'], 'version segment'],
    [['--proxy', 'http://x/v1', '--proxy-timeout', '0'], '--proxy-timeout'],
    [['--upstream-key', 'k'], 'needs --proxy'],
    [['--proxy-fallback', 'mock'], '--proxy-fallback needs --proxy'],
    [['--proxy', 'http://x/v1', '--proxy-fallback', 'cache'], '--proxy-fallback must be mock'],
    [['--record', '/tmp'], '--record needs --proxy'],
    [['--proxy', 'http://x/v1', '--proxy-report', '/tmp/report.txt'], 'name a .json, .xml (JUnit) or .html file'],
    [['--proxy', 'http://x/v1', '--proxy-report', join(FILE, 'report.json')], 'is not a folder'],
    [['--proxy', 'http://x/v1', '--proxy-report', '/no/such/folder/report.json'], 'cannot write in its folder'],
    [['--proxy', 'http://x/v1', '--record', join(FILE, 'recording')], `${FILE} is not a folder`],
    [['--proxy', 'http://x/v1', '--record', '/tmp', '--workers', '2', '--store', 'redis://127.0.0.1:6379'], '--record needs one process'],
    [['--proxy', 'http://x/v1', '--upstream-key', 'bad key'], 'a space'],
  ])('refuses %j', (argv, message) => {
    const parsed = parse(argv);
    expect(parsed.kind).toBe('error');
    expect(parsed.kind === 'error' && parsed.message).toContain(message);
    // A key or a URL's password is never echoed back.
    expect(parsed.kind === 'error' && parsed.message).not.toMatch(/secret|bad key/);
  });
});
