/**
 * The events route (`GET /projects/{id}/events`) holds what the generate relay holds for a browser that reads
 * slowly or not at all: it reads the store only while the browser's buffer has room (`maxBufferedBytes`, a page at a
 * time), and a browser that makes no room for `slowReaderMs` is closed without a terminal event, to resume from its
 * `Last-Event-ID` with nothing lost or repeated. A signed-in user opening many unread followers of their own build
 * cannot make the proxy hold the log, or everything a live build sends, once per connection.
 */
import { describe, expect, it } from 'vitest';
import {
  createMemoryProxyStore,
  type AgentProxyOptions,
  type AgentProxyUser,
  type ProxyStore,
  type RelayTimers,
} from 'agent-embed/server';
import { createBodyReader, createScriptedProxy } from './scripted-upstream.js';
import { readSse, type SseEvent } from './sse-reader.js';

const appOrigin = 'https://app.example.test';
const basePath = '/api/agent';
const alice: AgentProxyUser = { externalUserId: 'alice' };
const prompt = 'Make the header blue please';
const slowReaderMs = 7_000;
const encoder = new TextEncoder();

const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  new Request(`${appOrigin}${basePath}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

/**
 * Timers on a manual clock: `advance` fires, in order, those due by then; `pending(ms)`: one set for `ms` waits;
 * `time()` reads the clock (the proxy's `now`).
 */
function createClock(): RelayTimers & { advance(ms: number): void; pending(ms: number): boolean; time(): number } {
  let now = 0;
  let next = 1;
  const timers = new Map<number, { at: number; ms: number; callback: () => void }>();
  return {
    setTimeout(callback, ms) {
      const id = next++;
      timers.set(id, { at: now + ms, ms, callback });
      return id;
    },
    clearTimeout(handle) {
      timers.delete(handle as number);
    },
    pending: (ms) => [...timers.values()].some((timer) => timer.ms === ms),
    time: () => now,
    advance(ms) {
      now += ms;
      for (;;) {
        const [due] = [...timers].filter(([, timer]) => timer.at <= now).sort(([, a], [, b]) => a.at - b.at);
        if (due === undefined) return;
        timers.delete(due[0]);
        due[1].callback();
      }
    },
  };
}

/** A memory store that counts the event bytes it hands out (only the events route reads events). */
function countingStore(): { store: ProxyStore; inner: ProxyStore; handedOut: () => number } {
  const inner = createMemoryProxyStore({ owners: { 'p-alice': 'alice' } });
  let bytes = 0;
  const store: ProxyStore = {
    ...inner,
    async readEvents(...args) {
      const read = await inner.readEvents(...args);
      for (const event of read?.events ?? []) bytes += event.data.length;
      return read;
    },
  };
  return { store, inner, handedOut: () => bytes };
}

function setup(answer: () => Response | Promise<Response>, options: Partial<AgentProxyOptions>) {
  return createScriptedProxy(answer, {
    basePath,
    authorize: () => alice,
    appUrl: appOrigin,
    heartbeatMs: 0,
    upstreamIdleTimeoutMs: 0,
    upstreamStreamTimeoutMs: 0,
    slowReaderMs,
    ...options,
  });
}

/** A file event of about 1.4 KiB, numbered (a log of 5,000 of them is 7 MiB). */
const fileEvent = (n: number) =>
  `data: ${JSON.stringify({ type: 'file_created', path: `src/${String(n).padStart(6, '0')}-${'x'.repeat(1400)}.tsx` })}\n\n`;

/** An upstream build of `total` bytes of file events, pulled as the proxy reads it; it waits for `gate` after one. */
function bigBuild(total: number, gate: Promise<void> = Promise.resolve()): Response {
  let pulled = 0;
  let n = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (n > 0) await gate;
      if (pulled >= total) {
        controller.enqueue(encoder.encode('data: {"type":"stream_end","project_id":"p-alice"}\n\n'));
        controller.close();
        return;
      }
      const chunk = encoder.encode(Array.from({ length: n === 0 ? 1 : 64 }, () => fileEvent(++n)).join(''));
      pulled += chunk.length;
      controller.enqueue(chunk);
    },
  });
  return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
}

/** The complete events in SSE text. */
function eventsIn(text: string): SseEvent[] {
  return text
    .split('\n\n')
    .slice(0, -1)
    .map((block) => block.split('\n'))
    .filter((lines) => lines.some((line) => line.startsWith('data: ')))
    .map((lines) => ({
      id: Number(lines.find((line) => line.startsWith('id: '))?.slice(4)),
      data: lines
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice(6))
        .join('\n'),
    }));
}

describe('a follower of the events route holds a bounded buffer', () => {
  const maxBufferedBytes = 1024 * 1024;
  // Its browser's buffer and one page of the same size, each with the event that went over it.
  const bound = 2 * maxBufferedBytes + 64 * 1024;

  it('replays a 6 MiB log to a browser that never reads a page at a time, and a drain still ends it', async () => {
    const { store, inner, handedOut } = countingStore();
    const clock = createClock();
    const { proxy } = setup(() => bigBuild(6 * 1024 * 1024), { store, timers: clock, maxBufferedBytes });
    await (await proxy(call('POST', '/agent/generate/p-alice', { prompt }))).text();
    const log = await inner.readEvents('p-alice', 0);
    expect(log?.ended).toBe(true);
    expect(log?.events.reduce((bytes, event) => bytes + event.data.length, 0)).toBeGreaterThan(5.5 * 1024 * 1024);
    expect(handedOut()).toBe(0);

    const follower = await proxy(call('GET', '/projects/p-alice/events', undefined, { 'last-event-id': '0' }));
    expect(follower.status).toBe(200);
    // It reads until its browser's buffer is full, then waits for room (the slow-reader timer runs), reading nothing.
    await expect.poll(() => clock.pending(slowReaderMs) || handedOut() > bound).toBe(true);
    expect(handedOut()).toBeLessThanOrEqual(bound);

    // A drain does not wait for the browser: it ends the follower at once, with what was queued and no terminal event.
    await proxy.drain();
    const events = eventsIn(await createBodyReader(follower.body).rest());
    expect(events.length).toBeGreaterThan(0);
    expect(events.map((event) => event.id)).toEqual(events.map((_, index) => (log?.events[0]?.id ?? 0) + index));
    expect(events.at(-1)?.data).not.toContain('stream_end');
  }, 30_000);

  it('follows a live 32 MiB build for a browser that never reads, and closes it after slowReaderMs', async () => {
    const { store, inner, handedOut } = countingStore();
    const clock = createClock();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { proxy, logs } = setup(() => bigBuild(32 * 1024 * 1024, gate), { store, timers: clock, maxBufferedBytes });
    // Alice's own tab reads its build as fast as it comes.
    const reading = (await proxy(call('POST', '/agent/generate/p-alice', { prompt }))).text();
    await expect.poll(async () => (await inner.readEvents('p-alice', 0))?.events.length ?? 0).toBeGreaterThan(0);

    const follower = await proxy(call('GET', '/projects/p-alice/events'));
    expect(follower.status).toBe(200);
    release();
    await reading;
    await expect.poll(() => logs.some((entry) => entry.event === 'stream_closed'), { timeout: 20_000 }).toBe(true);
    await expect.poll(() => clock.pending(slowReaderMs) || handedOut() > bound).toBe(true);
    // Of everything the build sent (four times the store's own 8 MiB cap of a log), the follower holds its buffer.
    expect(handedOut()).toBeLessThanOrEqual(bound);

    // It is closed when slowReaderMs has passed without room, not before, logged as the generate relay logs it.
    clock.advance(slowReaderMs - 1);
    expect(logs.some((entry) => entry.event === 'slow_reader')).toBe(false);
    clock.advance(1);
    await expect
      .poll(() => logs.find((entry) => entry.event === 'slow_reader'))
      .toEqual({
        level: 'warn',
        event: 'slow_reader',
        method: 'GET',
        route: 'projectEvents',
        externalUserId: 'alice',
        projectId: 'p-alice',
        reason: 'the browser read too slowly; closed for it to resume',
      });
    // Without a terminal event: the browser resumes from its last id.
    const rest = await createBodyReader(follower.body).rest();
    expect(rest).not.toContain('stream_end');
  }, 60_000);

  it('gives a reader every event in order, and one closed for reading slowly resumes with nothing lost or repeated', async () => {
    const store = createMemoryProxyStore({ owners: { 'p-alice': 'alice' } });
    const clock = createClock();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    // A 2 MiB build (the log keeps all of it) through 64 KiB buffers: a slow reader falls far behind.
    const { proxy, logs } = setup(() => bigBuild(2 * 1024 * 1024, gate), {
      store,
      timers: clock,
      maxBufferedBytes: 64 * 1024,
    });
    const relayed = readSse(await proxy(call('POST', '/agent/generate/p-alice', { prompt })));
    await expect.poll(async () => (await store.readEvents('p-alice', 0))?.events.length ?? 0).toBeGreaterThan(0);
    const reader = readSse(await proxy(call('GET', '/projects/p-alice/events')));
    const slow = await proxy(call('GET', '/projects/p-alice/events'));
    release();

    // The reader that keeps reading gets the build as the browser that started it did.
    const build = await relayed;
    expect(build.length).toBeGreaterThan(1_400);
    expect(build.map((event) => event.id)).toEqual(build.map((_, index) => index + 1));
    expect(build.at(-1)?.data).toContain('stream_end');
    expect(await reader).toEqual(build);

    // The slow one reads a few events, then nothing until slowReaderMs has passed: it is closed.
    const slowBody = (slow.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = '';
    while (eventsIn(text).length < 10) text += decoder.decode((await slowBody.read()).value, { stream: true });
    await expect.poll(() => logs.some((entry) => entry.event === 'stream_closed'), { timeout: 20_000 }).toBe(true);
    await expect.poll(() => clock.pending(slowReaderMs)).toBe(true);
    clock.advance(slowReaderMs);
    await expect.poll(() => logs.some((entry) => entry.event === 'slow_reader')).toBe(true);
    for (let chunk = await slowBody.read(); !chunk.done; chunk = await slowBody.read())
      text += decoder.decode(chunk.value, { stream: true });
    const beforeClose = eventsIn(text);
    expect(beforeClose.length).toBeLessThan(build.length / 2);
    expect(beforeClose.at(-1)?.data).not.toContain('stream_end');

    // It resumes from its Last-Event-ID: with what it had, exactly the build, in order.
    const resumed = await proxy(
      call('GET', '/projects/p-alice/events', undefined, { 'last-event-id': String(beforeClose.at(-1)?.id) }),
    );
    expect(resumed.status).toBe(200);
    expect([...beforeClose, ...(await readSse(resumed))]).toEqual(build);
  }, 60_000);
});

describe('a follower of a build that went quiet', () => {
  it("ends after five minutes without a new event, by the proxy's clock, and not before", async () => {
    const store = createMemoryProxyStore({ owners: { 'p-alice': 'alice' } });
    const clock = createClock();
    // The recording instance went away mid-build: the log has one event and no end.
    const turn = { kind: 'followUp' as const, prompt, mode: null, at: new Date(0).toISOString(), outcome: null };
    const generation = await store.beginGeneration('p-alice', 'alice', turn);
    await store.appendEvent('p-alice', generation, { id: 1, data: '{"type":"tool_progress","tool":"edit_file"}' });
    const { proxy } = setup(() => new Response(null, { status: 500 }), { store, timers: clock, now: clock.time });
    const follower = createBodyReader((await proxy(call('GET', '/projects/p-alice/events'))).body);
    expect(await follower.next()).toContain('edit_file');

    let ended = false;
    const rest = follower.rest().then((text) => {
      ended = true;
      return text;
    });
    // Woken by nothing, it re-reads the store every 5 s (the wake-up may have been lost) until 5 min have passed.
    for (let waited = 0; waited < 300_000; waited += 5_000) {
      await expect.poll(() => clock.pending(5_000), { interval: 1 }).toBe(true);
      clock.advance(5_000);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(ended).toBe(false);
    await expect.poll(() => clock.pending(5_000), { interval: 1 }).toBe(true);
    clock.advance(5_000);
    // Without a terminal event: its browser resumes from its last id, and sees the status poll's answer meanwhile.
    expect(await rest).toBe('');
    expect(ended).toBe(true);
  });
});
