/**
 * The batched recording (group commit) attacked from both sides: a hostile or broken upstream (a terminal event
 * mid-chunk, a failure while writes are in flight, a body that errors without a reason, odd event shapes, another
 * user's project named before a burst) and a slow, failing, throwing or hanging store, with and without
 * `appendEvents`. Whatever happens, each event reaches the browser only once recorded, in order, once; the
 * generation ends after its last batch; a store failure stops the recording, never the relay; and what is read
 * ahead of a hanging store stays bounded. A seeded fuzz (store delays, failures, chunking, endings) checks the same.
 */
import { describe, expect, it } from 'vitest';
import {
  createMemoryProxyStore,
  type AgentProxyOptions,
  type AgentProxyUser,
  type ProxyStore,
  type RecordedEvent,
} from 'agent-embed/server';
import { createBodyReader } from './scripted-upstream.js';
import {
  appOrigin,
  basePath,
  createRecordingProxy,
  fileEvent,
  idsIn,
  idsSentAfterRecording,
  range,
  writeBurst,
} from './recording-helpers.js';

const users: Record<string, AgentProxyUser> = {
  alice: { externalUserId: 'alice' },
  bob: { externalUserId: 'bob' },
};
const authorize = (request: Request) =>
  users[/(?:^|;\s*)session=([^;]+)/.exec(request.headers.get('cookie') ?? '')?.[1] ?? 'alice'] ?? null;
const call = (who: string, method: string, path: string, body?: unknown) =>
  new Request(`${appOrigin}${basePath}${path}`, {
    method,
    headers: { 'content-type': 'application/json', cookie: `session=${who}` },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
const generate = (who = 'alice') => call(who, 'POST', '/agent/generate', { prompt: 'A recipe box with tags please' });
const tick = (ms = 0) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A memory store whose event writes wait for `gate(call)`; notes every operation in order, how many appends
 * overlap, and the ids recorded so far.
 */
function instrumentedStore(
  gate: (call: number, ids: number[]) => Promise<unknown> | void,
  options: { batches?: boolean; owners?: Record<string, string> } = {},
) {
  const inner = createMemoryProxyStore(options.owners === undefined ? {} : { owners: options.owners });
  const calls: number[][] = [];
  const ops: string[] = [];
  const recorded = new Set<number>();
  let inFlight = 0;
  let maxInFlight = 0;
  const write = async (projectId: string, generation: number, events: readonly RecordedEvent[]) => {
    const ids = events.map((event) => event.id);
    calls.push(ids);
    ops.push(`append ${ids[0]}-${ids.at(-1)}`);
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    try {
      await gate(calls.length, ids);
      // The memory store writes one event at a time.
      for (const event of events) await inner.appendEvent(projectId, generation, event);
      for (const id of ids) recorded.add(id);
      ops.push(`appended ${ids[0]}-${ids.at(-1)}`);
    } finally {
      inFlight--;
    }
  };
  const store: ProxyStore = {
    ...inner,
    appendEvent: (projectId, generation, event) => write(projectId, generation, [event]),
    async endGeneration(projectId, generation, outcome) {
      ops.push(`end (in flight ${inFlight})`);
      await inner.endGeneration(projectId, generation, outcome);
    },
  };
  if (options.batches !== false) store.appendEvents = write;
  else delete store.appendEvents;
  return { store, inner, calls, ops, recorded, maxInFlight: () => maxInFlight };
}

const setup = (store: ProxyStore, options: Partial<AgentProxyOptions> = {}) =>
  createRecordingProxy(store, { authorize, ...options });

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('the batched recording', () => {
  it('never overlaps two appends, sends only recorded events, and ends the generation after the last batch', async () => {
    const { store, calls, ops, recorded, maxInFlight } = instrumentedStore(() => tick(2));
    const { proxy, streams } = setup(store);
    const response = await proxy(generate());
    writeBurst(streams[0]!, 'p-burst', 1_500);
    expect(await idsSentAfterRecording(response.body, recorded)).toEqual(range(1, 1_502));
    expect(calls.flat()).toEqual(range(1, 1_502));
    expect(maxInFlight()).toBe(1);
    await expect.poll(() => ops.some((op) => op.startsWith('end'))).toBe(true);
    expect(ops.at(-1)).toBe('end (in flight 0)');
    expect(ops.filter((op) => op.startsWith('end'))).toHaveLength(1);
  });

  it('a store with only appendEvent records each event once, in order, before it is sent', async () => {
    const { store, calls, recorded, maxInFlight, inner } = instrumentedStore(() => tick(1), { batches: false });
    expect(store.appendEvents).toBeUndefined();
    const { proxy, streams } = setup(store);
    const response = await proxy(generate());
    writeBurst(streams[0]!, 'p-single', 600);
    expect(await idsSentAfterRecording(response.body, recorded)).toEqual(range(1, 602));
    expect(calls.flat()).toEqual(range(1, 602));
    expect(calls.every((ids) => ids.length === 1)).toBe(true);
    expect(maxInFlight()).toBe(1);
    await expect.poll(async () => (await inner.readEvents('p-single', 0))?.ended).toBe(true);
  });

  it('a store whose appendEvents throws synchronously stops recording, relays everything, logs once', async () => {
    const inner = createMemoryProxyStore();
    let batches = 0;
    const store: ProxyStore = {
      ...inner,
      appendEvents(projectId, generation, events) {
        batches++;
        if (batches === 2) throw new Error('sync boom');
        return Promise.all(events.map((event) => inner.appendEvent(projectId, generation, event))).then(() => {});
      },
    };
    const { proxy, streams, logs } = setup(store);
    const text = (await proxy(generate())).text();
    const stream = streams[0]!;
    writeBurst(stream, 'p-sync', 300);
    expect(idsIn(await text)).toEqual(range(1, 302));
    expect(logs.filter((entry) => entry.reason?.includes('sync boom'))).toHaveLength(1);
    await tick(20);
    expect(batches).toBe(2);
  });

  it('an upstream failing while writes are in flight: every event read is recorded and sent, none lost', async () => {
    const hang = deferred();
    const { store, calls, recorded } = instrumentedStore((n) => (n === 2 ? hang.promise : undefined));
    const { proxy, streams, logs } = setup(store);
    const reading = idsSentAfterRecording((await proxy(generate())).body, recorded);
    const stream = streams[0]!;
    stream.event({ type: 'project_created', project_id: 'p-fail' });
    for (let n = 1; n <= 100; n++) stream.event(fileEvent(n));
    await expect.poll(() => calls.length).toBe(2);
    await expect.poll(() => stream.drained()).toBe(true);
    await tick(20);
    stream.fail(new Error('upstream went away'));
    await tick(20);
    hang.resolve();
    const sent = await reading;
    // Every event the proxy recorded reached the browser, and every one it sent was recorded.
    expect(sent).toEqual(calls.flat());
    expect(sent).toEqual(range(1, 101));
    await expect.poll(() => logs.some((entry) => entry.event === 'stream_closed')).toBe(true);
    expect(logs.find((entry) => entry.event === 'stream_closed')?.reason).toContain('upstream failed');
  });

  it('a terminal event mid-chunk: nothing after it is recorded or sent, the upstream is let go', async () => {
    const { store, calls, ops } = instrumentedStore(() => tick(3));
    const { proxy, streams } = setup(store);
    const text = (await proxy(generate())).text();
    const stream = streams[0]!;
    let chunk = `data: ${JSON.stringify({ type: 'project_created', project_id: 'p-term' })}\n\n`;
    for (let n = 1; n <= 200; n++) chunk += `data: ${JSON.stringify(fileEvent(n))}\n\n`;
    chunk += `data: ${JSON.stringify({ type: 'stream_end', project_id: 'p-term' })}\n\n`;
    for (let n = 201; n <= 400; n++) chunk += `data: ${JSON.stringify(fileEvent(n))}\n\n`;
    stream.write(chunk);
    // Never closed.
    const sent = idsIn(await text);
    expect(sent).toEqual(range(1, 202));
    expect(calls.flat()).toEqual(range(1, 202));
    await expect.poll(() => stream.state.cancelled).toBe(true);
    await expect.poll(() => ops.at(-1)).toBe('end (in flight 0)');
  });

  it("naming another user's project before a burst: nothing recorded into it, the stream relayed whole", async () => {
    const owners = { 'p-alice': 'alice' };
    const { store, calls, inner } = instrumentedStore(() => tick(1), { owners });
    const slowOwner: ProxyStore = {
      ...store,
      async setProjectOwner(projectId, userId) {
        await tick(20);
        return store.setProjectOwner(projectId, userId);
      },
    };
    const { proxy, streams, logs } = setup(slowOwner);
    const text = (await proxy(generate('bob'))).text();
    const stream = streams[0]!;
    let chunk = `data: ${JSON.stringify({ type: 'project_created', project_id: 'p-alice' })}\n\n`;
    for (let n = 1; n <= 700; n++) chunk += `data: ${JSON.stringify(fileEvent(n))}\n\n`;
    chunk += `data: ${JSON.stringify({ type: 'project_created', project_id: 'p-bob' })}\n\n`;
    chunk += `data: ${JSON.stringify({ type: 'stream_end', project_id: 'p-alice' })}\n\n`;
    stream.write(chunk);
    stream.close();
    expect(idsIn(await text)).toEqual(range(1, 703));
    expect(calls).toEqual([]);
    expect(await inner.readEvents('p-alice', 0)).toBeUndefined();
    expect(await inner.readEvents('p-bob', 0)).toBeUndefined();
    expect(await inner.getProjectOwner('p-alice')).toBe('alice');
    expect(logs.some((entry) => entry.event === 'upstream_refused')).toBe(true);
  });

  it('huge events and a hanging store: what is read ahead stays near 1 MiB', async () => {
    const hang = deferred();
    const { store, calls } = instrumentedStore((n) => (n === 2 ? hang.promise : undefined));
    const encoder = new TextEncoder();
    const chunks: Uint8Array[] = [
      encoder.encode(`data: ${JSON.stringify({ type: 'project_created', project_id: 'p-big' })}\n\n`),
    ];
    for (let n = 1; n <= 60; n++) chunks.push(encoder.encode(`data: ${JSON.stringify(fileEvent(n, 256 * 1024))}\n\n`));
    chunks.push(encoder.encode(`data: ${JSON.stringify({ type: 'stream_end', project_id: 'p-big' })}\n\n`));
    let pulled = 0;
    const bodyStream = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          const next = chunks.shift();
          if (next === undefined) return controller.close();
          pulled += next.byteLength;
          controller.enqueue(next);
        },
      },
      { highWaterMark: 0 },
    );
    const { proxy } = createRecordingProxy(
      store,
      { authorize },
      () =>
        new Response(bodyStream, {
          headers: { 'content-type': 'text/event-stream' },
        }),
    );
    const text = (await proxy(generate())).text();
    await expect.poll(() => calls.length).toBe(2);
    await tick(100);
    expect(calls.length).toBe(2);
    // 1 MiB read ahead, plus the batch being written, plus a few events in the parse: far below 15 MiB.
    expect(pulled).toBeLessThan(4 * 1024 * 1024);
    hang.resolve();
    expect(idsIn(await text)).toEqual(range(1, 62));
    expect(calls.flat()).toEqual(range(1, 62));
  });

  it('the idle deadline while the store hangs: what was read ahead is still recorded and sent, then a clean close', async () => {
    const hang = deferred();
    const { store, calls, recorded, ops } = instrumentedStore((n) => (n === 2 ? hang.promise : undefined));
    let clock = 0;
    const { proxy, streams, logs, timers } = setup(store, {
      upstreamIdleTimeoutMs: 1_000,
      now: () => clock,
    });
    const text = (await proxy(generate())).text();
    const stream = streams[0]!;
    stream.event({ type: 'project_created', project_id: 'p-idle' });
    for (let n = 1; n <= 50; n++) stream.event(fileEvent(n));
    await expect.poll(() => calls.length).toBe(2);
    await expect.poll(() => stream.drained()).toBe(true);
    await tick(20);
    clock += 5_000;
    timers.fireAll();
    await expect.poll(() => logs.some((entry) => entry.event === 'upstream_timeout')).toBe(true);
    hang.resolve();
    const sent = idsIn(await text);
    expect(sent).toEqual(calls.flat());
    expect(sent.every((id) => recorded.has(id))).toBe(true);
    expect(sent.length).toBeGreaterThanOrEqual(50);
    await expect.poll(() => ops.at(-1)).toBe('end (in flight 0)');
  });

  it('the browser leaving mid-burst: the recording goes on to the end', async () => {
    const { store, inner, calls } = instrumentedStore(() => tick(2));
    const { proxy, streams, logs } = setup(store);
    const body = createBodyReader((await proxy(generate())).body);
    const stream = streams[0]!;
    stream.event({ type: 'project_created', project_id: 'p-gone' });
    for (let n = 1; n <= 1_000; n++) stream.event(fileEvent(n));
    await body.next();
    await body.cancel();
    for (let n = 1_001; n <= 1_200; n++) stream.event(fileEvent(n));
    stream.event({ type: 'stream_end', project_id: 'p-gone' });
    stream.close();
    await expect.poll(() => logs.some((entry) => entry.event === 'stream_closed')).toBe(true);
    expect(calls.flat()).toEqual(range(1, 1_202));
    const log = await inner.readEvents('p-gone', 0);
    expect(log?.ended).toBe(true);
    expect(log?.events.map((event) => event.id)).toEqual(range(1, 1_202));
  });

  it('a follow-up burst: ids continue the generation, each recorded once before it is sent', async () => {
    const { store, calls, recorded, inner } = instrumentedStore(() => tick(2), { owners: { 'p-alice': 'alice' } });
    const { proxy, streams } = setup(store);
    // A first generation, so that the follow-up is the second.
    const first = (await proxy(generate())).text();
    streams[0]!.event({ type: 'project_created', project_id: 'p-alice' });
    streams[0]!.event({ type: 'stream_end', project_id: 'p-alice' });
    streams[0]!.close();
    await first;
    const { body } = await proxy(call('alice', 'POST', '/agent/generate/p-alice', { prompt: 'Make it blue please' }));
    const stream = streams[1]!;
    for (let n = 1; n <= 800; n++) stream.event(fileEvent(n));
    stream.event({ type: 'stream_end', project_id: 'p-alice' });
    stream.close();
    const sent = await idsSentAfterRecording(body, recorded);
    expect(sent).toEqual(range(1_000_000_001, 1_000_000_801));
    expect(calls.flat()).toEqual([1, 2, ...sent]);
    await expect.poll(async () => (await inner.readEvents('p-alice', 0))?.ended).toBe(true);
  });

  it('a drain while the store is slow: read-ahead events are recorded and sent, then the stream closes', async () => {
    const hang = deferred();
    const { store, calls } = instrumentedStore((n) => (n === 2 ? hang.promise : undefined));
    const { proxy, streams } = setup(store);
    const text = (await proxy(generate())).text();
    const stream = streams[0]!;
    stream.event({ type: 'project_created', project_id: 'p-drain' });
    for (let n = 1; n <= 100; n++) stream.event(fileEvent(n));
    await expect.poll(() => calls.length).toBe(2);
    const drained = proxy.drain();
    await tick(20);
    hang.resolve();
    await drained;
    expect(idsIn(await text)).toEqual(calls.flat());
  });

  it('a store whose beginGeneration fails: nothing is recorded, every event relayed, one log', async () => {
    const { store, calls } = instrumentedStore(() => tick(1));
    const failing: ProxyStore = {
      ...store,
      beginGeneration: () => Promise.reject(new Error('no begin')),
    };
    const { proxy, streams, logs } = setup(failing);
    const text = (await proxy(generate())).text();
    const stream = streams[0]!;
    writeBurst(stream, 'p-nobegin', 700);
    expect(idsIn(await text)).toEqual(range(1, 702));
    expect(calls).toEqual([]);
    expect(logs.filter((entry) => entry.reason?.includes('no begin'))).toHaveLength(1);
  });

  it('events before the project is named, then a burst: pending flushed first, all in order, once', async () => {
    const { store, calls, inner } = instrumentedStore(() => tick(2));
    const { proxy, streams } = setup(store);
    const text = (await proxy(generate())).text();
    const stream = streams[0]!;
    for (let n = 1; n <= 30; n++) stream.event({ type: 'tool_progress', tool: `t-${n}` });
    stream.event({ type: 'project_created', project_id: 'p-late' });
    for (let n = 1; n <= 700; n++) stream.event(fileEvent(n));
    stream.event({ type: 'stream_end', project_id: 'p-late' });
    stream.close();
    expect(idsIn(await text)).toEqual(range(1, 732));
    expect(calls.flat()).toEqual(range(1, 732));
    await expect
      .poll(async () => (await inner.readEvents('p-late', 0))?.events.map((event) => event.id))
      .toEqual(range(1, 732));
  });
});

describe('a fuzzed burst', () => {
  /** A small seeded PRNG (mulberry32). */
  const prng = (seed: number) => () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };

  it('random store delays, chunking and endings keep every invariant', async () => {
    for (let seed = 1; seed <= 30; seed++) {
      const random = prng(seed);
      const mode = (['close', 'terminal', 'fail', 'terminal-open'] as const)[Math.floor(random() * 4)]!;
      const failAt = random() < 0.2 ? 1 + Math.floor(random() * 5) : -1;
      const batches = random() < 0.7;
      const { store, calls, recorded, ops, inner } = instrumentedStore(
        async (n) => {
          if (n === failAt) throw new Error('store down');
          const r = random();
          if (r < 0.3) return;
          if (r < 0.6) await Promise.resolve();
          else await tick(Math.floor(random() * 3));
        },
        { batches },
      );
      const { proxy, streams } = setup(store);
      const body = createBodyReader((await proxy(generate())).body);
      const sentBeforeRecorded: number[] = [];
      const sent: number[] = [];
      const reading = (async () => {
        for (let chunk = await body.next(); chunk !== undefined; chunk = await body.next()) {
          const ids = idsIn(chunk);
          if (failAt < 0) sentBeforeRecorded.push(...ids.filter((id) => !recorded.has(id)));
          sent.push(...ids);
        }
      })();
      const stream = streams[0]!;
      const total = 50 + Math.floor(random() * 900);
      const terminalAt = mode.startsWith('terminal') ? Math.floor(total / 2) : -1;
      const frames: string[] = [`data: ${JSON.stringify({ type: 'project_created', project_id: `p-${seed}` })}\n\n`];
      for (let n = 1; n <= total; n++)
        frames.push(
          `data: ${JSON.stringify(n === terminalAt ? { type: 'stream_end', project_id: `p-${seed}` } : fileEvent(n, 20))}\n\n`,
        );
      const write = (chunk: string) => {
        if (!stream.state.cancelled) stream.write(chunk);
      };
      let text = '';
      for (const frame of frames) {
        text += frame;
        if (random() < 0.1) {
          // Split mid-frame sometimes.
          const cut = Math.floor(random() * text.length);
          write(text.slice(0, cut));
          text = text.slice(cut);
        }
        if (random() < 0.05) await tick(random() < 0.5 ? 0 : 1);
      }
      if (text !== '') write(text);
      if (mode === 'fail') {
        await expect.poll(() => stream.drained()).toBe(true);
        await tick(5);
        stream.fail(new Error('upstream broke'));
      } else if (mode !== 'terminal-open' && !stream.state.cancelled) stream.close();
      await reading;
      const context = `seed ${seed} mode ${mode} failAt ${failAt} batches ${batches}`;
      expect(sentBeforeRecorded, context).toEqual([]);
      const expectedLast = terminalAt > 0 ? terminalAt + 1 : total + 1;
      if (mode !== 'fail') expect(sent, context).toEqual(range(1, expectedLast));
      else expect(sent, context).toEqual(range(1, total + 1));
      const written = calls.flat();
      // Each event written at most once, in order; with no store failure, exactly the ones sent.
      expect(written, context).toEqual(range(1, written.length));
      if (failAt < 0) expect(written, context).toEqual(sent);
      if (mode === 'terminal-open') await expect.poll(() => stream.state.cancelled, { message: context }).toBe(true);
      if (failAt < 0) {
        await expect.poll(() => ops.filter((op) => op.startsWith('end')).length, { message: context }).toBe(1);
        const endAt = ops.findIndex((op) => op.startsWith('end'));
        expect(ops[endAt], context).toBe('end (in flight 0)');
        expect(
          ops.slice(endAt + 1).filter((op) => op.startsWith('append')),
          context,
        ).toEqual([]);
        const log = await inner.readEvents(`p-${seed}`, 0);
        expect(
          log?.events.map((event) => event.id),
          context,
        ).toEqual(sent);
      }
    }
  }, 60_000);
});

describe('odd upstream failures', () => {
  // Fails at 0981c10 (passes at 973881a): the recorder keeps the upstream's failure as `{ error }` and tests
  // `error !== undefined`, so a failure without a reason is taken for a clean end.
  it('an upstream body that errors without a reason is logged as failed, not completed', async () => {
    const { store } = instrumentedStore(() => tick(1));
    const { proxy, streams, logs } = setup(store);
    const text = (await proxy(generate())).text();
    const stream = streams[0]!;
    stream.event({ type: 'project_created', project_id: 'p-reasonless' });
    for (let n = 1; n <= 20; n++) stream.event(fileEvent(n));
    await expect.poll(() => stream.drained()).toBe(true);
    stream.fail(undefined as unknown as Error);
    expect(idsIn(await text)).toEqual(range(1, 21));
    await expect.poll(() => logs.some((entry) => entry.event === 'stream_closed')).toBe(true);
    const closed = logs.find((entry) => entry.event === 'stream_closed');
    expect(closed?.reason).toContain('upstream failed');
    expect(closed?.level).toBe('warn');
  });

  it('hostile event shapes never stop the relay or lose an event', async () => {
    const { store, calls } = instrumentedStore(() => tick(1));
    const { proxy, streams, logs } = setup(store);
    const text = (await proxy(generate())).text();
    const stream = streams[0]!;
    const odd: unknown[] = [
      { type: 'project_created', project_id: 'p-odd', app_url: { toString: 1 } },
      { type: 'file_created', path: {} },
      { type: 'file_created', path: null },
      { type: 'file_modified' },
      { type: 'tool_progress', tool: ['a'], message: 5 },
      { type: 'tool_call', tool: { __proto__: { x: 1 } } },
      { type: 'constructor' },
      { type: '__proto__' },
      { type: 'toString' },
      { type: 'project_created', project_id: 'p-other' },
      JSON.parse('{"__proto__": {"type": "stream_end"}, "type": "file_created", "path": "a"}'),
      { type: 'error', message: null, project_id: 7 },
    ];
    for (const event of odd) stream.event(event);
    stream.write('data: not json\n\n');
    stream.write('data: [1,2,3]\n\n');
    stream.write('data: null\n\n');
    stream.close();
    const sent = idsIn(await text);
    expect(sent.length).toBeGreaterThan(0);
    expect(sent).toEqual(range(1, sent.length));
    await expect.poll(() => logs.some((entry) => entry.event === 'stream_closed')).toBe(true);
    expect(logs.find((entry) => entry.event === 'stream_closed')?.reason).toContain('upstream completed');
    expect(calls.flat(), JSON.stringify(logs)).toEqual(sent);
  });
});
