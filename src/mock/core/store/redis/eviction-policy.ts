import type { RedisConnection } from './redis-connection.js';

/**
 * Redis's `maxmemory-policy`, as far as the mock may read it: CONFIG GET,
 * else the `maxmemory_policy` line of INFO memory (some managed Redis
 * services refuse CONFIG, some rename INFO too), else why neither answered.
 */
export type EvictionPolicy = { kind: 'read'; policy: string } | { kind: 'unknown'; why: string };

/** What the mock makes of a policy: every key evictable, only keys with a TTL (every session's), none, or not known. */
export type PolicyRisk = 'any-key' | 'session-keys' | 'none' | 'unknown';

export async function readEvictionPolicy(redis: RedisConnection): Promise<EvictionPolicy> {
  const reasons: string[] = [];
  try {
    const reply = await redis.command(['CONFIG', 'GET', 'maxmemory-policy']);
    if (Array.isArray(reply) && typeof reply[1] === 'string') return { kind: 'read', policy: reply[1] };
    reasons.push('CONFIG GET gave no maxmemory-policy');
  } catch (error) {
    reasons.push(`CONFIG GET: ${(error as Error).message}`);
  }
  try {
    const info = String(await redis.command(['INFO', 'memory']));
    const policy = /^maxmemory_policy:(\S+)/m.exec(info)?.[1];
    if (policy !== undefined) return { kind: 'read', policy };
    reasons.push('INFO memory has no maxmemory_policy');
  } catch (error) {
    reasons.push(`INFO: ${(error as Error).message}`);
  }
  return { kind: 'unknown', why: reasons.join('; ') };
}

export function policyRisk(policy: EvictionPolicy): PolicyRisk {
  if (policy.kind === 'unknown') return 'unknown';
  if (policy.policy.startsWith('allkeys-')) return 'any-key';
  // Every key of a running session has a TTL (its idle time): volatile-* policies may drop them.
  if (policy.policy.startsWith('volatile-')) return 'session-keys';
  return 'none';
}

/** How health and the start-up line show it: the policy, or that it could not be read and why. */
export const shownPolicy = (policy: EvictionPolicy): string =>
  policy.kind === 'read' ? policy.policy : `unknown: the mock could not read it (${policy.why})`;

/** The start-up's words about a policy that may lose what the mock acknowledged; undefined when there is nothing to say. */
export function policyWarning(policy: EvictionPolicy, where: string): string | undefined {
  const advice = 'Set maxmemory-policy noeviction (CONFIG SET maxmemory-policy noeviction, or in redis.conf): a full Redis then refuses writes, which the mock answers with an Error, rather than forgetting what it acknowledged.';
  switch (policyRisk(policy)) {
    case 'any-key':
      return `Redis at ${where} evicts any key when full (maxmemory-policy ${shownPolicy(policy)}): sessions, animals created and scenario states would vanish silently. ${advice}`;
    case 'session-keys':
      return `Redis at ${where} evicts keys with a TTL when full (maxmemory-policy ${shownPolicy(policy)}): every session's keys have one, so a session's animals and state may vanish silently. ${advice}`;
    case 'unknown':
      return `Redis at ${where}: maxmemory-policy ${shownPolicy(policy)}. Under an evicting policy what the mock acknowledged may vanish silently: make sure it is noeviction.`;
    case 'none':
      return undefined;
  }
}
