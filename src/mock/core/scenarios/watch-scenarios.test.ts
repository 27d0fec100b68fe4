import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it, vi } from 'vitest';
import { scenarioFolder, scenarioWith } from '../../../../test/support/scenario-folder.js';
import { useMock } from '../../../../test/support/use-mock.js';

/** Hot reload over real HTTP: the active scenario's file is edited while the mock runs. */
const folder = scenarioFolder();
const named = (name: string) => [{ id: 'answer', match: { operation: 'listPets' }, response: { status: 200, body: [{ id: 900, name, categoryId: 1 }] } }];
// Generous: fs.watch and the 100 ms debounce are quick, but CI machines can be slow. No upper bound is asserted.
const poll = { timeout: 10_000, interval: 50 };

describe('hot reload of the active scenario', () => {
  folder.write('live.yaml', scenarioWith('live', named('first')));
  folder.write('bystander.yaml', scenarioWith('bystander', []));
  const mock = useMock({ scenario: 'live', scenariosDir: folder.dir, watch: true });
  const answer = async (): Promise<string> => (await mock.authed('/pets')).json[0].name as string;
  const warnings = () => mock.logs.filter((line) => line.level === 40).map((line) => line.msg as string);

  it('applies an edit without a restart, and resets the scenario\'s state', async () => {
    expect(await answer()).toBe('first');
    expect((await mock.health()).calls).toEqual([1]);
    folder.write('live.yaml', scenarioWith('live', named('second')));
    await vi.waitFor(async () => expect(await answer()).toBe('second'), poll);
    // The reload reset the call counts; only the polls since it count.
    expect((await mock.health()).calls[0]).toBeGreaterThanOrEqual(1);
    expect((await mock.admin('/scenarios')).json.scenarios.find((s: { name: string }) => s.name === 'live')).toMatchObject({ valid: true, active: true });
    expect(mock.logs.some((line) => /scenario live reloaded from .*live\.yaml/.test(String(line.msg)))).toBe(true);
  });

  it.each([
    ['a status the contract does not document', scenarioWith('live', [{ match: { operation: 'listPets' }, response: { status: 500, body: { code: 'x', message: 'y', status: 500 } } }]), /live\.yaml: \$\.stubs\[0\]\.response\.status 500 is not documented for listPets/],
    ['YAML that does not parse', 'name: live\nstubs: [\n', /live\.yaml: cannot be read as YAML or JSON/],
    ['an unknown key', { ...scenarioWith('live', named('third')), extra: true }, /live\.yaml: \$\.extra is not allowed here/],
    ['another name', scenarioWith('renamed', named('third')), /live\.yaml: \$\.name must be the file's name, live \(got renamed\)/],
    ['an empty file', '', /live\.yaml: /],
  ])('refuses an edit with %s: a warning naming file, path and reason; the last good version still answers', async (_what, content, message) => {
    const before = warnings().length;
    folder.write('live.yaml', content);
    await vi.waitFor(() => expect(warnings().length).toBeGreaterThan(before), poll);
    expect(warnings().slice(before).join('\n')).toMatch(message);
    expect(warnings().at(-1)).toContain('still serving the last good version of live');
    expect(await answer()).toBe('second');
    expect((await mock.admin('/health')).json.scenario).toBe('live');
  });

  it('applies the next good edit after refused ones', async () => {
    folder.write('live.yaml', scenarioWith('live', named('fourth')));
    await vi.waitFor(async () => expect(await answer()).toBe('fourth'), poll);
  });

  it('follows the scenario activated at run time, not the one it started with', async () => {
    expect((await mock.admin('/scenarios/active', { method: 'PUT', body: JSON.stringify({ name: 'bystander' }) })).status).toBe(200);
    expect((await mock.authed('/pets')).json).toHaveLength(20);
    folder.write('bystander.yaml', scenarioWith('bystander', named('edited bystander')));
    await vi.waitFor(async () => expect(await answer()).toBe('edited bystander'), poll);
  });

});

describe('hot reload reaches every session and Prefer: scenario= that uses the file', () => {
  folder.write('start.yaml', scenarioWith('start', []));
  folder.write('shared-edit.yaml', scenarioWith('shared-edit', named('before')));
  const mock = useMock({ scenario: 'start', scenariosDir: folder.dir, watch: true });
  const asked = async (init: RequestInit): Promise<string> => (await mock.authed('/pets', init)).json[0].name as string;
  const inSession = { headers: { 'x-mock-session': 'editor' } };
  const byPrefer = { headers: { prefer: 'scenario=shared-edit' } };

  it('applies one edit to a session that activated it and to a request that prefers it', async () => {
    const activated = await mock.admin('/scenarios/active', { method: 'PUT', headers: inSession.headers, body: JSON.stringify({ name: 'shared-edit' }) });
    expect(activated.status).toBe(200);
    expect(await asked(inSession)).toBe('before');
    expect(await asked(byPrefer)).toBe('before');
    folder.write('shared-edit.yaml', scenarioWith('shared-edit', named('after')));
    await vi.waitFor(async () => expect(await asked(inSession)).toBe('after'), poll);
    await vi.waitFor(async () => expect(await asked(byPrefer)).toBe('after'), poll);
  });

  it('starts new sessions from the edited start-up scenario', async () => {
    folder.write('start.yaml', scenarioWith('start', named('edited start')));
    await vi.waitFor(async () => expect(await asked({})).toBe('edited start'), poll);
    expect(await asked({ headers: { 'x-mock-session': 'newcomer' } })).toBe('edited start');
  });
});

describe('without watching (--no-watch)', () => {
  folder.write('still.yaml', scenarioWith('still', named('original')));
  folder.write('preferred.yaml', scenarioWith('preferred', named('preferred v1')));
  const mock = useMock({ scenario: 'still', scenariosDir: folder.dir, watch: false });

  it('keeps serving the version it loaded until activated again', async () => {
    folder.write('still.yaml', scenarioWith('still', named('edited')));
    await sleep(500);
    expect((await mock.authed('/pets')).json[0].name).toBe('original');
    // Activating it again reads the file anew.
    await mock.admin('/scenarios/active', { method: 'PUT', body: JSON.stringify({ name: 'still' }) });
    expect((await mock.authed('/pets')).json[0].name).toBe('edited');
  });

  it('starts a preferred scenario from its file as it is now, once its state was reset away', async () => {
    const preferred = { headers: { prefer: 'scenario=preferred' } };
    expect((await mock.authed('/pets', preferred)).json[0].name).toBe('preferred v1');
    folder.write('preferred.yaml', scenarioWith('preferred', named('preferred v2')));
    // Its state lives on until reset: the version it started with keeps answering.
    expect((await mock.authed('/pets', preferred)).json[0].name).toBe('preferred v1');
    await mock.admin('/reset', { method: 'POST' });
    expect((await mock.authed('/pets', preferred)).json[0].name).toBe('preferred v2');
  });
});
