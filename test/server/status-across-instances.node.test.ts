/**
 * With a store that keeps relay leases (the Redis store does), every proxy instance answers a terminal status as
 * `generating` while any instance relays a build of the project; a lease its relay stops renewing (a crashed
 * instance) ends after `relayLeaseMs`. Two proxies over one shared store stand for two instances here; the Redis
 * suite runs the same on a real Redis.
 */
import { describe, expect, it } from 'vitest';
import type { ProjectListBody } from 'agent-embed/core';
import { createMemoryProxyStore, relayLeaseMs, type ProxyStore } from 'agent-embed/server';
import { createBodyReader, createManualTimers } from './scripted-upstream.js';
import { appOrigin, basePath } from './recording-helpers.js';
import { createRelayingProxy } from './relaying-proxy.js';

/** A memory store shared by instances, with relay leases on a clock the test moves, and a record of lease calls. */
function createLeasingStore(owners: Record<string, string> = { 'p-alice': 'alice' }) {
  const memory = createMemoryProxyStore({ owners });
  const clock = { now: 0 };
  const leases = new Map<string, Map<string, number>>();
  const calls: string[] = [];
  const failing = { hold: false, read: false };
  /** While set, a release waits for it (a slow store). */
  const gate: { release?: Promise<void> } = {};
  const store: ProxyStore = {
    ...memory,
    async holdRelay(projectId, holder, ttlMs) {
      calls.push(`hold ${projectId}`);
      if (failing.hold) throw new Error('the store is down');
      const held = leases.get(projectId) ?? new Map<string, number>();
      held.set(holder, clock.now + ttlMs);
      leases.set(projectId, held);
    },
    async releaseRelay(projectId, holder) {
      calls.push(`release ${projectId}`);
      await gate.release;
      leases.get(projectId)?.delete(holder);
    },
    async isRelayed(projectId) {
      calls.push(`read ${projectId}`);
      if (failing.read) throw new Error('the store is down');
      return [...(leases.get(projectId)?.values() ?? [])].some((expiry) => expiry > clock.now);
    },
  };
  const holders = (projectId = 'p-alice') => [...(leases.get(projectId)?.keys() ?? [])];
  return { store, clock, calls, failing, gate, holders };
}

/** Two instances over one leasing store, each with its own manual timers (a lease's renewal is one of them). */
function createCluster(owners?: Record<string, string>) {
  const shared = createLeasingStore(owners);
  const instance = () => {
    const timers = createManualTimers();
    return { ...createRelayingProxy({ store: shared.store, timers }), timers };
  };
  return { ...shared, relaying: instance(), other: instance() };
}

describe('the status route on another instance than the one relaying the build', () => {
  it('answers generating while the build is relayed anywhere, then as the upstream says', async () => {
    const { relaying, other, holders } = createCluster();
    expect(await other.status()).toBe('ready');
    const followUp = await relaying.post('/agent/generate/p-alice');
    expect(followUp.status).toBe(200);
    expect(holders()).toHaveLength(1);
    const midBuild = await other.statusText();
    expect(JSON.parse(midBuild)).toMatchObject({ project_status: 'generating', name: 'App' });

    await relaying.endUpstream(relaying.streams[0]!);
    expect(holders()).toEqual([]);
    expect(await other.status()).toBe('ready');
    // Nothing is left to renew a lease that was given back.
    expect(relaying.timers.pending()).toBe(0);
    await followUp.body?.cancel();
  });

  it('keeps the project list building when the other instance polls mid-build', async () => {
    const { relaying, other } = createCluster();
    const listed = async () => {
      const response = await other.proxy(new Request(`${appOrigin}${basePath}/projects`));
      const { projects } = (await response.json()) as ProjectListBody;
      return projects.find((project) => project.project_id === 'p-alice')?.project_status;
    };
    const followUp = await relaying.post('/agent/generate/p-alice');
    expect(await other.status()).toBe('generating');
    // The upstream's stale "ready" is not noted over the recorder's "generating".
    expect(await listed()).toBe('generating');
    await relaying.endUpstream(relaying.streams[0]!);
    expect(await other.status()).toBe('ready');
    expect(await listed()).toBe('ready');
    await followUp.body?.cancel();
  });

  it('renews the lease while the upstream stream stays open, however long the build takes', async () => {
    const { relaying, other, clock, calls } = createCluster();
    const followUp = await relaying.post('/agent/generate/p-alice');
    for (let step = 0; step < 6; step++) {
      clock.now += relayLeaseMs / 3;
      relaying.timers.fireAll();
      await expect.poll(() => calls.filter((call) => call === 'hold p-alice').length).toBe(step + 2);
      expect(await other.status()).toBe('generating');
    }
    await relaying.endUpstream(relaying.streams[0]!);
    expect(await other.status()).toBe('ready');
    await followUp.body?.cancel();
  });

  it('answers as the upstream says once a crashed instance’s lease has run out', async () => {
    const { relaying, other, clock } = createCluster();
    const followUp = await relaying.post('/agent/generate/p-alice');
    expect(await other.status()).toBe('generating');
    // The relaying instance is gone: its renewal never runs, its upstream never ends.
    clock.now += relayLeaseMs - 1;
    expect(await other.status()).toBe('generating');
    clock.now += 1;
    expect(await other.status()).toBe('ready');
    await followUp.body?.cancel();
  });

  it('reads the lease once per upstream answer it keeps (for the summary), and not for one it would not change', async () => {
    const { relaying, other, calls } = createCluster();
    const followUp = await relaying.post('/agent/generate/p-alice');
    const reads = () => calls.filter((call) => call.startsWith('read')).length;
    other.statuses['p-alice'] = 'generating';
    expect(await other.status()).toBe('generating');
    expect(reads()).toBe(1);
    other.codes['p-alice'] = 500;
    await other.proxy(new Request(`${appOrigin}${basePath}/agent/project/p-alice`));
    expect(reads()).toBe(1);
    await relaying.endUpstream(relaying.streams[0]!);
    await followUp.body?.cancel();
  });

  it('answers as the upstream says when the store cannot read leases, and logs it for the operator', async () => {
    const { relaying, other, failing } = createCluster();
    const followUp = await relaying.post('/agent/generate/p-alice');
    failing.read = true;
    expect(await other.status()).toBe('ready');
    expect(other.logs).toContainEqual(
      expect.objectContaining({ level: 'error', event: 'internal_error', route: 'getProject', projectId: 'p-alice' }),
    );
    // The relaying instance knows its own relay without the store.
    expect(await relaying.status()).toBe('generating');
    await relaying.endUpstream(relaying.streams[0]!);
    await followUp.body?.cancel();
  });

  it('relays on when the store cannot write the lease, and logs it for the operator', async () => {
    const { relaying, other, failing } = createCluster();
    failing.hold = true;
    const followUp = await relaying.post('/agent/generate/p-alice');
    const browser = createBodyReader(followUp.body);
    await expect
      .poll(() => relaying.logs.some((entry) => entry.event === 'internal_error' && entry.route === 'followUp'))
      .toBe(true);
    relaying.streams[0]!.event({ type: 'file_created', path: 'src/App.tsx' });
    expect(await browser.next()).toContain('file_created');
    expect(await other.status()).toBe('ready');
    expect(await relaying.status()).toBe('generating');
    await relaying.endUpstream(relaying.streams[0]!);
    await browser.cancel();
  });

  it('holds the project while either of two instances relays a build of it', async () => {
    const { relaying, other, holders } = createCluster();
    const first = await relaying.post('/agent/generate/p-alice');
    const second = await other.post('/agent/generate/p-alice');
    expect(holders()).toHaveLength(2);
    await other.endUpstream(other.streams[0]!);
    expect(await other.status()).toBe('generating');
    await relaying.endUpstream(relaying.streams[0]!);
    expect(await other.status()).toBe('ready');
    await first.body?.cancel();
    await second.body?.cancel();
  });

  it('drains once the store has the lease back, so a process that exits then leaves none behind', async () => {
    const { relaying, gate, holders } = createCluster();
    const followUp = await relaying.post('/agent/generate/p-alice');
    let openGate!: () => void;
    gate.release = new Promise((resolve) => (openGate = resolve));
    let drained = false;
    const draining = relaying.proxy.drain().then(() => (drained = true));
    await expect.poll(() => relaying.logs.some((entry) => entry.event === 'stream_closed')).toBe(true);
    expect(drained).toBe(false);
    openGate();
    await draining;
    expect(holders()).toEqual([]);
    await followUp.body?.cancel();
  });

  it('takes no lease for a project another end user’s generate names', async () => {
    const { store, holders } = createLeasingStore();
    const bobs = createRelayingProxy({
      store,
      authorize: () => ({ externalUserId: 'bob' }),
    });
    const response = await bobs.post('/agent/generate');
    const browser = createBodyReader(response.body);
    bobs.streams[0]!.event({ type: 'project_created', project_id: 'p-alice' });
    await expect.poll(() => bobs.logs.some((entry) => entry.event === 'upstream_refused')).toBe(true);
    expect(holders()).toEqual([]);
    await browser.cancel();
  });
});
