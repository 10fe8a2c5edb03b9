/**
 * The Redis store's batches (group commit) through the proxy: a burst recorded once per event and in order, a batch
 * trimmed as the same events one by one would be, and the events kept before a project is named written in one call.
 */
import { describe, expect, it } from 'vitest';
import { createRecordingProxy, generateRequest, idsIn, range, writeBurst } from '../server/recording-helpers.js';
import { useTestRedis } from './redis-server.js';

describe('the Redis store in batches', () => {
  const redis = useTestRedis();

  it('a burst through the proxy on Redis: each event recorded once, in order, the log ended', async () => {
    const store = redis.newStore();
    await store.ready();
    const { proxy, streams } = createRecordingProxy(store);
    const text = (await proxy(generateRequest())).text();
    const stream = streams[0]!;
    writeBurst(stream, 'p-redis', 3_000);
    expect(idsIn(await text)).toEqual(range(1, 3_002));
    const ids: number[] = [];
    let after = 0;
    for (;;) {
      const page = await store.readEvents('p-redis', after);
      if (page === undefined || page.events.length === 0) break;
      ids.push(...page.events.map((event) => event.id));
      after = page.events.at(-1)!.id;
      if (page.ended && ids.length >= 3_002) break;
    }
    expect(ids).toEqual(range(1, 3_002));
  }, 30_000);

  it('a batch trims as the same events one by one would (events and bytes)', async () => {
    const options = { maxEventBytesPerGeneration: 1_000, maxEventsPerGeneration: 20 };
    const batched = redis.newStore(options);
    const single = redis.newStore(options);
    const turn = {
      kind: 'generate' as const,
      prompt: 'p',
      mode: 'build' as const,
      at: new Date(0).toISOString(),
      outcome: null,
    };
    const events = Array.from({ length: 60 }, (_, index) => ({
      id: index + 1,
      data: 'é'.repeat(5 + (index % 7) * 20),
    }));
    const g1 = await batched.beginGeneration('p-trim', 'alice', turn);
    const g2 = await single.beginGeneration('p-trim', 'alice', turn);
    await batched.appendEvents!('p-trim', g1, events.slice(0, 45));
    await batched.appendEvents!('p-trim', g1, events.slice(45));
    for (const event of events) await single.appendEvent('p-trim', g2, event);
    const a = await batched.readEvents('p-trim', 0);
    const b = await single.readEvents('p-trim', 0);
    expect(a?.events.map((event) => event.id)).toEqual(b?.events.map((event) => event.id));
  });

  it('the 5,000 events kept before the project is named go in as one call on Redis', async () => {
    const store = redis.newStore();
    await store.ready();
    const { proxy, streams, logs } = createRecordingProxy(store);
    const text = (await proxy(generateRequest())).text();
    const stream = streams[0]!;
    for (let n = 1; n <= 6_000; n++) stream.event({ type: 'tool_progress', tool: `step-${n}` });
    stream.event({ type: 'project_created', project_id: 'p-many' });
    stream.event({ type: 'stream_end', project_id: 'p-many' });
    stream.close();
    expect(idsIn(await text)).toHaveLength(6_002);
    expect(logs.filter((entry) => entry.event === 'internal_error')).toEqual([]);
    const page = await store.readEvents('p-many', 0);
    // The log keeps the newest 5,000: the pending ones, then the two after the naming.
    expect(page?.events[0]?.id).toBe(1_003);
  }, 30_000);
});
