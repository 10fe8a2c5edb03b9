/**
 * The proxy stays bounded in time and memory whatever the upstream does: deadlines on JSON bodies (every
 * coalesced waiter included), successes without a body, a capped Retry-After, a stall limit that pings do
 * not reset, backpressure for slow readers, a 204 once a build has been read to its end, and a drain that
 * hands over followers of builds relayed elsewhere.
 */
import { EventSource } from 'eventsource';
import { describe, expect, it } from 'vitest';
import { createAgentClient, createHttpTransport } from 'agent-embed/core';
import {
  createMemoryProxyStore,
  type AgentProxyOptions,
  type AgentProxyUser,
  type ProxyStore,
} from 'agent-embed/server';
import {
  createBodyReader,
  createManualTimers,
  createScriptedStream,
  json,
  specAnswer,
  type UpstreamCall,
  createScriptedProxy,
} from './scripted-upstream.js';

const appOrigin = 'https://app.example.test';
const basePath = '/api/agent';
const alice: AgentProxyUser = { externalUserId: 'alice', name: 'Alice', email: 'alice@example.test' };

function setup(answer: (call: UpstreamCall) => Response | Promise<Response>, options: Partial<AgentProxyOptions> = {}) {
  return createScriptedProxy(answer, {
    basePath,
    authorize: () => alice,
    store: createMemoryProxyStore({ owners: { 'p-alice': 'alice' } }),
    appUrl: appOrigin,
    ...options,
  });
}

const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  new Request(`${appOrigin}${basePath}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

/** A JSON body that sends its first bytes and then nothing. */
function drippingBody(): { response: Response; cancelled: () => boolean } {
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('{"status":true,'));
    },
    cancel() {
      cancelled = true;
    },
  });
  return {
    response: new Response(body, { headers: { 'content-type': 'application/json' } }),
    cancelled: () => cancelled,
  };
}

describe('upstream JSON bodies', () => {
  it('ends a drip-fed status poll in 504 for the poll and every waiter coalesced onto it', async () => {
    const timers = createManualTimers();
    const dripping = drippingBody();
    const { proxy, upstream } = setup(() => dripping.response, { timers, statusCacheMs: 0 });
    const polls = [1, 2, 3].map(() => proxy(call('GET', '/agent/project/p-alice')));
    await expect.poll(() => upstream.calls.length).toBe(1);
    // The body's deadlines are the only timers left once the headers have arrived.
    await expect.poll(() => timers.pending()).toBeGreaterThan(0);
    timers.fireAll();
    for (const response of await Promise.all(polls)) {
      expect(response.status).toBe(504);
      expect(await response.json()).toEqual({ status: false, message: 'The Agent API did not answer in time.' });
    }
    expect(upstream.calls).toHaveLength(1);
    expect(dripping.cancelled()).toBe(true);
  });

  it('keeps its headers deadline with a fetch that ignores the abort, and cancels its late answer unread', async () => {
    const timers = createManualTimers();
    let answer: ((response: Response) => void) | undefined;
    const late = drippingBody();
    const { proxy } = setup(() => late.response, {
      timers,
      statusCacheMs: 0,
      // An agency's own fetch that never looks at its signal.
      fetch: () => new Promise<Response>((resolve) => (answer = resolve)),
    });
    const poll = proxy(call('GET', '/agent/project/p-alice'));
    await expect.poll(() => timers.pending()).toBeGreaterThan(0);
    timers.fireAll();
    expect((await poll).status).toBe(504);
    answer?.(late.response);
    await expect.poll(() => late.cancelled()).toBe(true);
  });

  it('answers 502, not 500, to a body cut halfway', async () => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"success":true,"data":['));
        controller.error(new Error('connection reset'));
      },
    });
    const { proxy } = setup(() => new Response(body, { headers: { 'content-type': 'application/json' } }));
    const response = await proxy(call('GET', '/subscription-plans'));
    expect(response.status).toBe(502);
  });
});

describe('a success without a body', () => {
  const cases: [string, string, Record<string, unknown>][] = [
    ['deploy', '/deployments/vercel/project/p-alice/deploy', {}],
    ['push', '/codehost/project/p-alice/push', { repo_name: 'site' }],
    ['link', '/codehost/project/p-alice/link', { repo_owner: 'o', repo_name: 'site' }],
  ];
  it.each(cases)('%s answered 204 or an empty 200 is a success, never a 502', async (_, path, body) => {
    for (const empty of [() => new Response(null, { status: 204 }), () => new Response('', { status: 200 })]) {
      const { proxy } = setup(empty);
      const response = await proxy(call('POST', path, body));
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ success: true, message: '', data: null, errors: null });
    }
  });

  it.each(cases)(
    '%s answered with an envelope without data (null, absent, [] from PHP) is a success, never a 502',
    async (_, path, body) => {
      for (const answer of [
        { success: true, message: 'Deployment queued.', data: null, errors: null },
        { success: true, message: 'Deployment queued.' },
        { success: true, message: 'Deployment queued.', data: [], errors: null },
      ]) {
        const { proxy, upstream } = setup(() => json(answer));
        const response = await proxy(call('POST', path, body));
        expect(upstream.calls).toHaveLength(1);
        expect(response.status).toBe(200);
        expect(await response.json()).toEqual({
          success: true,
          message: 'Deployment queued.',
          data: null,
          errors: null,
        });
      }
      // An envelope that says it failed is a failure with its message (the client reads `success: false`).
      const failed = setup(() => json({ success: false, message: 'No.', data: null, extra: 'dropped' }));
      const refused = await failed.proxy(call('POST', path, body));
      expect(refused.status).toBe(200);
      expect(await refused.json()).toEqual({ success: false, message: 'No.', data: null });
      // One whose data is not the route's is not a success either.
      const { proxy } = setup(() => json({ success: true, message: 'x', data: ['surprise'] }));
      expect((await proxy(call('POST', path, body))).status).toBe(502);
    },
  );

  it('resolves the client with what is known, so the screen says it happened', async () => {
    const { proxy } = setup(() => new Response(null, { status: 204 }));
    const client = createAgentClient({
      transport: createHttpTransport({
        baseUrl: `${appOrigin}${basePath}`,
        fetch: (input, init) => proxy(new Request(input, init)),
      }),
    });
    await expect(client.deployments.deploy('vercel', 'p-alice')).resolves.toMatchObject({ status: 'queued' });
    await expect(
      client.codehost.push('p-alice', { external_user_id: 'alice', repo_name: 'site', branch: 'main' }),
    ).resolves.toMatchObject({ branch: 'main', repo_created: false });
  });

  it('still refuses an empty answer where data is needed (a listing)', async () => {
    const { proxy } = setup(() => new Response(null, { status: 204 }));
    expect((await proxy(call('GET', '/subscription-plans'))).status).toBe(502);
  });
});

describe('Retry-After from the upstream', () => {
  it.each([
    ['99999999999', 120],
    ['Fri, 31 Dec 9999 23:59:59 GMT', 120],
    ['30', 30],
  ])('%s pauses the team for at most the cap (%s s), and the browser is told as much', async (header, seconds) => {
    let clock = Date.parse('2026-11-25T12:00:00Z');
    const { proxy, upstream } = setup(
      (sent) =>
        sent.url.pathname.endsWith('/agent/project/p-alice') && upstream.calls.length === 1
          ? json({ status: false, message: 'Too Many Attempts.' }, 429, { 'retry-after': header })
          : specAnswer(sent),
      { now: () => clock, statusCacheMs: 0, rateLimit: { limit: 10, windowMs: 60_000 } },
    );
    const limited = await proxy(call('GET', '/agent/project/p-alice'));
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe(String(seconds));
    clock += seconds * 1000 - 1;
    expect((await proxy(call('GET', '/agent/project/p-alice'))).status).toBe(429);
    clock += 2;
    expect((await proxy(call('GET', '/agent/project/p-alice'))).status).toBe(200);
  });

  it('ignores garbage (no header to the browser; the team pauses for one window at most)', async () => {
    let clock = 0;
    const { proxy, upstream } = setup(
      (sent) =>
        upstream.calls.length === 1
          ? json({ status: false, message: 'Too Many Attempts.' }, 429, { 'retry-after': 'soon, 1' })
          : specAnswer(sent),
      { now: () => clock, statusCacheMs: 0, rateLimit: { limit: 10, windowMs: 60_000 }, maxRetryAfterMs: 20_000 },
    );
    const limited = await proxy(call('GET', '/agent/project/p-alice'));
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBeNull();
    clock += 20_001;
    expect((await proxy(call('GET', '/agent/project/p-alice'))).status).toBe(200);
  });
});

describe('event streams', () => {
  it('ends a build whose upstream only pings within the stall limit, with one stall timer however many events came', async () => {
    const manual = createManualTimers();
    let armed = 0;
    const timers = {
      ...manual,
      setTimeout: (callback: () => void, ms: number) => {
        armed++;
        return manual.setTimeout(callback, ms);
      },
    };
    let clock = 1_000_000;
    const stream = createScriptedStream();
    // The stream's limit in all is off: `fireAll` fires every timer, and this test is about the stall limit.
    const { proxy, logs } = setup(() => stream.response(), {
      timers,
      now: () => clock,
      heartbeatMs: 0,
      upstreamStreamTimeoutMs: 0,
    });
    const response = await proxy(call('POST', '/agent/generate/p-alice', { prompt: 'Make the header blue please' }));
    const reader = createBodyReader(response.body);
    const armedAtStart = armed;
    for (let step = 0; step < 500; step++) stream.event({ type: 'tool_progress', tool: 'write', message: `${step}` });
    let relayed = '';
    while (!relayed.includes('"499"')) relayed += (await reader.next()) ?? '';
    // No event armed a timer: the one stall timer notes the time of the last.
    expect(armed).toBe(armedAtStart);
    // Its limit comes 100 s after the last event: it waits out the 20 s left of the 120 s limit.
    clock += 100_000;
    timers.fireAll();
    expect(armed).toBe(armedAtStart + 1);
    for (let ping = 0; ping < 5; ping++) stream.write(': ping\n\n');
    stream.write('data:\n\n');
    await expect.poll(() => stream.drained()).toBe(true);
    // Nothing the pings did counted as an event: 20 s later the stall limit fires, and the stream ends without a
    // terminal event.
    clock += 20_000;
    timers.fireAll();
    expect(await reader.rest()).toBe('');
    await expect.poll(() => stream.state.cancelled).toBe(true);
    expect(logs.find((entry) => entry.event === 'upstream_timeout')?.reason).toMatch(/stall/);
  });

  it('holds a bounded buffer for a slow reader of 32 MB, then drops it with a resumable close', async () => {
    const event = `data: ${JSON.stringify({ type: 'file_created', path: `src/${'x'.repeat(1000)}.tsx` })}\n\n`;
    const chunk = new TextEncoder().encode(event.repeat(64));
    const total = 32 * 1024 * 1024;
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulled >= total) {
          controller.enqueue(new TextEncoder().encode('data: {"type":"stream_end","project_id":"p-alice"}\n\n'));
          controller.close();
          return;
        }
        pulled += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const timers = createManualTimers();
    const { proxy, logs } = setup(() => new Response(body, { headers: { 'content-type': 'text/event-stream' } }), {
      timers,
      heartbeatMs: 0,
      upstreamIdleTimeoutMs: 0,
      upstreamStreamTimeoutMs: 0,
      maxBufferedBytes: 1024 * 1024,
    });
    const response = await proxy(call('POST', '/agent/generate/p-alice', { prompt: 'Make the header blue please' }));
    const reader = createBodyReader(response.body);
    expect(Number(/id: (\d+)/.exec((await reader.next()) ?? '')?.[1])).toBe(1);
    // The browser stops reading: the relay stops reading the upstream once its buffer is full.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const heldWhileWaiting = pulled;
    expect(heldWhileWaiting).toBeLessThan(3 * 1024 * 1024);
    // It stays behind past the slow-reader limit: the relay closes the stream for it (no terminal event)...
    timers.fireAll();
    const rest = await reader.rest();
    expect(rest).not.toContain('stream_end');
    expect(logs.some((entry) => entry.event === 'slow_reader')).toBe(true);
    // ...and reads the upstream on to its end for the record, so the browser can resume from its last id.
    await expect.poll(() => logs.some((entry) => entry.event === 'stream_closed'), { timeout: 10_000 }).toBe(true);
    const lastId = Math.max(...[...rest.matchAll(/id: (\d+)/g)].map((match) => Number(match[1])));
    const resumed = await proxy(
      call('GET', `/projects/p-alice/events`, undefined, { 'last-event-id': String(lastId) }),
    );
    expect(resumed.status).toBe(200);
    expect(await resumed.text()).toContain('stream_end');
  }, 30_000);
});

describe('the recording of a stream', () => {
  /** A memory store that notes the ids of the events recorded. */
  function countingStore() {
    const store = createMemoryProxyStore({ owners: { 'p-alice': 'alice' } });
    const appended: number[] = [];
    return {
      appended,
      store: {
        ...store,
        appendEvent: (...args: Parameters<ProxyStore['appendEvent']>) => {
          appended.push(args[2].id);
          return store.appendEvent(...args);
        },
      } satisfies ProxyStore,
    };
  }

  async function generateWith(store: ProxyStore, events: readonly object[]) {
    const stream = createScriptedStream();
    const { proxy } = setup(() => stream.response(), { store, timers: createManualTimers(), heartbeatMs: 0 });
    const response = await proxy(call('POST', '/agent/generate', { prompt: 'A recipe box with tags please' }));
    const body = createBodyReader(response.body).rest();
    for (const event of events) stream.event(event);
    stream.close();
    return body;
  }

  it('keeps the newest 5,000 events of an upstream that has not named its project yet, not all of them', async () => {
    const { store, appended } = countingStore();
    const unnamed = Array.from({ length: 6_000 }, (_, index) => ({ type: 'tool_progress', tool: `step-${index}` }));
    const body = await generateWith(store, [
      ...unnamed,
      { type: 'project_created', project_id: 'p-late', app_url: 'https://p-late.example' },
      { type: 'stream_end', project_id: 'p-late', app_url: 'https://p-late.example' },
    ]);
    // The browser still gets every event, numbered.
    expect([...(await body).matchAll(/^id: /gm)]).toHaveLength(6_002);
    // The record keeps what a generation's log keeps: the newest 5,000 before the project, then the rest.
    expect(appended).toHaveLength(5_002);
    expect(appended[0]).toBe(1_001);
    expect(appended.at(-1)).toBe(6_002);
  });

  it('keeps 8 MiB of them at most, however large each one is', async () => {
    const { store, appended } = countingStore();
    const large = (index: number) => ({ type: 'tool_progress', tool: `step-${index}`, message: 'x'.repeat(3 << 20) });
    await generateWith(store, [
      large(1),
      large(2),
      large(3),
      { type: 'project_created', project_id: 'p-late' },
      { type: 'stream_end', project_id: 'p-late' },
    ]);
    expect(appended).toEqual([2, 3, 4, 5]);
  });

  it("records 1,000 characters of an error event's message, and no message that is not text", async () => {
    const store = createMemoryProxyStore({ owners: { 'p-alice': 'alice' } });
    const body = await generateWith(store, [
      { type: 'project_created', project_id: 'p-late' },
      { type: 'error', project_id: 'p-late', message: `Broke: ${'x'.repeat(4 << 20)}` },
    ]);
    // The browser gets the event as the upstream sent it; the record keeps a sentence's worth.
    expect((await body).length).toBeGreaterThan(4 << 20);
    const [turn] = await store.getConversation('p-late');
    expect(turn?.outcome).toMatchObject({ status: 'failed', message: `Broke: ${'x'.repeat(993)}…` });
    const other = createMemoryProxyStore({ owners: { 'p-alice': 'alice' } });
    await generateWith(other, [
      { type: 'project_created', project_id: 'p-late' },
      { type: 'error', project_id: 'p-late', message: { nested: ['not', 'text'] } },
    ]);
    expect((await other.getConversation('p-late'))[0]?.outcome).toMatchObject({
      status: 'failed',
      message: 'The generation failed.',
    });
  });

  it('counts every file of a build whose paths outgrow the file list, in the recorded turn', async () => {
    const store = createMemoryProxyStore({ owners: { 'p-alice': 'alice' } });
    const files = Array.from({ length: 2_500 }, (_, index) => ({
      type: 'file_created',
      path: `src/${String(index).padStart(4, '0')}/${'x'.repeat(4 << 10)}.tsx`,
    }));
    await generateWith(store, [
      { type: 'project_created', project_id: 'p-late' },
      ...files,
      { type: 'stream_end', project_id: 'p-late' },
    ]);
    const conversation = await store.getConversation('p-late');
    expect(conversation.at(-1)?.outcome).toEqual({
      status: 'completed',
      files_created: 2_500,
      files_modified: 0,
      steps: 0,
    });
  });
});

describe("a project's summary", () => {
  it('keeps 200 characters of a name and no address or status longer than any real one', async () => {
    const store = createMemoryProxyStore({ owners: { 'p-alice': 'alice' } });
    const { proxy } = setup(
      () =>
        json({
          status: true,
          project_id: 'p-alice',
          name: `Recipes ${'r'.repeat(1 << 20)}`,
          app_url: `https://p-alice.example/${'a'.repeat(4_096)}`,
          project_status: 's'.repeat(100),
        }),
      { store },
    );
    expect((await proxy(call('GET', '/agent/project/p-alice'))).status).toBe(200);
    const { projects } = (await (await proxy(call('GET', '/projects'))).json()) as {
      projects: { name: string | null; app_url: string | null; project_status: string | null }[];
    };
    expect(projects).toHaveLength(1);
    expect(projects[0]).toMatchObject({ name: `Recipes ${'r'.repeat(192)}…`, app_url: null, project_status: null });
  });

  it('caches a status answer of a real size, and relays a 16 KiB one or larger without caching it', async () => {
    let name = 'Recipes';
    const { proxy, upstream } = setup(() =>
      json({ status: true, project_id: 'p-alice', name, app_url: 'https://p-alice.example/', project_status: 'ready' }),
    );
    const status = async () => (await (await proxy(call('GET', '/agent/project/p-alice'))).json()) as { name: string };
    expect((await status()).name).toBe('Recipes');
    expect((await status()).name).toBe('Recipes');
    expect(upstream.calls).toHaveLength(1);
    // Another proxy, whose upstream answers with a name of 16 KiB: each status is asked for, none cached.
    name = 'r'.repeat(16 * 1024);
    const large = setup(() =>
      json({ status: true, project_id: 'p-alice', name, app_url: 'https://p-alice.example/', project_status: 'ready' }),
    );
    const largeStatus = async () =>
      (await (await large.proxy(call('GET', '/agent/project/p-alice'))).json()) as { name: string };
    expect((await largeStatus()).name).toHaveLength(16 * 1024);
    expect((await largeStatus()).name).toHaveLength(16 * 1024);
    expect(large.upstream.calls).toHaveLength(2);
  });

  it('keeps no address longer than 2,048 characters from a stream', async () => {
    const store = createMemoryProxyStore();
    const stream = createScriptedStream();
    const { proxy } = setup(() => stream.response(), { store, timers: createManualTimers(), heartbeatMs: 0 });
    const response = await proxy(call('POST', '/agent/generate', { prompt: 'A recipe box with tags please' }));
    const body = createBodyReader(response.body).rest();
    stream.event({ type: 'project_created', project_id: 'p-long', app_url: `https://p.example/${'a'.repeat(4_096)}` });
    stream.event({ type: 'stream_end', project_id: 'p-long' });
    stream.close();
    await body;
    const [summary] = await store.listProjects('alice');
    expect(summary).toMatchObject({ project_id: 'p-long', app_url: null, project_status: 'ready' });
  });
});

describe('the events route', () => {
  async function recordedBuild(store: ProxyStore) {
    const stream = createScriptedStream();
    const first = setup(() => stream.response(), { store, timers: createManualTimers() });
    const response = await first.proxy(call('POST', '/agent/generate/p-alice', { prompt: 'Make it blue please' }));
    return { stream, response, first };
  }

  it('answers 204 once the build has ended and the reader has seen every event', async () => {
    const store = createMemoryProxyStore({ owners: { 'p-alice': 'alice' } });
    const { stream, response } = await recordedBuild(store);
    stream.event({ type: 'tool_progress', tool: 'write' });
    stream.event({ type: 'stream_end', project_id: 'p-alice', app_url: 'https://p-alice.example' });
    stream.close();
    const text = await createBodyReader(response.body).rest();
    const lastId = Number([...text.matchAll(/id: (\d+)/g)].at(-1)?.[1]);
    const { proxy } = setup(specAnswer, { store });
    const behind = await proxy(call('GET', '/projects/p-alice/events', undefined, { 'last-event-id': '0' }));
    expect(behind.status).toBe(200);
    expect(await behind.text()).toContain('stream_end');
    const seenAll = await proxy(
      call('GET', '/projects/p-alice/events', undefined, { 'last-event-id': String(lastId) }),
    );
    expect(seenAll.status).toBe(204);
  });

  it('lets a standard EventSource read a finished build once, then stop (204) instead of reconnecting forever', async () => {
    const store = createMemoryProxyStore({ owners: { 'p-alice': 'alice' } });
    const { stream, response } = await recordedBuild(store);
    stream.event({ type: 'tool_progress', tool: 'write' });
    stream.event({ type: 'stream_end', project_id: 'p-alice', app_url: 'https://p-alice.example' });
    stream.close();
    await createBodyReader(response.body).rest();
    const { proxy } = setup(specAnswer, { store });
    const statuses: number[] = [];
    const source = new EventSource(`${appOrigin}${basePath}/projects/p-alice/events`, {
      fetch: async (url, init) => {
        const answer = await proxy(new Request(url, init));
        statuses.push(answer.status);
        return answer;
      },
    });
    const types: string[] = [];
    source.onmessage = (message) => types.push((JSON.parse(message.data) as { type: string }).type);
    // The first connection replays the build and ends; the reconnection with its Last-Event-ID gets 204.
    await expect.poll(() => source.readyState, { timeout: 8_000 }).toBe(source.CLOSED);
    expect(types).toEqual(['tool_progress', 'stream_end']);
    expect(statuses).toEqual([200, 204]);
    source.close();
  }, 10_000);

  it('drain() ends a follower of a build another instance relays, with a resumable close', async () => {
    const store = createMemoryProxyStore({ owners: { 'p-alice': 'alice' } });
    const { stream } = await recordedBuild(store);
    stream.event({ type: 'tool_progress', tool: 'write' });
    await expect.poll(async () => (await store.readEvents('p-alice', 0))?.events.length).toBe(1);
    const other = setup(specAnswer, { store, heartbeatMs: 0 });
    const following = await other.proxy(call('GET', '/projects/p-alice/events'));
    const reader = createBodyReader(following.body);
    expect(await reader.next()).toContain('id: ');
    const drained = other.proxy.drain();
    expect(await reader.rest()).not.toContain('stream_end');
    await drained;
    stream.close();
  });
});
