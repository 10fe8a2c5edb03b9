/**
 * Each event stream the proxy holds for a browser is bounded (its buffer, its time), and so is their number: one end
 * user holds at most `maxStreamsPerUser` at once (generate and follow-up streams, and the events route's followers).
 * A hostile browser that opens hundreds of unread followers cannot make the proxy hold a buffer for each; one more is
 * refused with 429 before the quota, the budget or the upstream is spent, and a stream that ends gives its place back.
 */
import { describe, expect, it } from 'vitest';
import { createMemoryProxyStore, type AgentProxyOptions, type AgentProxyUser } from 'agent-embed/server';
import {
  createBodyReader,
  createManualTimers,
  createScriptedProxy,
  createScriptedStream,
  type UpstreamCall,
} from './scripted-upstream.js';

const appOrigin = 'https://app.example.test';
const basePath = '/api/agent';
const users: Record<string, AgentProxyUser> = { alice: { externalUserId: 'alice' }, bob: { externalUserId: 'bob' } };
const prompt = 'A recipe box with tags please';

const call = (user: string, method: string, path: string, body?: unknown, signal?: AbortSignal) =>
  new Request(`${appOrigin}${basePath}${path}`, {
    method,
    headers: { 'content-type': 'application/json', 'x-user': user },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    ...(signal === undefined ? {} : { signal }),
  });

/** A proxy whose every generate gets an upstream stream of its own, which the test writes and closes. */
function setup(options: Partial<AgentProxyOptions> = {}) {
  const streams: ReturnType<typeof createScriptedStream>[] = [];
  const store = createMemoryProxyStore({ owners: { 'p-alice': 'alice', 'p-bob': 'bob' } });
  const proxied = createScriptedProxy(
    (sent: UpstreamCall) => {
      const stream = createScriptedStream();
      streams.push(stream);
      if (sent.url.pathname.endsWith('/agent/generate'))
        stream.event({ type: 'project_created', project_id: `p-${streams.length}`, app_url: 'https://p.example' });
      return stream.response();
    },
    {
      basePath,
      authorize: (request) => users[request.headers.get('x-user') ?? ''] ?? null,
      store,
      appUrl: appOrigin,
      timers: createManualTimers(),
      heartbeatMs: 0,
      maxStreamsPerUser: 2,
      ...options,
    },
  );
  return { ...proxied, streams, store };
}

const generate = (proxy: (request: Request) => Promise<Response>, user: string, signal?: AbortSignal) =>
  proxy(call(user, 'POST', '/agent/generate', { prompt }, signal));

describe('an end user’s open streams are bounded', () => {
  it('refuses one more generate with 429 before the upstream, and not another user’s', async () => {
    const { proxy, upstream, streams } = setup();
    const open = [await generate(proxy, 'alice'), await generate(proxy, 'alice')];
    expect(open.map((response) => response.status)).toEqual([200, 200]);

    const refused = await generate(proxy, 'alice');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(await refused.json()).toEqual({
      status: false,
      message: 'Too many builds are being followed at once. Close another tab and try again.',
    });
    expect(upstream.calls).toHaveLength(2);
    expect((await generate(proxy, 'bob')).status).toBe(200);

    // A stream that ends gives its place back.
    streams[0]?.event({ type: 'stream_end', project_id: 'p-1', app_url: 'https://p.example' });
    streams[0]?.close();
    await createBodyReader(open[0]?.body ?? null).rest();
    await expect.poll(async () => (await generate(proxy, 'alice')).status).toBe(200);
  });

  it('lets no more than the bound through when requests arrive at once', async () => {
    const { proxy, upstream } = setup();
    const answers = await Promise.all(Array.from({ length: 6 }, () => generate(proxy, 'alice')));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 200, 429, 429, 429, 429]);
    expect(upstream.calls).toHaveLength(2);
  });

  it('spends none of the user’s quota on a refused stream', async () => {
    const { proxy } = setup({ quota: { generations: 5, per: 'day' } });
    await generate(proxy, 'alice');
    await generate(proxy, 'alice');
    expect((await generate(proxy, 'alice')).status).toBe(429);
    const usage = (await (await proxy(call('alice', 'GET', '/usage'))).json()) as { used: number };
    expect(usage.used).toBe(2);
  });

  it('counts followers of the events route, and gives a place back when a browser leaves', async () => {
    const { proxy } = setup();
    const building = await proxy(call('alice', 'POST', '/agent/generate/p-alice', { prompt }));
    expect(building.status).toBe(200);
    const leaving = new AbortController();
    const follower = await proxy(call('alice', 'GET', '/projects/p-alice/events', undefined, leaving.signal));
    expect(follower.status).toBe(200);

    const refused = await proxy(call('alice', 'GET', '/projects/p-alice/events'));
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('5');

    leaving.abort();
    await expect.poll(async () => (await proxy(call('alice', 'GET', '/projects/p-alice/events'))).status).toBe(200);
  });

  it('gives the place back when no stream starts: a 204, a refused owner, an upstream error', async () => {
    const { proxy } = setup({ maxStreamsPerUser: 1 });
    // Nothing recorded for Bob's project yet: 204, ten times over.
    for (let attempt = 0; attempt < 10; attempt++)
      expect((await proxy(call('bob', 'GET', '/projects/p-bob/events'))).status).toBe(204);
    // Alice following Bob's project: 404, ten times over.
    for (let attempt = 0; attempt < 10; attempt++)
      expect((await proxy(call('alice', 'GET', '/projects/p-bob/events'))).status).toBe(404);
    // Then each may still open one.
    expect((await generate(proxy, 'alice')).status).toBe(200);
    expect((await generate(proxy, 'bob')).status).toBe(200);
  });

  it('gives the place back when the browser leaves while the store is read', async () => {
    const inner = createMemoryProxyStore({ owners: { 'p-alice': 'alice' } });
    const generation = await inner.beginGeneration('p-alice', 'alice', {
      kind: 'generate',
      prompt,
      mode: 'build',
      at: new Date(0).toISOString(),
      outcome: null,
    });
    await inner.appendEvent('p-alice', generation, { id: 1, data: '{"type":"tool_progress","message":"Working"}' });
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let reads = 0;
    const store = {
      ...inner,
      readEvents: async (...args: Parameters<typeof inner.readEvents>) => {
        reads++;
        await gate;
        return inner.readEvents(...args);
      },
    };
    const { proxy } = setup({ store, maxStreamsPerUser: 1 });
    const leaving = new AbortController();
    const follower = proxy(call('alice', 'GET', '/projects/p-alice/events', undefined, leaving.signal));
    await expect.poll(() => reads).toBe(1);
    leaving.abort();
    open();
    await follower;
    await expect.poll(async () => (await proxy(call('alice', 'GET', '/projects/p-alice/events'))).status).toBe(200);
  });

  it('has no bound with maxStreamsPerUser 0', async () => {
    const { proxy } = setup({ maxStreamsPerUser: 0 });
    const answers = await Promise.all(Array.from({ length: 12 }, () => generate(proxy, 'alice')));
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
  });
});
