import { describe, expect, it } from 'vitest';
import { createMock } from '../../src/entries/fetch.js';

/** createMock checks what it is given and throws an Error naming the problem: never a half-built mock. */
describe('createMock with bad input', () => {
  it.each([
    ['no API key', { apiKeys: [] }, /apiKeys must be a non-empty array/],
    ['a key with a space', { apiKeys: ['two words'] }, /apiKeys\[0\] cannot be sent as a bearer token: it has a space at character 4 of 9/],
    ['an admin key that is an API key', { apiKeys: ['k1'], adminKey: 'k1' }, /adminKey must not be one of the API keys/],
    ['an unknown scenario', { scenario: 'nope' }, /unknown scenario "nope" in .* \(known: after-sunset, .*default/],
    ['a scenario object that is not one', { scenario: { name: 'mine' } }, /invalid scenario "mine" \(given to createMock\): \$\.description is required/],
    ['a scenario without a name', { scenarios: [{ description: 'x' }] }, /scenarios\[0\] must be a scenario object with a non-empty string name/],
    ['a scenario whose fixture the package does not ship', { scenario: { name: 'mine', description: 'd', catalogue: { fixture: 'elsewhere.json' }, stubs: [] } }, /elsewhere\.json is not a fixture the package ships/],
    ['fixtures that are not animals', { fixtures: [{ id: 1, name: 'x' }] }, /invalid fixtures: \$\[0\]\.categoryId is required/],
    ['fixtures that are not an array', { fixtures: 'pets.json' }, /fixtures must be an array of animals/],
    ['fixtures and a seed', { fixtures: [], seed: 1 }, /give fixtures or seed, not both/],
    ['a seed out of range', { seed: 2 ** 32 }, /seed must be a whole number from 0 to 4294967295, got 4294967296/],
    ['a seed given as text', { seed: '7' }, /seed must be a whole number from 0 to 4294967295, got "7"/],
    ['a misspelt option', { fixture: [] }, /unknown option "fixture" \(known: apiKeys, adminKey, seed, fixtures,/],
    ['options that are not an object', 'fixtures.json', /the options must be an object/],
    ['a profile with an unknown point', { profile: { version: 1, name: 'p', choices: { nope: 'x' } } }, /invalid profile: \$\.choices\.nope is not allowed here/],
    ['a profile of another version', { profile: { version: 2 } }, /invalid profile: \$\.version is 2: this mock reads profiles of version 1/],
  ])('%s', async (_, options, message) => {
    await expect(createMock(options as never)).rejects.toThrow(message);
  });

  it('takes an int64 past 2^53 as a bigint in fixtures, and answers it digit for digit', async () => {
    const mock = await createMock({ fixtures: [{ id: 1, name: 'Big', categoryId: 9223372036854775807n }] });
    const answer = await mock.fetch('/v1/pets/1', { headers: { authorization: 'Bearer animal-store-dev-key' } });
    expect(await answer.text()).toBe('{"id":1,"name":"Big","categoryId":9223372036854775807}');
    await expect(createMock({ fixtures: [{ id: 1, name: 'Past', categoryId: 2n ** 63n }] })).rejects.toThrow(/invalid fixtures: \$\[0\]\.categoryId/);
  });

  it('keeps a secret out of its message', async () => {
    const error = await createMock({ apiKeys: ['s3cret-key with-space'] }).catch((caught: unknown) => caught as Error);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).not.toContain('s3cret');
  });
});
