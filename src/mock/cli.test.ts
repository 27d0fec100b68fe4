import { describe, expect, it } from 'vitest';
import { createServer } from 'node:net';
import { DEFAULT_API_KEY } from '../shared/default-api-key.js';
import { bearer, closeServer, freePort, getJson, listen, runToExit, startMock, statusWith, useBuiltCli } from '../../test/support/built-cli.js';

/** The `animal-store-mock` command as users run it (the built bin in a child process, over real HTTP): start-up, keys, the port, usage. */
useBuiltCli();

describe('the start-up banner', () => {
  it('shows the base URL, the default key and a curl line that works as written', async () => {
    const mock = await startMock();
    expect(mock.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(mock.banner).toContain(`API key:   ${DEFAULT_API_KEY} (the default`);
    expect(DEFAULT_API_KEY).toBe('animal-store-dev-key');
    expect(mock.banner).toMatch(/Catalogue: 30 pets from .*fixtures[/\\]pets\.json/);

    // Do what the curl line says: its URL, its header.
    const curl = /curl -H '([^']+)' '([^']+)'/.exec(mock.banner);
    expect(curl, 'a curl line in the banner').not.toBeNull();
    const [, header, url] = curl as unknown as [string, string, string];
    expect(header).toBe(`Authorization: Bearer ${DEFAULT_API_KEY}`);
    expect(url.startsWith(`${mock.url}/pets`)).toBe(true);
    const separator = header.indexOf(': ');
    const response = await fetch(url, { headers: { [header.slice(0, separator)]: header.slice(separator + 2) } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const pets = (await response.json()) as unknown[];
    expect(Array.isArray(pets)).toBe(true);
    // The curl line asks for ?limit=5; with no limit the default page is 20 of the 30.
    expect(pets).toHaveLength(Number(new URL(url).searchParams.get('limit') ?? 20));

    const page = await getJson(`${mock.url}/pets`, DEFAULT_API_KEY);
    expect(page.status).toBe(200);
    expect(page.body).toHaveLength(20);
    expect((page.body as Array<{ id: number }>).map((pet) => pet.id)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect((await getJson(`${mock.url}/pets?limit=100`, DEFAULT_API_KEY)).body).toHaveLength(30);
  });

  it('names the console and the API reference, at addresses that open them', async () => {
    const mock = await startMock();
    for (const [label, title] of [
      ['Console', /<title>[^<]*console[^<]*<\/title>/i],
      ['Docs', /<title>[^<]*reference[^<]*<\/title>/i],
    ] as const) {
      const url = new RegExp(`^  ${label}: +(\\S+)$`, 'm').exec(mock.banner)?.[1];
      expect(url, `a ${label} line in the banner`).toBeDefined();
      const page = await fetch(url as string);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await page.text()).toMatch(title);
    }
  });
});

describe('API keys', () => {
  it('accepts every --api-key given, and no longer the default key', async () => {
    const mock = await startMock(['--api-key', 'a', '--api-key', 'b']);
    expect(mock.banner).toContain('API key:   a (and 1 more) (--api-key)');
    expect(mock.banner).toContain("curl -H 'Authorization: Bearer a'");
    expect(await statusWith(mock, 'a')).toBe(200);
    expect(await statusWith(mock, 'b')).toBe(200);
    expect(await statusWith(mock, DEFAULT_API_KEY)).toBe(401);
    expect(await statusWith(mock, 'ab')).toBe(401);
    expect(await statusWith(mock, undefined)).toBe(401);
  });

  it('accepts the comma-separated keys of MOCK_API_KEYS, spaces trimmed', async () => {
    const mock = await startMock([], { MOCK_API_KEYS: 'x, y' });
    expect(mock.banner).toContain('API key:   x (and 1 more) (MOCK_API_KEYS)');
    expect(await statusWith(mock, 'x')).toBe(200);
    expect(await statusWith(mock, 'y')).toBe(200);
    expect(await statusWith(mock, 'x, y')).toBe(401);
    expect(await statusWith(mock, DEFAULT_API_KEY)).toBe(401);
  });

  it('lets --api-key win over MOCK_API_KEYS', async () => {
    const mock = await startMock(['--api-key', 'from-flag'], { MOCK_API_KEYS: 'from-env,other-env' });
    expect(mock.banner).toContain('API key:   from-flag (--api-key)');
    expect(await statusWith(mock, 'from-flag')).toBe(200);
    expect(await statusWith(mock, 'from-env')).toBe(401);
    expect(await statusWith(mock, 'other-env')).toBe(401);
    expect(await statusWith(mock, DEFAULT_API_KEY)).toBe(401);
  });

  it('falls back to the default key when MOCK_API_KEYS holds only commas and spaces', async () => {
    const mock = await startMock([], { MOCK_API_KEYS: ' , ,' });
    expect(await statusWith(mock, DEFAULT_API_KEY)).toBe(200);
  });
});

describe('the port', () => {
  it('honours PORT when --port is absent', async () => {
    const port = await freePort();
    const mock = await startMock([], { PORT: String(port) });
    expect(mock.url).toBe(`http://127.0.0.1:${port}/v1`);
    expect(await statusWith(mock, DEFAULT_API_KEY)).toBe(200);
  });

  it('lets --port win over PORT', async () => {
    const taken = createServer();
    const port = await listen(taken);
    try {
      // PORT names a port in use: the mock starts only if it ignores it.
      const mock = await startMock(['--port', '0'], { PORT: String(port) });
      expect(mock.url).not.toBe(`http://127.0.0.1:${port}/v1`);
    } finally {
      await closeServer(taken);
    }
  });

  it('exits with 1 and says so when the port is already in use', async () => {
    const taken = createServer();
    const port = await listen(taken);
    try {
      const result = await runToExit(['--port', String(port)]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`port ${port} on 127.0.0.1 is already in use`);
    } finally {
      await closeServer(taken);
    }
  });
});

describe('bad usage exits with 2 and a message', () => {
  it.each([
    [['--bogus'], "Unknown option '--bogus'"],
    [['--prot', '4000'], "Unknown option '--prot': did you mean --port?"],
    [['--cors', 'http://app.example'], "Unknown option '--cors': did you mean --cors-origin?"],
    // A mistyped flag's value, and an argument without a flag, may be a key: neither is repeated.
    [['--api-kye=sk-typo-SECRET'], "Unknown option '--api-kye': did you mean --api-key?"],
    [['sk-typo-SECRET'], 'An argument without a flag was given (not shown: it may be a key)'],
    [['--port', 'abc'], '--port must be an integer from 0 to 65535, got "abc"'],
    [['--port', '70000'], '--port must be an integer from 0 to 65535, got "70000"'],
    [['--port', '65536'], '--port must be an integer from 0 to 65535, got "65536"'],
    [['--port=-1'], '--port must be an integer from 0 to 65535, got "-1"'],
    [['--port', '1.5'], '--port must be an integer from 0 to 65535, got "1.5"'],
    [['--port', ''], '--port must be an integer from 0 to 65535'],
    [['--port'], "Option '--port <value>' argument missing"],
    [['--seed', '-1'], "Option '--seed' argument is ambiguous"],
    [['--seed=-1'], '--seed must be a whole number from 0 to 4294967295, got -1'],
    [['--seed', 'abc'], '--seed must be a whole number from 0 to 4294967295, got abc'],
    [['--seed', '4294967296'], '--seed must be a whole number from 0 to 4294967295, got 4294967296'],
    [['--log-format', 'xml'], '--log-format must be pretty or json, got xml'],
    [['--api-key', 'has space'], 'the API key (--api-key) cannot be sent as a bearer token: it has a space at character 4 of 9'],
    [['--api-key', 'ok', '--api-key', 'bad"quote'], 'API key 2 of 2 (--api-key) cannot be sent as a bearer token: it has a punctuation mark at character 4 of 9'],
    [['--journal-size', '0'], '--journal-size must be a whole number from 1 to 10000, got "0"'],
    [['--journal-size', 'lots'], '--journal-size must be a whole number from 1 to 10000, got "lots"'],
    [['--journal-size', '10001'], '--journal-size must be a whole number from 1 to 10000, got "10001"'],
    [['--max-pets', '0'], '--max-pets must be a whole number from 1 to 1000000, got "0"'],
    [['--max-pets=-5'], '--max-pets must be a whole number from 1 to 1000000, got "-5"'],
    [['--max-pets', 'many'], '--max-pets must be a whole number from 1 to 1000000, got "many"'],
    [['--max-pets', '1000001'], '--max-pets must be a whole number from 1 to 1000000, got "1000001"'],
    [['--max-catalogue-bytes', '0'], '--max-catalogue-bytes must be a whole number from 1 to 1073741824, got "0"'],
    [['--max-catalogue-bytes', '2MiB'], '--max-catalogue-bytes must be a whole number from 1 to 1073741824, got "2MiB"'],
    [['--max-catalogue-bytes', '1073741825'], '--max-catalogue-bytes must be a whole number from 1 to 1073741824, got "1073741825"'],
    [['--max-sessions', '2.5'], '--max-sessions must be a whole number from 1 to 100000, got "2.5"'],
    [['--max-sessions', '100001'], '--max-sessions must be a whole number from 1 to 100000, got "100001"'],
    [['--session-idle', '0'], '--session-idle must be a whole number from 1 to 604800, got "0"'],
    [['--session-per-key=yes'], "Option '--session-per-key' does not take an argument"],
    [['--admin-key', 'has space'], '--admin-key cannot be sent as a bearer token: it has a space at character 4 of 9'],
    [['--admin-key', 'ab=cd'], "--admin-key cannot be sent as a bearer token: it has an '=' before its end"],
    [['--admin-key', DEFAULT_API_KEY], '--admin-key must not be one of the API keys'],
    [['--api-key', 'k', '--admin-key', 'k'], '--admin-key must not be one of the API keys'],
    [['--max-connections', '0'], '--max-connections must be a whole number from 1 to 100000, got "0"'],
    [['--max-connections', '100001'], '--max-connections must be a whole number from 1 to 100000, got "100001"'],
    [['--store', 'postgres://db'], '--store must be memory, redis://[user:password@]host:port[/db] or rediss://…, got "postgres://db"'],
    [['--store', 'redis://'], '--store must be memory, redis://[user:password@]host:port[/db] or rediss://…, got "redis://"'],
    [['--store', 'localhost:6379'], '--store must be memory, redis://[user:password@]host:port[/db] or rediss://…, got "localhost:6379"'],
    // A password in a refused URL is not echoed to the terminal or a CI log.
    [['--store', 'redis://user:s3cret@/0'], '--store must be memory, redis://[user:password@]host:port[/db] or rediss://…, got "redis://***@/0"'],
    // The database is the path's number: a query (?db=3) or another path would be ignored or fail later.
    [['--store', 'redis://localhost:6379?db=3'], '--store must be memory, redis://[user:password@]host:port[/db] or rediss://…, got "redis://localhost:6379?db=3"'],
    [['--store', 'redis://localhost:6379/abc'], '--store must be memory, redis://[user:password@]host:port[/db] or rediss://…, got "redis://localhost:6379/abc"'],
    [['--store', 'redis://localhost:6379/0/extra'], '--store must be memory, redis://[user:password@]host:port[/db] or rediss://…, got "redis://localhost:6379/0/extra"'],
    [['--store-prefix', 'has space'], '--store-prefix must be 1 to 64 of A-Z a-z 0-9 . _ : -, got "has space"'],
    [['--store-prefix', 'a*'], '--store-prefix must be 1 to 64 of A-Z a-z 0-9 . _ : -, got "a*"'],
    [['--store-prefix', 'p'.repeat(65)], '--store-prefix must be 1 to 64'],
    [['--workers', '0'], '--workers must be a whole number from 1 to 64, got "0"'],
    [['--workers', '65'], '--workers must be a whole number from 1 to 64, got "65"'],
    [['--workers', 'two'], '--workers must be a whole number from 1 to 64, got "two"'],
    [['--workers', '2'], '--workers 2 needs a shared store, such as --store redis://localhost:6379: with the memory store each process would be a mock of its own'],
    [['--workers', '2', '--store', 'memory'], '--workers 2 needs a shared store'],
  ])('%j', async (args, message) => {
    // --port 0 where the case is not about the port, so a regression that starts cannot clash.
    const result = await runToExit(args.some((arg) => arg.startsWith('--port')) ? args : ['--port', '0', ...args]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`animal-store-mock: ${message}`);
    expect(result.stderr).toContain('animal-store-mock --help');
    expect(result.stderr).not.toContain('SECRET');
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT must be an integer from 0 to 65535, got "abc"'],
    [{ PORT: '99999' }, 'PORT must be an integer from 0 to 65535, got "99999"'],
    [{ MOCK_API_KEYS: 'good, has space' }, 'API key 2 of 2 (MOCK_API_KEYS) cannot be sent as a bearer token: it has a space at character 4 of 9'],
    [{ MOCK_ADMIN_KEY: 'bad"key' }, 'MOCK_ADMIN_KEY cannot be sent as a bearer token: it has a punctuation mark at character 4 of 7'],
    [{ MOCK_WORKERS: '3' }, '--workers 3 needs a shared store'],
    [{ MOCK_STORE: 'memcached://x' }, '--store must be memory, redis://[user:password@]host:port[/db] or rediss://…, got "memcached://x"'],
  ])('environment %j', async (env, message) => {
    const result = await runToExit('PORT' in env ? [] : ['--port', '0'], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
  });
});

describe('a secret the user mistyped is never shown', () => {
  /** The secret, and the forms a log or a report could carry it in. */
  const forms = (secret: string): string[] => [secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret), Buffer.from(secret).toString('base64')];
  const KEYS = ['S3cret x', 'S3cr\tet', 'Sécr3t-key', 'S3"cret', 'S3cr=et'];
  const PASSWORDS = ['Pw9f8e/x+Q==', 'a/b#c', 'p@ss/w0rd'];

  it.each([
    ...KEYS.flatMap((key) => [
      [key, ['--admin-key', key], {}],
      [key, [], { MOCK_ADMIN_KEY: key }],
      [key, ['--api-key', key], {}],
      [key, [], { MOCK_API_KEYS: `fine-key,${key}` }],
    ]),
    ...PASSWORDS.flatMap((password) => [
      [password, ['--store', `redis://:${password}@127.0.0.1:1`], {}],
      [password, [], { MOCK_STORE: `rediss://user:${password}@127.0.0.1:1/0` }],
    ]),
  ] as Array<[string, string[], Record<string, string>]>)('%j is in no output', async (secret, args, env) => {
    // Port 1 refuses at once: a URL that parses fails to connect, one that does not is refused as usage.
    const result = await runToExit(['--port', '0', ...args], env);
    expect(result.code).not.toBe(0);
    const output = `${result.stdout}\n${result.stderr}`;
    for (const form of forms(secret)) expect(output).not.toContain(form);
  });
});

describe('--help and --version', () => {
  it.each([['--help'], ['-h']])('%s prints the usage and exits with 0', async (flag) => {
    const result = await runToExit([flag]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Usage: animal-store-mock [options]');
    for (const option of ['--port', '--host', '--api-key', '--admin-key', '--scenario', '--scenarios', '--seed', '--fixtures', '--log-format', '--log-level', '--quiet', '--help']) {
      expect(result.stdout).toContain(option);
    }
    expect(result.stderr).toBe('');
  });

  it('--help wins over other flags, even bad ones', async () => {
    const result = await runToExit(['--port', 'abc', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Usage: animal-store-mock');
  });

  it('--version prints the package version and exits with 0', async () => {
    const result = await runToExit(['--version']);
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});
