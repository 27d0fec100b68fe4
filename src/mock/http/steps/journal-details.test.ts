import { describe, expect, it } from 'vitest';
import { scenarioFolder, scenarioWith } from '../../../../test/support/scenario-folder.js';
import { TEST_KEY, useMock } from '../../../../test/support/use-mock.js';

/** What each journal entry records of its request and answer, on either store. */
describe('journal entry details', () => {
  const mock = useMock({ journalSize: 5 });
  const entries = async (session?: string) => (await mock.admin('/journal', session ? { headers: { 'x-mock-session': session } } : {})).json.entries as any[];
  const clear = (session?: string) => mock.admin('/journal', { method: 'DELETE', ...(session ? { headers: { 'x-mock-session': session } } : {}) });

  it('records the request headers (the key redacted) and body, and the answer the client got', async () => {
    await clear();
    const body = JSON.stringify({ name: 'Biscuit', categoryId: 2 });
    const started = Date.now();
    const created = await mock.authed('/pets', { method: 'POST', headers: { 'content-type': 'application/json', 'x-trace': 'abc' }, body });
    const [entry] = await entries();
    expect(entry.request.headers).toMatchObject({ authorization: 'Bearer ***', 'content-type': 'application/json', 'x-trace': 'abc' });
    expect(entry.request.body).toBe(body);
    expect(entry.response.headers['content-type']).toBe('application/json');
    expect(entry.response.headers.location).toBe(created.headers.get('location') ?? undefined);
    expect(JSON.parse(entry.response.body)).toEqual(created.json);
    expect(entry.request.bodyTruncated).toBeUndefined();
    expect(entry.response.bodyTruncated).toBeUndefined();
    expect(entry.session).toBeNull();
    // ISO 8601 in UTC with ms, between the request's start and now.
    expect(entry.at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(Date.parse(entry.at)).toBeGreaterThanOrEqual(started - 5);
    expect(Date.parse(entry.at)).toBeLessThanOrEqual(Date.now());
  });

  it('shows the key nowhere in any form, whatever carries it: the header, a wrong key\'s 401, other credential headers, cookies', async () => {
    await clear();
    await mock.admin('/journal/anonymous', { method: 'DELETE' });
    const wrong = 'wrong-key-987654321';
    await mock.authed('/pets?limit=1', { headers: { cookie: `sid=${TEST_KEY}`, 'x-api-key': TEST_KEY, 'proxy-authorization': `Basic ${btoa(TEST_KEY)}` } });
    await mock.request('/pets?limit=1', { headers: { authorization: `Bearer ${wrong}` } });
    await mock.request('/pets?limit=1', { headers: { authorization: TEST_KEY } });
    const all = JSON.stringify([await entries(), (await mock.admin('/journal/anonymous')).json.entries]);
    for (const secret of [TEST_KEY, wrong, btoa(TEST_KEY), encodeURIComponent(TEST_KEY)]) expect(all).not.toContain(secret);
    const [keyed] = await entries();
    expect(keyed.request.headers).toMatchObject({ authorization: 'Bearer ***', cookie: '***', 'x-api-key': '***', 'proxy-authorization': 'Basic ***' });
    const anonymous = (await mock.admin('/journal/anonymous')).json.entries as any[];
    expect(anonymous.map((entry) => entry.request.headers.authorization)).toEqual(['Bearer ***', '***']);
    expect(anonymous[0].response.headers['www-authenticate']).toMatch(/^Bearer /);
  });

  it('shows an Authorization scheme only when it is a registered one, and hides every credential-like query parameter and header', async () => {
    await clear();
    await mock.admin('/journal/anonymous', { method: 'DELETE' });
    // Five: the journal keeps 5 entries.
    const schemes = ['bEaReR', 'Digest', 'NTLM', 'keyB', 'x'];
    for (const scheme of schemes) await mock.request('/pets?limit=1', { headers: { authorization: `${scheme} secret-${scheme}` } });
    const shown = ((await mock.admin('/journal/anonymous')).json.entries as any[]).map((entry) => entry.request.headers.authorization);
    expect(shown).toEqual(['Bearer ***', 'Digest ***', 'NTLM ***', '***', '***']);
    const query = 'jwt=s1&code=s2&id_token=s3&SAMLResponse=s4&client_assertion=s5&pwd=s6&otp=s7&limit=1&status=available';
    const secrets = { 'x-csrf': 's8', 'x-xsrf-token': 's9', 'x-otp': 's10', 'x-saml': 's11', 'x-jwt': 's12', 'x-mock-session': 'kept-session', 'x-trace': 'kept' };
    await mock.authed(`/pets?${query}`, { headers: secrets });
    const [entry] = await entries('kept-session');
    expect(entry.path).toBe('/v1/pets?jwt=REDACTED&code=REDACTED&id_token=REDACTED&SAMLResponse=REDACTED&client_assertion=REDACTED&pwd=REDACTED&otp=REDACTED&limit=1&status=available');
    expect(entry.request.headers).toMatchObject({ 'x-csrf': '***', 'x-xsrf-token': '***', 'x-otp': '***', 'x-saml': '***', 'x-jwt': '***', 'x-mock-session': 'kept-session', 'x-trace': 'kept' });
  });

  it('cuts bodies at 1,024 and 2,048 characters with bodyTruncated, and a request\'s headers at 32, 256 characters each, 2,048 in all', async () => {
    await clear();
    const name = `${'n'.repeat(3000)}🐕`;
    const many = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`x-h${String(i).padStart(2, '0')}`, 'v']));
    await mock.authed('/pets', { method: 'POST', headers: { 'content-type': 'application/json', ...many }, body: JSON.stringify({ name, categoryId: 1 }) });
    await mock.authed('/pets?limit=100', { headers: { 'x-long': 'l'.repeat(5000) } });
    await mock.authed('/pets?limit=1', { headers: { 'x-a': 'a'.repeat(250), 'x-b': 'b'.repeat(250), 'x-c': 'c'.repeat(250), 'x-d': 'd'.repeat(250), 'x-e': 'e'.repeat(250), 'x-f': 'f'.repeat(250), 'x-g': 'g'.repeat(250), 'x-h': 'h'.repeat(250), 'x-i': 'i'.repeat(250) } });
    const [created, listed, wide] = await entries();
    expect(created.request.body).toBe(`{"name":"${'n'.repeat(1024 - 9)}`);
    expect(created.request.bodyTruncated).toBe(true);
    expect(created.response.body).toHaveLength(2048);
    expect(created.response.bodyTruncated).toBe(true);
    expect(Object.keys(created.request.headers)).toHaveLength(32);
    expect(created.request.headersTruncated).toBe(true);
    expect(listed.request.headers['x-long']).toBe(`${'l'.repeat(256)}…`);
    expect(listed.request.headersTruncated).toBe(true);
    expect(listed.response.body).toHaveLength(2048);
    const kept = Object.entries(wide.request.headers as Record<string, string>).reduce((sum, [header, value]) => sum + header.length + value.length, 0);
    expect(kept).toBeLessThanOrEqual(2048);
    expect(wide.request.headers['x-i']).toBeUndefined();
    expect(wide.request.headersTruncated).toBe(true);
  });

  it('numbers entries one by one from 1, never again after a clear, per journal; names the session', async () => {
    const session = `details-${Date.now()}`;
    const inSession = { headers: { 'x-mock-session': session } };
    await mock.authed('/pets?limit=1', inSession);
    await mock.authed('/pets?limit=2', inSession);
    expect((await entries(session)).map((entry) => [entry.seq, entry.session])).toEqual([[1, session], [2, session]]);
    await clear(session);
    for (let i = 0; i < 7; i++) await mock.authed('/pets?limit=1', inSession);
    // The journal holds 5: seqs 5 to 9, after 1 and 2 were cleared and 3 and 4 overwritten.
    expect((await entries(session)).map((entry) => entry.seq)).toEqual([5, 6, 7, 8, 9]);
  });

});

describe('journal entry details of faults', () => {
  const folder = scenarioFolder();
  const byHeader = (value: string, fault: unknown) => ({ id: value, match: { operation: '*', headers: { 'x-fault': { equals: value } } }, fault });
  folder.write('faults.yaml', scenarioWith('faults', [byHeader('malformed-json', { then: 'malformed-json' }), byHeader('trickle', { then: { trickle: { chunkBytes: 64, intervalMs: 10 } } })]));
  const mock = useMock({ scenario: 'faults', scenariosDir: folder.dir });
  // Not through the fidelity check: these answers break the contract on purpose.
  const raw = (fault: string) => fetch(`${mock.url}/pets?limit=2`, { headers: { authorization: `Bearer ${TEST_KEY}`, 'x-fault': fault } });

  it('records the half of a malformed-json answer that was sent, and no body for a trickled one', async () => {
    const cut = await (await raw('malformed-json')).text();
    await (await raw('trickle')).text();
    const [malformed, trickled] = (await mock.admin('/journal')).json.entries as any[];
    expect(malformed.response.body).toBe(cut);
    expect(trickled.stub).toBe('trickle');
    expect(trickled.response.body).toBe('');
    expect(trickled.response.headers['content-length']).toMatch(/^\d+$/);
  });
});
