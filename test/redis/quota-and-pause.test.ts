/**
 * On a real Redis, across two proxy instances: a quota is never passed under concurrent load, and an
 * upstream Retry-After pauses the team for at most the cap, also when a longer pause is already stored.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  createAgentProxy,
  createMemoryProxyStore,
  type AgentProxyOptions,
  type RedisProxyStore,
} from 'agent-embed/server';
import { useTestRedis } from './redis-server.js';

const redis = useTestRedis();

/** A conversation turn as the recorder begins one. */
const turnOf = (prompt: string) => ({
  kind: 'generate' as const,
  prompt,
  mode: 'build' as const,
  at: new Date().toISOString(),
  outcome: null,
});

const openStream = () =>
  new Response('data: {"type":"stream_end","project_id":"p-q","app_url":"https://p-q.example"}\n\n', {
    headers: { 'content-type': 'text/event-stream' },
  });

/** Two proxy instances sharing one Redis key prefix, with an upstream the test scripts. */
function twoInstances(upstream: () => Response, options: Partial<AgentProxyOptions> = {}) {
  const keyPrefix = `quota-${randomUUID()}:`;
  let upstreamCalls = 0;
  let store: RedisProxyStore | undefined;
  const instances = [0, 1].map(() => {
    store = redis.newStore({ keyPrefix });
    return createAgentProxy({
      apiBaseUrl: 'https://agent.example.test/api/v1',
      apiToken: 'test-token-quota',
      authorize: () => ({ externalUserId: 'alice' }),
      store,
      rateLimit: false,
      fetch: async () => {
        upstreamCalls++;
        return upstream();
      },
      ...options,
    });
  });
  return { instances, upstreamCalls: () => upstreamCalls, store: store as RedisProxyStore };
}

const generate = () =>
  new Request('https://app.example.test/agent/generate', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ prompt: 'A landing page for a bakery' }),
  });

describe('quota on Redis', () => {
  it('lets exactly the limit through when 50 generates of one user race across two instances', async () => {
    const { instances, upstreamCalls } = twoInstances(openStream, { quota: { generations: 5, per: 'day' } });
    const statuses = await Promise.all(
      Array.from({ length: 50 }, async (_, index) => {
        const response = await (instances[index % 2] as (request: Request) => Promise<Response>)(generate());
        await response.arrayBuffer();
        return response.status;
      }),
    );
    expect(statuses.filter((status) => status === 200)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(45);
    expect(upstreamCalls()).toBe(5);
    expect(await instances[1]?.usage('alice')).toMatchObject({ used: 5, limit: 5, period: 'day' });
  });

  it('gives a generation back on either instance when the upstream refuses it', async () => {
    let refuse = true;
    const { instances } = twoInstances(
      () =>
        refuse
          ? new Response(JSON.stringify({ status: false, message: 'Unauthorized.' }), {
              status: 401,
              headers: { 'content-type': 'application/json' },
            })
          : openStream(),
      { quota: { generations: 1, per: 'day' } },
    );
    expect((await instances[0]!(generate())).status).toBe(401);
    refuse = false;
    expect((await instances[1]!(generate())).status).toBe(200);
    expect((await instances[0]!(generate())).status).toBe(429);
  });
});

describe('the upstream pause on Redis', () => {
  it('clamps a stored pause longer than the cap when it is read', async () => {
    const { store } = twoInstances(openStream);
    await store.pauseBudget(Date.now() + 10 * 365 * 86_400_000);
    const decision = await store.acquireBudget('alice', Date.now(), { limit: 10, windowMs: 60_000, maxPauseMs: 2000 });
    expect(decision).toMatchObject({ ok: false, reason: 'paused' });
    expect(decision.ok === false && decision.retryAfterMs).toBeLessThanOrEqual(2000);
  });

  it('pauses every instance for at most the cap after Retry-After: 99999999999', async () => {
    let limited = true;
    const { instances } = twoInstances(
      () =>
        limited
          ? new Response(JSON.stringify({ status: false, message: 'Too Many Attempts.' }), {
              status: 429,
              headers: { 'content-type': 'application/json', 'retry-after': '99999999999' },
            })
          : openStream(),
      { rateLimit: { limit: 10, windowMs: 60_000 }, maxRetryAfterMs: 1000 },
    );
    const first = await instances[0]!(generate());
    expect(first.status).toBe(429);
    expect(first.headers.get('retry-after')).toBe('1');
    limited = false;
    expect((await instances[1]!(generate())).status).toBe(429);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await instances[1]!(generate())).status).toBe(200);
  });
});

describe('the event log on Redis', () => {
  it('keeps at most the configured bytes and events of a generation, the newest always', async () => {
    const store = redis.newStore({ maxEventBytesPerGeneration: 100, maxEventsPerGeneration: 50 });
    const generation = await store.beginGeneration('p-log', 'alice', turnOf('A bounded log'));
    const data = (index: number) => JSON.stringify({ type: 'tool_progress', n: index }).padEnd(30, ' ');
    for (let index = 1; index <= 10; index++)
      await store.appendEvent('p-log', generation, { id: index, data: data(index) });
    const kept = (await store.readEvents('p-log', 0))?.events ?? [];
    expect(kept.map((event) => event.id)).toEqual([8, 9, 10]);
    // One event larger than the cap on its own is still kept: the newest always stays.
    await store.appendEvent('p-log', generation, { id: 11, data: 'x'.repeat(500) });
    expect(((await store.readEvents('p-log', 0))?.events ?? []).map((event) => event.id)).toEqual([11]);
  });

  it('reads in pages of at most maxBytes of data, at least one event, as the memory store does', async () => {
    const redisStore = redis.newStore();
    const memoryStore = createMemoryProxyStore();
    for (const store of [redisStore, memoryStore]) {
      const generation = await store.beginGeneration('p-page', 'alice', turnOf('Paged'));
      for (let index = 1; index <= 10; index++)
        await store.appendEvent('p-page', generation, { id: index, data: 'x'.repeat(index === 4 ? 100 : 30) });
    }
    const pages = async (store: typeof redisStore | typeof memoryStore) => {
      const read: number[][] = [];
      for (let after = 0; after < 10;) {
        const ids = ((await store.readEvents('p-page', after, 70))?.events ?? []).map((event) => event.id);
        read.push(ids);
        after = ids.at(-1) ?? 10;
      }
      return read;
    };
    // Two 30-byte events fit in 70; the 100-byte one comes alone (a page holds at least one event).
    const expected = [[1, 2], [3], [4], [5, 6], [7, 8], [9, 10]];
    expect(await pages(redisStore)).toEqual(expected);
    expect(await pages(memoryStore)).toEqual(expected);
    expect(((await redisStore.readEvents('p-page', 0))?.events ?? []).map((event) => event.id)).toHaveLength(10);
  });
});

describe('a conversation on Redis', () => {
  const outcome = (files: number) => ({
    status: 'completed' as const,
    files_created: files,
    files_modified: 0,
    steps: 1,
  });

  it('keeps the newest maxTurnsPerProject turns, each outcome on its own turn, as the memory store does', async () => {
    for (const store of [
      redis.newStore({ maxTurnsPerProject: 2 }),
      createMemoryProxyStore({ maxTurnsPerProject: 2 }),
    ]) {
      const first = await store.beginGeneration('p-turns', 'alice', turnOf('first'));
      const second = await store.beginGeneration('p-turns', 'alice', turnOf('second'));
      // The first generation's end comes after the second began: its turn is still kept.
      await store.endGeneration('p-turns', first, outcome(1));
      const third = await store.beginGeneration('p-turns', 'alice', turnOf('third'));
      expect([first, second, third]).toEqual([1, 2, 3]);
      // The second's turn is the oldest kept; the first's end had been written before it went.
      await store.endGeneration('p-turns', second, outcome(2));
      // An end of a generation whose turn was trimmed writes into no other turn.
      await store.endGeneration('p-turns', first, outcome(9));
      await store.endGeneration('p-turns', third, outcome(3));
      const turns = await store.getConversation('p-turns');
      expect(turns.map((kept) => [kept.prompt, kept.outcome?.files_created])).toEqual([
        ['second', 2],
        ['third', 3],
      ]);
    }
  });

  it('never makes another user’s record of a project the new owner’s: it starts afresh, as the memory store does', async () => {
    for (const store of [redis.newStore({ keyPrefix: `owner-${randomUUID()}:` }), createMemoryProxyStore()]) {
      await store.beginGeneration('p-x', 'bob', turnOf('Bob’s private prompt'));
      await store.noteProject('p-x', 'bob', { name: 'Bob’s shop', project_status: 'ready' }, Date.now());
      await store.appendEvent('p-x', 1, { id: 1, data: '{"type":"file_created","path":"bob.ts"}' });
      // The upstream names the same id for Alice (her owner record was the only one: Bob's was lost).
      const generation = await store.beginGeneration('p-x', 'alice', turnOf('Alice’s prompt'));
      expect(generation).toBe(1);
      expect((await store.getConversation('p-x')).map((turn) => turn.prompt)).toEqual(['Alice’s prompt']);
      expect((await store.readEvents('p-x', 0))?.events).toEqual([]);
      expect(await store.listProjects('bob')).toEqual([]);
      expect((await store.listProjects('alice')).map((project) => [project.project_id, project.name])).toEqual([
        ['p-x', null],
      ]);
    }
  });

  it('numbers on from the turns of a project recorded before the count was kept', async () => {
    const { createClient } = await import('redis');
    const client = createClient({ url: redis.server.url });
    await client.connect();
    try {
      const keyPrefix = `old-${randomUUID()}:`;
      // Two turns as an earlier version recorded them: numbered by the list's length, no count.
      await client.rPush(`${keyPrefix}turns:p-old`, [JSON.stringify(turnOf('one')), JSON.stringify(turnOf('two'))]);
      const store = redis.newStore({ keyPrefix });
      const next = await store.beginGeneration('p-old', 'alice', turnOf('three'));
      expect(next).toBe(3);
      await store.endGeneration('p-old', next, outcome(3));
      const turns = await store.getConversation('p-old');
      expect(turns.map((kept) => [kept.prompt, kept.outcome?.files_created ?? null])).toEqual([
        ['one', null],
        ['two', null],
        ['three', 3],
      ]);
    } finally {
      await client.close();
    }
  });
});
