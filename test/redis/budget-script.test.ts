/** The Redis budget script and the in-memory ledger make the same decisions for the same requests. */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBudgetLedger, createRedisProxyStore, type RedisProxyStore } from 'agent-embed/server';
import { startTestRedis, type TestRedis } from './redis-server.js';

let redis: TestRedis;
let store: RedisProxyStore;
beforeAll(async () => {
  redis = await startTestRedis();
});
afterAll(async () => {
  await store?.close();
  await redis.close();
});

describe('the budget script on Redis', () => {
  it('decides like createBudgetLedger: team cap, newcomer reserve, fair share, pause', async () => {
    store = createRedisProxyStore({ url: redis.url, keyPrefix: `budget-${randomUUID()}:` });
    await store.ready();
    const ledger = createBudgetLedger();
    const limits = { limit: 10, windowMs: 60_000 };
    const users = [...'aaaaaaaaaabbcacbdaabcdd', ...'dcba'];
    const fromRedis: string[] = [];
    const fromMemory: string[] = [];
    const now = Date.now();
    for (const user of users) {
      const remote = await store.acquireBudget(user, now, limits);
      const local = ledger.take(user, now, limits);
      fromRedis.push(remote.ok ? 'ok' : remote.reason);
      fromMemory.push(local.ok ? 'ok' : local.reason);
      if (!remote.ok) expect(remote.retryAfterMs).toBeGreaterThan(55_000);
    }
    expect(fromRedis).toEqual(fromMemory);
    expect(fromRedis.filter((decision) => decision === 'ok')).toHaveLength(10);
    expect(new Set(fromRedis)).toEqual(new Set(['ok', 'team']));
    await store.pauseBudget(Date.now() + 5_000);
    expect(await store.acquireBudget('e', Date.now(), limits)).toMatchObject({ ok: false, reason: 'paused' });
  });

  it('caps a user at the fair share while others are active', async () => {
    const shared = createRedisProxyStore({ url: redis.url, keyPrefix: `share-${randomUUID()}:` });
    await shared.ready();
    try {
      const ledger = createBudgetLedger();
      const limits = { limit: 9, windowMs: 60_000, reserve: 0 };
      const sequence = [...'abcaaaaabbbbcccc'];
      const decisions: [string, string][] = [];
      for (const user of sequence) {
        const remote = await shared.acquireBudget(user, Date.now(), limits);
        const local = ledger.take(user, Date.now(), limits);
        decisions.push([remote.ok ? 'ok' : remote.reason, local.ok ? 'ok' : local.reason]);
      }
      for (const [remote, local] of decisions) expect(remote).toBe(local);
      expect(decisions.map(([remote]) => remote)).toContain('fair_share');
    } finally {
      await shared.close();
    }
  });
});

describe('createRedisProxyStore({ client })', () => {
  it('uses a connected node-redis client it was given, and leaves it open on close', async () => {
    const { createClient } = await import('redis');
    const client = createClient({ url: redis.url });
    await client.connect();
    try {
      const given = createRedisProxyStore({ client, keyPrefix: `client-${randomUUID()}:` });
      await given.setProjectOwner('p-given', 'alice');
      await given.setProjectOwner('p-given', 'bob');
      expect(await given.getProjectOwner('p-given')).toBe('alice');
      await given.close();
      expect(client.isReady).toBe(true);
    } finally {
      await client.close();
    }
  });
});
