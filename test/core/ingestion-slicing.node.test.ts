/**
 * Issue 24: a stream's events are applied in time slices, handing the thread back between them. The clock
 * and the yield are injected, so the slicing is tested without timing anything: a fake clock that advances
 * one millisecond per read, and a yield that records where each slice ended.
 */
import { describe, expect, it } from 'vitest';
import {
  createAgentClient,
  createAgentStore,
  createHttpTransport,
  type AgentEvent,
  type StreamSlicing,
} from 'agent-embed/core';

const appUrl = 'https://p1.apps.test/';

/** A build of `files` file events and a tool step every tenth, between project_created and stream_end. */
function buildEvents(files: number): AgentEvent[] {
  const events: AgentEvent[] = [{ type: 'project_created', project_id: 'p1', app_url: appUrl }];
  for (let index = 0; index < files; index++) {
    events.push({ type: 'file_created', path: `src/file-${index % 700}.ts`, action: 'created' });
    if (index % 10 === 0)
      events.push({ type: 'tool_progress', tool: 'write', message: `Step ${index}`, status: 'running' });
  }
  events.push({ type: 'stream_end', project_id: 'p1', app_url: appUrl });
  return events;
}

/** The events as the proxy sends them (numbered), cut into network chunks of `chunkBytes`. */
function streamOf(events: AgentEvent[], chunkBytes: number): () => Response {
  const bytes = new TextEncoder().encode(
    events.map((event, index) => `id: ${index + 1}\ndata: ${JSON.stringify(event)}\n\n`).join(''),
  );
  return () =>
    new Response(
      new ReadableStream<Uint8Array>({
        start(controller) {
          for (let offset = 0; offset < bytes.length; offset += chunkBytes)
            controller.enqueue(bytes.slice(offset, offset + chunkBytes));
          controller.close();
        },
      }),
      { headers: { 'content-type': 'text/event-stream' } },
    );
}

/** A clock that advances 1 ms per read and a yield that notes how many events were delivered before it. */
function fakeSlicing(delivered: () => number, onYield?: (index: number) => void) {
  let clock = 0;
  const slices: number[] = [];
  const slicing: StreamSlicing = {
    now: () => clock++,
    yieldTask: async () => {
      slices.push(delivered());
      onYield?.(slices.length);
    },
  };
  return { slicing, slices };
}

function clientOver(response: () => Response, slicing: StreamSlicing | null) {
  return createAgentClient({
    transport: createHttpTransport({ baseUrl: 'http://127.0.0.1:1/api/v1', fetch: async () => response(), slicing }),
  });
}

describe('time-sliced ingestion', () => {
  const events = buildEvents(2000);

  it.each([
    ['one chunk', 1 << 24],
    ['16 KiB chunks', 16 * 1024],
    ['small chunks', 700],
  ])('a burst in %s is applied in several slices, in order, nothing lost', async (_name, chunkBytes) => {
    const seen: AgentEvent[] = [];
    const { slicing, slices } = fakeSlicing(() => seen.length);
    const client = clientOver(streamOf(events, chunkBytes), slicing);
    const result = await client.generate({ prompt: 'A todo list app' }, { onEvent: (event) => seen.push(event) });
    expect(result.outcome).toBe('completed');
    expect(seen).toEqual(events);
    // 2,202 events with a clock read every 32 and a deadline of 8 reads: many slices, none of them empty.
    expect(slices.length).toBeGreaterThan(5);
    const sizes = slices.map((count, index) => count - (slices[index - 1] ?? 0));
    expect(Math.max(...sizes)).toBeLessThanOrEqual(8 * 32);
    expect(slices).toEqual([...slices].sort((a, b) => a - b));
  });

  it('slow events (a slow handler, a slow device) are timed one by one: no slice runs 32 of them past its deadline', async () => {
    let clock = 0;
    const seen: AgentEvent[] = [];
    const slices: number[] = [];
    const slicing: StreamSlicing = { now: () => clock, yieldTask: async () => void slices.push(seen.length) };
    const build = [...events.slice(0, 199), events.at(-1) as AgentEvent];
    const result = await clientOver(streamOf(build, 16 * 1024), slicing).generate(
      { prompt: 'A todo list app' },
      {
        onEvent(event) {
          seen.push(event);
          clock += 5;
        },
      },
    );
    expect(result.outcome).toBe('completed');
    expect(seen).toHaveLength(200);
    // 5 ms an event and a slice of 8 ms: the first slice reads the clock after 32 events, as any does while events are
    // fast; found slow, the clock is read after each event, so every later slice ends after its second.
    const sizes = slices.map((count, index) => count - (slices[index - 1] ?? 0));
    expect(sizes[0]).toBe(32);
    expect(Math.max(...sizes.slice(1))).toBeLessThanOrEqual(2);
  });

  it('fast events read the clock every 32', async () => {
    let clock = 0;
    let reads = 0;
    const slicing: StreamSlicing = {
      now: () => {
        reads++;
        return clock;
      },
      yieldTask: async () => {},
    };
    const result = await clientOver(streamOf(events, 1 << 24), slicing).generate(
      { prompt: 'A todo list app' },
      { onEvent: () => void (clock += 0.01) },
    );
    expect(result.outcome).toBe('completed');
    // 2,202 events: a read every 32 (69), and a few more (the stream's start, its chunk's arrival): never every few events.
    expect(reads).toBeGreaterThanOrEqual(2202 / 32);
    expect(reads).toBeLessThan(2202 / 24);
  });

  it('a clock that does not advance never yields: the same loop runs straight through', async () => {
    const seen: AgentEvent[] = [];
    let yields = 0;
    const slicing: StreamSlicing = { now: () => 0, yieldTask: async () => void yields++ };
    const result = await clientOver(streamOf(events, 4096), slicing).generate(
      { prompt: 'A todo list app' },
      { onEvent: (event) => seen.push(event) },
    );
    expect(result.outcome).toBe('completed');
    expect(seen).toHaveLength(events.length);
    expect(yields).toBe(0);
  });

  it('an abort between two slices stops cleanly: nothing is applied after it', async () => {
    const controller = new AbortController();
    const seen: AgentEvent[] = [];
    let abortedAt = -1;
    const { slicing } = fakeSlicing(
      () => seen.length,
      (index) => {
        if (index !== 2) return;
        abortedAt = seen.length;
        controller.abort();
      },
    );
    const result = await clientOver(streamOf(events, 1 << 24), slicing).generate(
      { prompt: 'A todo list app' },
      { signal: controller.signal, onEvent: (event) => seen.push(event) },
    );
    expect(result.outcome).toBe('aborted');
    expect(abortedAt).toBeGreaterThan(0);
    expect(seen).toHaveLength(abortedAt);
    expect(seen).toEqual(events.slice(0, abortedAt));
  });

  it("the store's generation after a sliced stream equals the unsliced fold", async () => {
    async function generationOver(slicing: StreamSlicing | null) {
      const store = createAgentStore({
        client: clientOver(streamOf(events, 16 * 1024), slicing),
        storage: null,
        scheduleFlush: (flush) => {
          const handle = setTimeout(flush, 1);
          return () => clearTimeout(handle);
        },
      });
      const result = await store.getState().generate({ prompt: 'A todo list app' });
      const {
        startedAt: _startedAt,
        firstEventAt: _firstEventAt,
        endedAt: _endedAt,
        tools,
        ...generation
      } = store.getState().generations.p1!;
      store.destroy();
      return { result, generation, tools: tools.map(({ at: _at, ...step }) => step) };
    }
    let read = 0;
    const sliced = await generationOver(fakeSlicing(() => read++).slicing);
    const unsliced = await generationOver(null);
    expect(read).toBeGreaterThan(5);
    expect(sliced.result).toEqual(unsliced.result);
    expect(sliced.generation).toEqual(unsliced.generation);
    expect(sliced.tools).toEqual(unsliced.tools);
    expect(sliced.generation).toMatchObject({
      status: 'completed',
      fileCount: 700,
      modifiedCount: 700,
      eventCount: 2202,
    });
  });
});

describe('a chunk that arrives after the slice ran out', () => {
  it('starts in a new task: its events never lengthen the task that received it', async () => {
    const events = buildEvents(8);
    const text = events.map((event, index) => `id: ${index + 1}\ndata: ${JSON.stringify(event)}\n\n`).join('');
    const bytes = new TextEncoder().encode(text);
    const cut = text.indexOf('\n\n', text.length / 2) + 2;
    const firstChunkEvents = text.slice(0, cut).split('\n\n').length - 1;
    let clock = 0;
    const seen: AgentEvent[] = [];
    const yieldsAt: number[] = [];
    const slicing: StreamSlicing = { now: () => clock, yieldTask: async () => void yieldsAt.push(seen.length) };
    const response = () =>
      new Response(
        new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(bytes.slice(0, cut));
            controller.enqueue(bytes.slice(cut));
            controller.close();
          },
        }),
        { headers: { 'content-type': 'text/event-stream' } },
      );
    const result = await clientOver(response, slicing).generate(
      { prompt: 'A todo list app' },
      {
        onEvent(event) {
          seen.push(event);
          // The second chunk arrives 100 ms after the first one's events were applied: in a task of its own.
          if (seen.length === firstChunkEvents) clock += 100;
        },
      },
    );
    expect(result.outcome).toBe('completed');
    expect(seen).toEqual(events);
    // Fewer events than a clock check's 32: only the late chunk's arrival yields, before any of its events.
    expect(firstChunkEvents).toBeGreaterThan(0);
    expect(firstChunkEvents).toBeLessThan(events.length);
    expect(yieldsAt).toEqual([firstChunkEvents]);
  });
});
