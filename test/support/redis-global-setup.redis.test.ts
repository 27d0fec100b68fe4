import { expect, inject, it } from 'vitest';
import { redisCommand } from './redis-command.js';

it("the run's one redis-server answers at inject('redisUrl')", async () => {
  const url = new URL(inject('redisUrl'));
  expect(url.protocol).toBe('redis:');
  expect(url.hostname).toBe('127.0.0.1');
  expect(await redisCommand(Number(url.port), ['PING'])).toBe('PONG');
});
