/** The Redis budget script and the in-memory ledger make the same decisions for the same requests. */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createBudgetLedger, createRedisProxyStore } from 'agent-embed/server';
import { useTestRedis } from './redis-server.js';

const redis = useTestRedis();

describe('the budget script on Redis', () => {
  it('decides like createBudgetLedger: a burst, then spread, and a pause for everyone', async () => {
    const store = redis.newStore();
    const ledger = createBudgetLedger();
    const limits = { limit: 10, windowMs: 60_000 };
    const users = [...'aaaaabcab'];
    const fromRedis: string[] = [];
    const fromMemory: string[] = [];
    for (const user of users) {
      const remote = await store.acquireBudget(user, Date.now(), limits);
      const local = ledger.take(user, Date.now(), limits);
      fromRedis.push(remote.ok ? 'ok' : remote.reason);
      fromMemory.push(local.ok ? 'ok' : local.reason);
      // The burst of three leaves the spread window (18 s) first.
      if (!remote.ok) expect(remote.retryAfterMs).toBeGreaterThan(17_000);
    }
    expect(fromRedis).toEqual(fromMemory);
    expect(fromRedis.filter((decision) => decision === 'ok')).toHaveLength(3);
    await store.pauseBudget(Date.now() + 5_000);
    expect(await store.acquireBudget('e', Date.now(), limits)).toMatchObject({ ok: false, reason: 'paused' });
  });

  it('gives freed room to a waiting user before one served more recently, like the ledger', async () => {
    const shared = redis.newStore();
    const ledger = createBudgetLedger();
    // A one-second window, so room frees during the test.
    const limits = { limit: 2, windowMs: 1_000, burst: 2 };
    const decisions: [string, string][] = [];
    const ask = async (user: string) => {
      const remote = await shared.acquireBudget(user, Date.now(), limits);
      const local = ledger.take(user, Date.now(), limits);
      decisions.push([remote.ok ? 'ok' : remote.reason, local.ok ? 'ok' : local.reason]);
    };
    await ask('a');
    await new Promise((resolve) => setTimeout(resolve, 300));
    await ask('a');
    await ask('b');
    // The first request has left the window; the second has not: room for one, and b waits for it.
    await new Promise((resolve) => setTimeout(resolve, 900));
    await ask('a');
    await ask('b');
    await ask('a');
    expect(decisions.map(([remote]) => remote)).toEqual(['ok', 'ok', 'team', 'fair_share', 'ok', 'team']);
    expect(decisions.map(([, local]) => local)).toEqual(['ok', 'ok', 'team', 'fair_share', 'ok', 'team']);
  });
});

describe('createRedisProxyStore({ client })', () => {
  it('uses a connected node-redis client it was given, and leaves it open on close', async () => {
    const { createClient } = await import('redis');
    const client = createClient({ url: redis.server.url });
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
