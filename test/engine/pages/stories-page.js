// A Storybook-like page: each story gets its own engine, as a story's loader would make it, and shows its own animals.
import { createMock } from '../../../dist/src/entries/fetch.js';

const key = { authorization: 'Bearer animal-store-dev-key' };

async function renderStory(id, options, arrange) {
  const mock = await createMock(options);
  await arrange(mock);
  const pets = await (await mock.fetch('/v1/pets?limit=100', { headers: key })).json();
  const section = document.createElement('section');
  section.id = id;
  for (const pet of pets) {
    const item = document.createElement('li');
    item.textContent = pet.name;
    section.append(item);
  }
  document.body.append(section);
  return mock;
}

const create = (name) => (mock) => mock.fetch('/v1/pets', { method: 'POST', headers: { ...key, 'content-type': 'application/json' }, body: JSON.stringify({ name, categoryId: 1 }) });
await renderStory('catalogue-with-a-new-animal', {}, create('Only in the first story'));
await renderStory('a-shelter-of-two', { fixtures: [{ id: 1, name: 'Pip', categoryId: 2 }, { id: 2, name: 'Moss', categoryId: 2, status: 'sold' }] }, create('Only in the second story'));
await renderStory('sold-out', { scenario: 'sold-out' }, async () => undefined);
document.body.dataset.ready = 'yes';
