import { describe, expect, it } from 'vitest';
import { chain, type Exchange, type Step } from './exchange.js';

/** Only what chain() reads of an exchange: a fresh one per request. */
const request = (): Exchange => ({ nextCalled: undefined }) as Exchange;
const answer = (text: string) => () => new Response(text);
const passOn: Step = (x, next) => next(x);

describe('chain()', () => {
  it('runs the steps in order, each request on its own', async () => {
    const seen: string[] = [];
    const step = (name: string): Step => (x, next) => (seen.push(name), next(x));
    const run = chain([step('a'), step('b')], answer('done'));
    for (let i = 0; i < 2; i++) expect(await (await run(request())).text()).toBe('done');
    expect(seen).toEqual(['a', 'b', 'a', 'b']);
  });

  it('refuses a step calling its next twice for one request, as Hono compose does', () => {
    let lastRan = 0;
    const twice: Step = (x, next) => {
      next(x);
      return next(x);
    };
    const run = chain([passOn, twice, passOn], () => (lastRan++, new Response('once')));
    expect(() => run(request())).toThrow('next() called more than once for one request');
    expect(lastRan).toBe(1);
  });

  it('lets one request pass through two chains, the last of one being the other', async () => {
    const inner = chain([passOn, passOn], answer('inner'));
    const outer = chain([passOn, passOn], inner);
    expect(await (await outer(request())).text()).toBe('inner');
  });
});
