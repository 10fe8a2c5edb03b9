/**
 * The project a relayed stream names is the proxy's to decide: a follow-up's is its path's, a generate's the one its
 * `project_created` recorded as the user's. A broken or hostile upstream whose events name another project (another
 * end user's) gets the generation's own id in their place, and no address of that other project, live and in the
 * replay; once it named another user's project, no event names any (the status route and the actions' answers already
 * refuse or drop such an id).
 */
import { describe, expect, it } from 'vitest';
import { createMemoryProxyStore } from 'agent-embed/server';
import {
  createBodyReader,
  createManualTimers,
  createScriptedProxy,
  createScriptedStream,
  eventsOf,
  json,
} from './scripted-upstream.js';

const appOrigin = 'https://app.example.test';
const basePath = '/api/agent';

const call = (method: string, path: string, body?: unknown) =>
  new Request(`${appOrigin}${basePath}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

describe('a follow-up stream naming another project than the path’s', () => {
  it.each([
    ['project_created', { type: 'project_created', project_id: 'p-bob', app_url: 'https://p-bob.example/' }],
    ['stream_end', { type: 'stream_end', project_id: 'p-bob', app_url: 'https://p-bob.example/' }],
  ])('does not reach Alice’s browser with the other project’s id (%s)', async (_, event) => {
    const stream = createScriptedStream();
    const store = createMemoryProxyStore({ owners: { 'p-alice': 'alice', 'p-bob': 'bob' } });
    const { proxy } = createScriptedProxy(
      (upstreamCall) =>
        upstreamCall.method === 'POST' ? stream.response() : json({ status: true, project_id: 'p-alice' }),
      {
        basePath,
        authorize: () => ({ externalUserId: 'alice' }),
        appUrl: appOrigin,
        timers: createManualTimers(),
        heartbeatMs: 0,
        store,
      },
    );
    const response = await proxy(call('POST', '/agent/generate/p-alice', { prompt: 'Add a dark mode toggle please' }));
    expect(response.status).toBe(200);
    const text = createBodyReader(response.body).rest();
    stream.event({ type: 'file_created', path: 'src/Dark.tsx' });
    stream.event(event);
    stream.close();
    const relayed = eventsOf(await text);
    const replayed = eventsOf(await (await proxy(call('GET', '/projects/p-alice/events?after=0'))).text());
    // Alice's build was relayed (the file), but nothing in it names Bob's project as the project of her build.
    expect(relayed.map(({ data }) => data).join('\n')).toContain('src/Dark.tsx');
    for (const events of [relayed, replayed]) {
      const text = events.map(({ data }) => data).join('\n');
      expect(text).not.toContain('p-bob');
      expect(JSON.parse(events.at(-1)?.data ?? '{}')).toEqual({ ...event, project_id: 'p-alice', app_url: null });
    }
  });

  it('a generate’s later events naming another project than the one recorded from its project_created', async () => {
    const stream = createScriptedStream();
    const store = createMemoryProxyStore({ owners: { 'p-bob': 'bob' } });
    const { proxy } = createScriptedProxy(() => stream.response(), {
      basePath,
      authorize: () => ({ externalUserId: 'alice' }),
      appUrl: appOrigin,
      timers: createManualTimers(),
      heartbeatMs: 0,
      store,
    });
    const response = await proxy(call('POST', '/agent/generate', { prompt: 'A recipe box with tags please' }));
    const text = createBodyReader(response.body).rest();
    stream.event({ type: 'project_created', project_id: 'p-new' });
    stream.event({ type: 'stream_end', project_id: 'p-bob', app_url: 'https://p-bob.example/' });
    stream.close();
    const relayed = eventsOf(await text)
      .map(({ data }) => data)
      .join('\n');
    expect(await store.getProjectOwner('p-new')).toBe('alice');
    expect(relayed).not.toContain('p-bob');
  });

  it('a generate’s events name no project before its project_created is recorded as the user’s', async () => {
    const stream = createScriptedStream();
    const store = createMemoryProxyStore({ owners: { 'p-bob': 'bob' } });
    const { proxy } = createScriptedProxy(() => stream.response(), {
      basePath,
      authorize: () => ({ externalUserId: 'alice' }),
      appUrl: appOrigin,
      timers: createManualTimers(),
      heartbeatMs: 0,
      store,
    });
    const response = await proxy(call('POST', '/agent/generate', { prompt: 'A recipe box with tags please' }));
    const text = createBodyReader(response.body).rest();
    stream.event({ type: 'file_created', path: 'src/App.tsx' });
    stream.event({ type: 'stream_end', project_id: 'p-bob', app_url: 'https://p-bob.example/' });
    stream.close();
    const relayed = eventsOf(await text).map(({ data }) => JSON.parse(data) as unknown);
    expect(relayed).toEqual([
      { type: 'file_created', path: 'src/App.tsx' },
      { type: 'stream_end', project_id: null, app_url: null },
    ]);
  });
});
