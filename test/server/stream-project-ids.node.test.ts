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

/** Alice's proxy over a stream the test writes (the status answer names p-alice), with these owners. */
function aliceProxy(owners: Record<string, string>) {
  const stream = createScriptedStream();
  const store = createMemoryProxyStore({ owners });
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
  /** Posts to `path`, writes `events` upstream and ends it: the events the browser got, as objects. */
  const relay = async (path: string, events: object[]) => {
    const response = await proxy(call('POST', path, { prompt: 'A recipe box with tags please' }));
    expect(response.status).toBe(200);
    const text = createBodyReader(response.body).rest();
    for (const event of events) stream.event(event);
    stream.close();
    return eventsOf(await text).map(({ data }) => JSON.parse(data) as unknown);
  };
  return { proxy, store, relay };
}

const bobEnd = { type: 'stream_end', project_id: 'p-bob', app_url: 'https://p-bob.example/' };

describe('a follow-up stream naming another project than the path’s', () => {
  it.each([
    ['project_created', { type: 'project_created', project_id: 'p-bob', app_url: 'https://p-bob.example/' }],
    ['stream_end', bobEnd],
  ])('does not reach Alice’s browser with the other project’s id (%s)', async (_, event) => {
    const { proxy, relay } = aliceProxy({ 'p-alice': 'alice', 'p-bob': 'bob' });
    const relayed = await relay('/agent/generate/p-alice', [{ type: 'file_created', path: 'src/Dark.tsx' }, event]);
    const replayed = eventsOf(await (await proxy(call('GET', '/projects/p-alice/events?after=0'))).text()).map(
      ({ data }) => JSON.parse(data) as unknown,
    );
    // Alice's build is relayed (the file), but nothing in it names Bob's project as the project of her build.
    for (const events of [relayed, replayed])
      expect(events).toEqual([
        { type: 'file_created', path: 'src/Dark.tsx' },
        { ...event, project_id: 'p-alice', app_url: null },
      ]);
  });

  it('a generate’s later events naming another project than the one recorded from its project_created', async () => {
    const { store, relay } = aliceProxy({ 'p-bob': 'bob' });
    const relayed = await relay('/agent/generate', [{ type: 'project_created', project_id: 'p-new' }, bobEnd]);
    expect(await store.getProjectOwner('p-new')).toBe('alice');
    expect(relayed).toEqual([
      { type: 'project_created', project_id: 'p-new' },
      { type: 'stream_end', project_id: 'p-new', app_url: null },
    ]);
  });

  it('a generate’s events name no project before its project_created is recorded as the user’s', async () => {
    const { relay } = aliceProxy({ 'p-bob': 'bob' });
    const relayed = await relay('/agent/generate', [{ type: 'file_created', path: 'src/App.tsx' }, bobEnd]);
    expect(relayed).toEqual([
      { type: 'file_created', path: 'src/App.tsx' },
      { type: 'stream_end', project_id: null, app_url: null },
    ]);
  });
});
