import { describe, expect, it } from 'vitest';
import { DEFAULT_API_KEY } from '../shared/default-api-key.js';
import { parseCli } from './cli-options.js';

// The parsing rules that need no process: precedence and empty variables.
// Everything else about the CLI is tested through the real bin in cli*.test.ts (test/support/built-cli.ts).
describe('parseCli', () => {
  const run = (argv: string[], env: Record<string, string> = {}) => {
    const parsed = parseCli(argv, env, false);
    if (parsed.kind !== 'run') throw new Error(`expected a run, got ${JSON.stringify(parsed)}`);
    return parsed.options;
  };

  it('treats empty PORT, HOST and MOCK_API_KEYS as unset', () => {
    const options = run([], { PORT: '', HOST: '', MOCK_API_KEYS: ' , ' });
    expect(options).toMatchObject({ port: 4010, host: '127.0.0.1', apiKeys: [DEFAULT_API_KEY], apiKeysFrom: 'default' });
  });

  it('lets flags win over the environment', () => {
    const options = run(['--port', '5000', '--host', '0.0.0.0', '--api-key', 'flag'], { PORT: '6000', HOST: '::1', MOCK_API_KEYS: 'env' });
    expect(options).toMatchObject({ port: 5000, host: '0.0.0.0', apiKeys: ['flag'], apiKeysFrom: 'flag' });
  });

  it('defaults to the default scenario in the project\'s scenarios/, and reads --scenario and --scenarios', () => {
    expect(run([])).toMatchObject({ scenario: 'default', scenariosDir: undefined });
    expect(run(['--scenario', 'flaky', '--scenarios', '/tmp/qa'])).toMatchObject({ scenario: 'flaky', scenariosDir: '/tmp/qa' });
  });

  it('watches scenario files unless --no-watch; --watch=false and --watch are not flags', () => {
    expect(run([]).watch).toBe(true);
    expect(run(['--no-watch']).watch).toBe(false);
    expect(parseCli(['--watch'], {}, false).kind).toBe('error');
    expect(parseCli(['--no-watch=yes'], {}, false).kind).toBe('error');
  });

  it('defaults the journal to 500 entries and sessions to 100, idle 30 minutes, not per key', () => {
    expect(run([])).toMatchObject({ journalSize: 500, maxSessions: 100, sessionIdleSeconds: 1800, sessionPerKey: false });
    expect(run(['--journal-size', '20', '--max-sessions', '5', '--session-idle', '90', '--session-per-key'])).toMatchObject({ journalSize: 20, maxSessions: 5, sessionIdleSeconds: 90, sessionPerKey: true });
  });

  it('defaults each session\'s catalogue to 10,000 added animals and 1 MiB of their JSON, and reads --max-pets and --max-catalogue-bytes', () => {
    expect(run([])).toMatchObject({ maxPets: 10_000, maxCatalogueBytes: 1024 * 1024 });
    expect(run(['--max-pets', '7', '--max-catalogue-bytes', '4096'])).toMatchObject({ maxPets: 7, maxCatalogueBytes: 4096 });
  });

  it('defaults --shutdown-grace to 8 s, reads it and MOCK_SHUTDOWN_GRACE (the flag first, an empty variable unset)', () => {
    expect(run([]).shutdownGraceSeconds).toBe(8);
    expect(run(['--shutdown-grace', '25']).shutdownGraceSeconds).toBe(25);
    expect(run([], { MOCK_SHUTDOWN_GRACE: '0' }).shutdownGraceSeconds).toBe(0);
    expect(run(['--shutdown-grace', '3'], { MOCK_SHUTDOWN_GRACE: '40' }).shutdownGraceSeconds).toBe(3);
    expect(run([], { MOCK_SHUTDOWN_GRACE: '' }).shutdownGraceSeconds).toBe(8);
    expect(parseCli(['--shutdown-grace=-1'], {}, false)).toEqual({ kind: 'error', message: '--shutdown-grace must be whole seconds from 0 to 3600, got "-1"' });
  });

  it('defaults --max-connections to 256 and reads it', () => {
    expect(run([]).maxConnections).toBe(256);
    expect(run(['--max-connections', '20']).maxConnections).toBe(20);
  });

  it('defaults the log level to info, reads --log-level, MOCK_LOG_LEVEL and --quiet (warn), the flags first', () => {
    expect(run([]).logLevel).toBe('info');
    expect(run(['--quiet']).logLevel).toBe('warn');
    expect(run(['--log-level', 'debug'], { MOCK_LOG_LEVEL: 'error' }).logLevel).toBe('debug');
    expect(run(['--quiet'], { MOCK_LOG_LEVEL: 'debug' }).logLevel).toBe('warn');
    expect(run([], { MOCK_LOG_LEVEL: 'debug' }).logLevel).toBe('debug');
    expect(run([], { MOCK_LOG_LEVEL: '' }).logLevel).toBe('info');
  });

  it('refuses an unknown log level, and --quiet with --log-level', () => {
    expect(parseCli(['--log-level', 'verbose'], {}, false)).toEqual({ kind: 'error', message: '--log-level must be one of debug, info, warn, error, got "verbose"' });
    expect(parseCli([], { MOCK_LOG_LEVEL: 'DEBUG' }, false)).toEqual({ kind: 'error', message: 'MOCK_LOG_LEVEL must be one of debug, info, warn, error, got "DEBUG"' });
    expect(parseCli(['--quiet', '--log-level', 'info'], {}, false)).toEqual({ kind: 'error', message: '--quiet and --log-level cannot be used together (--quiet is --log-level warn)' });
  });

  it('reads --cors-origin: none or * alone is any origin, else the origins named', () => {
    expect(run([]).corsOrigins).toBe('*');
    expect(run(['--cors-origin', '*']).corsOrigins).toBe('*');
    expect(run(['--cors-origin', 'http://localhost:5173', '--cors-origin', 'https://app.example:8443']).corsOrigins).toEqual(['http://localhost:5173', 'https://app.example:8443']);
  });

  it.each([
    [['*', 'http://localhost:5173'], '--cors-origin * (any origin) cannot be combined with named origins'],
    [['null'], '--cors-origin null cannot be allowed: every sandboxed frame and file: page sends Origin null'],
    [['http://localhost:5173/'], 'got "http://localhost:5173/"'],
    [['http://localhost:5173/app'], 'got "http://localhost:5173/app"'],
    [['HTTP://Localhost:5173'], 'got "HTTP://Localhost:5173"'],
    [['https://app.example:443'], 'got "https://app.example:443"'],
    [['localhost:5173'], 'got "localhost:5173"'],
    [[''], 'got ""'],
  ])('refuses --cors-origin %j, which no browser would send as Origin', (origins, message) => {
    const parsed = parseCli(origins.flatMap((origin) => ['--cors-origin', origin]), {}, false);
    expect(parsed).toEqual({ kind: 'error', message: expect.stringContaining(message) });
  });

  it('defaults the log format to pretty on a terminal and json elsewhere', () => {
    expect(parseCli([], {}, true)).toMatchObject({ kind: 'run', options: { logFormat: 'pretty' } });
    expect(parseCli([], {}, false)).toMatchObject({ kind: 'run', options: { logFormat: 'json' } });
  });
});
