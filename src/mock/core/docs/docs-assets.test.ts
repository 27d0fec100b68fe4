import { describe, expect, it } from 'vitest';
import { docsAssets } from './docs-assets.js';
import { tempFolder } from '../../../../test/support/temp-folder.js';

// The renderer missing cannot be arranged on a running mock (the checkout has it), so the loader is asked directly.
describe('the API reference\'s files, when the renderer cannot be read', () => {
  it.each([
    ['not installed', () => undefined],
    ['a folder without its files', () => tempFolder('no-renderer-')],
  ])('%s: 503 service_unavailable, saying how to get them', (_, dir) => {
    const loaded = docsAssets('Animal Store API', dir)();
    expect(loaded).toEqual({ ok: false, error: { code: 'service_unavailable', status: 503, message: expect.stringContaining('npm run build') } });
  });

  it('reads them once, whatever the number of requests', () => {
    let asked = 0;
    const assets = docsAssets('Animal Store API', () => {
      asked += 1;
      return undefined;
    });
    assets();
    assets();
    expect(asked).toBe(1);
  });
});
