import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPage, SCREENSHOTS_DIR, screenshot } from './browser.js';

// A plain page on a real port: what the browser helpers are checked against.
let server: Server;
let origin: string;
beforeAll(async () => {
  server = createServer((_request, response) => response.end('<!doctype html><title>t</title><h1>page</h1>'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('openPage', () => {
  it('gives each test a browser of its own: what one page stores, the next does not see', async () => {
    const first = await openPage();
    await first.page.goto(origin);
    await first.page.evaluate("localStorage.setItem('left', 'behind')");
    expect(await first.page.evaluate("localStorage.getItem('left')")).toBe('behind');
    await first.close();
    const second = await openPage();
    await second.page.goto(origin);
    expect(await second.page.evaluate("localStorage.getItem('left')")).toBeNull();
    await second.close();
  });
});

describe('screenshot', () => {
  const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47]);
  const name = `support-check-${process.pid}`;
  const file = join(SCREENSHOTS_DIR, `${name}.png`);
  afterAll(() => rmSync(file, { force: true }));

  it('writes the PNG only when MOCK_SCREENSHOTS=1, so a plain run changes no tracked file', async () => {
    const { page, close } = await openPage();
    const before = process.env.MOCK_SCREENSHOTS;
    try {
      await page.goto(origin);
      delete process.env.MOCK_SCREENSHOTS;
      await screenshot(page, name);
      expect(existsSync(file)).toBe(false);
      process.env.MOCK_SCREENSHOTS = '1';
      await screenshot(page, name);
      expect(readFileSync(file).subarray(0, 4)).toEqual(PNG);
    } finally {
      if (before === undefined) delete process.env.MOCK_SCREENSHOTS;
      else process.env.MOCK_SCREENSHOTS = before;
      await close();
    }
  });
});
