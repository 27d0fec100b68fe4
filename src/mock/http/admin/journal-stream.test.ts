import { describe, expect, it } from 'vitest';
import { openStream } from '../../../../test/support/event-stream.js';
import { useMock } from '../../../../test/support/use-mock.js';

describe('the journal stream', () => {
  const mock = useMock();
  const stream = (path = '/journal/stream', init?: RequestInit) => openStream(`${new URL(mock.url).origin}/__mock${path}`, init);

  it('smoke', async () => {
    const s = await stream();
    expect(s.status).toBe(200);
    console.log(await s.next(), await s.next());
    await mock.authed('/pets?limit=1');
    console.log(JSON.stringify(await s.next()));
    s.close();
  });
});
