/**
 * Relay leases on a real Redis: every instance's status route knows a build another instance still relays, on
 * Redis's clock, and a lease its relay stopped renewing (a crashed instance) runs out and leaves no key behind.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createRelayingProxy } from '../server/relaying-proxy.js';
import { createManualTimers, json } from '../server/scripted-upstream.js';
import { appOrigin, basePath } from '../server/recording-helpers.js';
import { useTestRedis } from './redis-server.js';

describe('relay leases on Redis', () => {
  const redis = useTestRedis();

  /** Two proxy instances over one Redis (a key prefix of their own), for alice, who owns p-alice. */
  async function twoInstances() {
    const keyPrefix = `test-${randomUUID()}:`;
    const instance = () => {
      const store = redis.newStore({ keyPrefix });
      return { ...createRelayingProxy({ store, timers: createManualTimers() }), store };
    };
    const relaying = instance();
    const other = instance();
    await relaying.store.setProjectOwner('p-alice', 'alice');
    return { keyPrefix, relaying, other };
  }

  it('is relayed while any holder’s lease is unexpired, and not after each gave it back', async () => {
    const store = redis.newStore();
    expect(await store.isRelayed!('p-lease')).toBe(false);
    await store.holdRelay!('p-lease', 'relay-a', 60_000);
    await store.holdRelay!('p-lease', 'relay-b', 60_000);
    expect(await store.isRelayed!('p-lease')).toBe(true);
    await store.releaseRelay!('p-lease', 'relay-a');
    expect(await store.isRelayed!('p-lease')).toBe(true);
    // Giving back a lease twice, or one never held, changes nothing.
    await store.releaseRelay!('p-lease', 'relay-a');
    await store.releaseRelay!('p-lease', 'relay-c');
    expect(await store.isRelayed!('p-lease')).toBe(true);
    await store.releaseRelay!('p-lease', 'relay-b');
    expect(await store.isRelayed!('p-lease')).toBe(false);
    expect(await store.isRelayed!('p-other')).toBe(false);
  });

  it('runs a lease out when nobody renews it, and the key goes with it; a renewal keeps it', async () => {
    const keyPrefix = `test-${randomUUID()}:`;
    const store = redis.newStore({ keyPrefix });
    const { createClient } = await import('redis');
    const client = createClient({ url: redis.server.url });
    await client.connect();
    try {
      await store.holdRelay!('p-crashed', 'relay-a', 150);
      await store.holdRelay!('p-renewed', 'relay-b', 150);
      expect(Number(await client.pTTL(`${keyPrefix}relay:p-crashed`))).toBeGreaterThan(0);
      await new Promise((resolve) => setTimeout(resolve, 100));
      await store.holdRelay!('p-renewed', 'relay-b', 150);
      await new Promise((resolve) => setTimeout(resolve, 100));
      // 200 ms after the holds: the lease renewed after 100 ms lives on, the other ran out.
      expect(await store.isRelayed!('p-crashed')).toBe(false);
      expect(await store.isRelayed!('p-renewed')).toBe(true);
      expect(await client.exists(`${keyPrefix}relay:p-crashed`)).toBe(0);
    } finally {
      await client.close();
    }
  });

  it('lets a second instance answer generating while the first relays a follow-up, then ready', async () => {
    const { keyPrefix, relaying, other } = await twoInstances();
    expect(await other.status()).toBe('ready');
    // With the status cache off (as here), no instance claims a refresh that others would wait on.
    const { createClient } = await import('redis');
    const client = createClient({ url: redis.server.url });
    await client.connect();
    expect(await client.exists(`${keyPrefix}status-lock:p-alice`)).toBe(0);
    await client.close();

    const followUp = await relaying.post('/agent/generate/p-alice');
    expect(followUp.status).toBe(200);
    await expect.poll(() => other.status()).toBe('generating');
    relaying.streams[0]!.event({ type: 'file_created', path: 'src/App.tsx' });
    expect(await other.status()).toBe('generating');

    await relaying.endUpstream(relaying.streams[0]!);
    await expect.poll(() => other.status()).toBe('ready');
    expect(await other.store.isRelayed!('p-alice')).toBe(false);
    await followUp.body?.cancel();
  });

  it('holds a follow-up’s project on every instance from the moment the upstream hears of it', async () => {
    const { relaying, other } = await twoInstances();
    const events = async () =>
      (await other.proxy(new Request(`${appOrigin}${basePath}/projects/p-alice/events`))).status;
    // An ended build in the record.
    const first = await relaying.post('/agent/generate/p-alice');
    relaying.streams[0]!.event({ type: 'file_created', path: 'src/Old.tsx' });
    await relaying.endUpstream(relaying.streams[0]!);
    await first.body?.cancel();
    expect(await events()).toBe(200);

    // A change the upstream has heard of but not answered: the ended build is not replayed as it, anywhere.
    const open = relaying.gatePost();
    const followUp = relaying.post('/agent/generate/p-alice');
    await relaying.untilPosted(2);
    await expect.poll(events).toBe(204);
    expect(await other.status()).toBe('generating');
    open(json({ status: false, message: 'Insufficient credits' }, 402));
    expect((await followUp).status).toBe(402);
    await expect.poll(events).toBe(200);
    expect(await other.status()).toBe('ready');
  });
});
