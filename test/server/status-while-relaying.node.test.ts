/**
 * While this proxy relays a build of a project (the upstream stream is open), its status route answers a terminal
 * status of that project as `generating`: the upstream's first status after a follow-up starts may still say
 * `ready`, and a browser that stopped watching would settle the build as completed while it goes on.
 */
import { describe, expect, it } from 'vitest';
import { createMemoryProxyStore, type ProjectPatch, type ProxyStore } from 'agent-embed/server';
import type { ProjectListBody } from 'agent-embed/core';
import { createBodyReader } from './scripted-upstream.js';
import { appOrigin, basePath } from './recording-helpers.js';
import { createRelayingProxy } from './relaying-proxy.js';

describe('the status route while this proxy relays a build of the project', () => {
  it('answers a follow-up’s project as generating while its upstream stream is open, then as the upstream says', async () => {
    const { post, status, statusText, streams, endUpstream } = createRelayingProxy();
    expect(await status()).toBe('ready');
    const followUp = await post('/agent/generate/p-alice');
    expect(followUp.status).toBe(200);
    const [stream] = streams;
    const midBuild = await statusText();
    expect(JSON.parse(midBuild)).toMatchObject({ project_status: 'generating' });
    stream!.event({ type: 'file_created', path: 'src/App.tsx' });
    expect(await status()).toBe('generating');

    await endUpstream(stream!);
    const after = await statusText();
    expect(JSON.parse(after)).toMatchObject({ project_status: 'ready' });
    // Only project_status is rewritten: every other field is the allow-listed answer's, in its place.
    expect(midBuild).toBe(JSON.stringify({ ...JSON.parse(after), project_status: 'generating' }));
    await followUp.body?.cancel();
  });

  it.each(['failed', 'credits_exhausted'])('answers an upstream %s as generating mid-build', async (terminal) => {
    const { post, status, statuses, streams, endUpstream } = createRelayingProxy();
    statuses['p-alice'] = terminal;
    const followUp = await post('/agent/generate/p-alice');
    expect(await status()).toBe('generating');
    await endUpstream(streams[0]!);
    expect(await status()).toBe(terminal);
    await followUp.body?.cancel();
  });

  it.each([
    ['the request is aborted', 'abort'],
    ['the body is cancelled', 'cancel'],
  ] as const)(
    'still answers generating after the browser stopped watching (%s), until the upstream ends',
    async (_, how) => {
      const { post, status, streams, logs, endUpstream } = createRelayingProxy();
      const stopWatching = new AbortController();
      const followUp = await post('/agent/generate/p-alice', stopWatching.signal);
      const [stream] = streams;
      stream!.event({ type: 'file_created', path: 'src/App.tsx' });
      if (how === 'abort') stopWatching.abort();
      else await followUp.body?.cancel();
      await expect.poll(() => logs.some((entry) => entry.event === 'browser_disconnected')).toBe(true);
      expect(stream!.state.cancelled).toBe(false);

      expect(await status()).toBe('generating');
      stream!.event({ type: 'file_created', path: 'src/Theme.tsx' });
      expect(await status()).toBe('generating');
      await endUpstream(stream!);
      expect(await status()).toBe('ready');
    },
  );

  it('changes nothing for a generate before project_created, and answers generating after it while open', async () => {
    const { post, status, streams, endUpstream } = createRelayingProxy();
    const generate = await post('/agent/generate');
    expect(generate.status).toBe(200);
    const [stream] = streams;
    const browser = createBodyReader(generate.body);
    stream!.event({ type: 'container_progress', message: 'Provisioning', percentage: 10 });
    expect(await status('p-new')).toBe('ready');

    stream!.event({ type: 'project_created', project_id: 'p-new' });
    let seen = '';
    while (!seen.includes('project_created')) seen += (await browser.next()) ?? '';
    expect(await status('p-new')).toBe('generating');
    expect(await status('p-alice')).toBe('ready');

    await endUpstream(stream!, 'p-new');
    expect(await status('p-new')).toBe('ready');
    await browser.cancel();
  });

  it('rewrites a cached status on its way out, and the cache keeps the upstream’s own answer', async () => {
    const { post, status, statusText, streams, upstream, endUpstream, logs } = createRelayingProxy({
      statusCacheMs: 60_000,
    });
    const followUp = await post('/agent/generate/p-alice');
    const statusCalls = () => upstream.calls.filter((call) => call.method === 'GET').length;
    expect(await status()).toBe('generating');
    expect(await status()).toBe('generating');
    expect(statusCalls()).toBe(1);
    expect(logs.filter((entry) => entry.route === 'getProject').map((entry) => entry.cache)).toEqual(['miss', 'hit']);

    await endUpstream(streams[0]!);
    // The clock stands still: the cached answer is still fresh, and it is the upstream's.
    expect(JSON.parse(await statusText())).toMatchObject({
      project_status: 'ready',
      app_url: 'https://p-alice.example',
    });
    expect(statusCalls()).toBe(1);
    await followUp.body?.cancel();
  });

  it('rewrites a coalesced status answer too', async () => {
    const { post, status, streams, endUpstream, logs } = createRelayingProxy();
    const followUp = await post('/agent/generate/p-alice');
    expect(await Promise.all([status(), status(), status()])).toEqual(['generating', 'generating', 'generating']);
    expect(logs.filter((entry) => entry.route === 'getProject').map((entry) => entry.cache)).toContain('coalesced');
    await endUpstream(streams[0]!);
    await followUp.body?.cancel();
  });

  it('leaves another project, and a status that is not terminal, as the upstream says', async () => {
    const { post, status, statuses, streams, endUpstream } = createRelayingProxy();
    const followUp = await post('/agent/generate/p-alice');
    expect(await status('p-other')).toBe('ready');
    for (const building of ['provisioning', 'generating', 'deploying']) {
      statuses['p-alice'] = building;
      expect(await status()).toBe(building);
    }
    statuses['p-alice'] = 'ready';
    expect(await status()).toBe('generating');
    await endUpstream(streams[0]!);
    await followUp.body?.cancel();
  });

  it('answers any success of the upstream (a 202 "ready") as generating mid-build', async () => {
    const { proxy, post, codes, streams, endUpstream } = createRelayingProxy();
    codes['p-alice'] = 202;
    const followUp = await post('/agent/generate/p-alice');
    const response = await proxy(new Request(`${appOrigin}${basePath}/agent/project/p-alice`));
    expect(response.status).toBe(202);
    expect(await response.json()).toMatchObject({ project_status: 'generating' });
    await endUpstream(streams[0]!);
    await followUp.body?.cancel();
  });

  it('leaves the summary’s status to the recorder while it relays: a poll then notes the name and address only', async () => {
    const memory = createMemoryProxyStore({ owners: { 'p-alice': 'alice' } });
    const patches: ProjectPatch[] = [];
    const store: ProxyStore = {
      ...memory,
      noteProject: (projectId, userId, patch, at) => {
        patches.push(patch);
        return memory.noteProject(projectId, userId, patch, at);
      },
    };
    const { post, status, streams, endUpstream } = createRelayingProxy({ store });
    // The status route's patches (the recorder's own carry no name).
    const polled = () => patches.filter((patch) => 'name' in patch);
    const followUp = await post('/agent/generate/p-alice');
    const before = polled().length;
    expect(await status()).toBe('generating');
    // A poll noted late (a slow store) would otherwise put "generating" back over the recorder's end, or the old
    // "ready" over its start.
    expect(polled().slice(before)).toEqual([{ name: 'App', app_url: 'https://p-alice.example' }]);
    await endUpstream(streams[0]!);
    const after = polled().length;
    expect(await status()).toBe('ready');
    expect(polled().slice(after)).toEqual([
      { name: 'App', app_url: 'https://p-alice.example', project_status: 'ready' },
    ]);
    await followUp.body?.cancel();
  });

  it('holds nothing for another end user: a generate whose upstream names alice’s project leaves it as it was', async () => {
    const { proxy, status, streams, logs } = createRelayingProxy({
      authorize: (request) => ({ externalUserId: request.headers.get('x-test-user') ?? 'alice' }),
    });
    const bobs = await proxy(
      new Request(`${appOrigin}${basePath}/agent/generate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-test-user': 'bob' },
        body: JSON.stringify({ prompt: 'A booking site for a yoga studio' }),
      }),
    );
    expect(bobs.status).toBe(200);
    const browser = createBodyReader(bobs.body);
    streams[0]!.event({ type: 'project_created', project_id: 'p-alice' });
    await expect.poll(() => logs.some((entry) => entry.event === 'upstream_refused')).toBe(true);
    expect(await status('p-alice')).toBe('ready');
    await browser.cancel();
  });

  it('passes a broken upstream’s odd success bodies as the allow-list built them while it relays', async () => {
    const { post, statusText, bodies, streams, endUpstream } = createRelayingProxy();
    const followUp = await post('/agent/generate/p-alice');
    const base = { status: true, project_id: 'p-alice', app_url: 'https://p-alice.example', name: 'App' };
    for (const odd of [base, { ...base, project_status: 7 }, { ...base, project_status: null }]) {
      bodies['p-alice'] = odd;
      expect(JSON.parse(await statusText())).not.toHaveProperty('project_status', 'generating');
    }
    await endUpstream(streams[0]!);
    await followUp.body?.cancel();
  });

  it('holds the project while any of two overlapping relays of it is open', async () => {
    const { post, status, streams, endUpstream } = createRelayingProxy();
    const first = await post('/agent/generate/p-alice');
    const second = await post('/agent/generate/p-alice');
    expect(await status()).toBe('generating');
    await endUpstream(streams[0]!);
    expect(await status()).toBe('generating');
    await endUpstream(streams[1]!);
    expect(await status()).toBe('ready');
    await first.body?.cancel();
    await second.body?.cancel();
  });

  it('knows only its own relays: another instance on the same store answers as the upstream says', async () => {
    const store = createMemoryProxyStore({ owners: { 'p-alice': 'alice' } });
    const relaying = createRelayingProxy({ store });
    const other = createRelayingProxy({ store });
    const followUp = await relaying.post('/agent/generate/p-alice');
    expect(await relaying.status()).toBe('generating');
    expect(await other.status()).toBe('ready');
    await relaying.endUpstream(relaying.streams[0]!);
    await followUp.body?.cancel();
  });

  it('keeps the project list from saying ready mid-build after a status poll', async () => {
    const { proxy, post, status, streams, endUpstream } = createRelayingProxy();
    const listed = async () => {
      const response = await proxy(new Request(`${appOrigin}${basePath}/projects`));
      const { projects } = (await response.json()) as ProjectListBody;
      return projects.find((project) => project.project_id === 'p-alice')?.project_status;
    };
    const followUp = await post('/agent/generate/p-alice');
    expect(await status()).toBe('generating');
    expect(await listed()).toBe('generating');

    await endUpstream(streams[0]!);
    expect(await status()).toBe('ready');
    expect(await listed()).toBe('ready');
    await followUp.body?.cancel();
  });
});
