/**
 * The browser's store and the proxy together, while a follow-up is on its way to the upstream: a page that resumes
 * the project without an event id (a record saved before ids were kept, another tab) is answered "nothing yet" rather
 * than the build before the change, polls, and follows the change live once the proxy records it, ending with the
 * change's files, never the old build's.
 */
import { describe, expect, it } from 'vitest';
import { createAgentClient, createAgentStore, createHttpTransport, defaultStorageKey } from 'agent-embed/core';
import { appOrigin, basePath } from './recording-helpers.js';
import { createRelayingProxy } from './relaying-proxy.js';

describe('a page resuming a project while a follow-up is on its way to the upstream', () => {
  it('is not shown the build before the change, and follows the change once the proxy records it', async () => {
    const proxied = createRelayingProxy();
    // The build before the change, recorded and ended.
    const before = await proxied.post('/agent/generate/p-alice');
    proxied.streams[0]!.event({ type: 'file_created', path: 'src/Old.tsx', action: 'created' });
    await proxied.endUpstream(proxied.streams[0]!);
    await before.body?.cancel();

    // The change reaches the upstream, which has not answered yet.
    const open = proxied.gatePost();
    const change = proxied.post('/agent/generate/p-alice');
    await proxied.untilPosted(2);

    // A page whose saved record says the project builds, with no event id: it replays "the latest generation".
    const saved = JSON.stringify({ projectId: 'p-alice', status: 'generating', kind: 'followUp', mode: 'build' });
    const storage = new Map([[defaultStorageKey, saved]]);
    const client = createAgentClient({
      transport: createHttpTransport({
        baseUrl: `${appOrigin}${basePath}`,
        fetch: (input, init) => proxied.proxy(new Request(input, init)),
      }),
    });
    const store = createAgentStore({
      client,
      storage: {
        getItem: (key) => storage.get(key) ?? null,
        setItem: (key, value) => void storage.set(key, value),
        removeItem: (key) => void storage.delete(key),
      },
      pollIntervalMs: 100,
    });
    const applied: string[] = [];
    store.subscribe((state) => {
      for (const file of state.generations['p-alice']?.files ?? [])
        if (!applied.includes(file.path)) applied.push(file.path);
    });
    store.getState().resume();
    // Nothing recorded yet: the page polls, and the proxy says the project builds.
    await expect.poll(() => proxied.upstream.calls.filter((call) => call.method === 'GET').length).toBeGreaterThan(0);
    expect(store.getState().generations['p-alice']?.status).toBe('recovering');

    open();
    const answered = await change;
    const stream = proxied.streams.at(-1)!;
    stream.event({ type: 'file_created', path: 'src/New.tsx', action: 'created' });
    await expect
      .poll(() => store.getState().generations['p-alice']?.files.map((file) => file.path))
      .toEqual(['src/New.tsx']);
    expect(store.getState().generations['p-alice']?.status).toBe('generating');
    await proxied.endUpstream(stream);
    await answered.body?.cancel();
    await expect.poll(() => store.getState().generations['p-alice']?.status).toBe('completed');
    expect(store.getState().generations['p-alice']?.files.map((file) => file.path)).toEqual(['src/New.tsx']);
    expect(applied).not.toContain('src/Old.tsx');
    store.destroy();
  });
});
