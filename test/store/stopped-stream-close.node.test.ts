/**
 * A stream read on for a stopped build's name (docs/architecture.md: "A stop before the project is named still learns
 * the name") is the store's to close: `reset()` and `destroy()` cancel its reader at once, not at its next event or at
 * the proxy's idle deadline, and nothing it carries afterwards reaches the store. Over the real HTTP transport, with a
 * fetch whose event stream stays open until the test writes to it.
 */
import { describe, expect, it } from 'vitest';
import { createAgentClient, createHttpTransport, type AgentEvent } from 'agent-embed/core';
import { created, createScriptedStore, settle } from './fakes.js';

/** One generate POST's answer: an event stream the test writes to, whose reader's cancellation it sees. */
interface OpenStream {
  /** The page asked for the next chunk: the stream is being read. */
  reading: Promise<void>;
  readonly cancelled: boolean;
  /** Writes an event; false once the reader has cancelled the stream (it can carry nothing more). */
  write(event: AgentEvent): boolean;
}

/** A fetch that answers every generate POST with an open event stream, and counts the other requests. */
function openStreamFetch() {
  const streams: OpenStream[] = [];
  const otherRequests: string[] = [];
  const encoder = new TextEncoder();
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (init?.method !== 'POST') {
      otherRequests.push(url);
      return new Response(JSON.stringify({ status: false, message: 'Not found.' }), {
        status: 404,
        headers: { 'content-type': 'application/json' },
      });
    }
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    let cancelled = false;
    let startedReading!: () => void;
    const reading = new Promise<void>((resolve) => {
      startedReading = resolve;
    });
    const body = new ReadableStream<Uint8Array>(
      {
        start: (given) => {
          controller = given;
        },
        pull: () => startedReading(),
        cancel: () => {
          cancelled = true;
        },
      },
      { highWaterMark: 0 },
    );
    streams.push({
      reading,
      get cancelled() {
        return cancelled;
      },
      write(event) {
        if (cancelled) return false;
        controller.enqueue(encoder.encode(`data: ${JSON.stringify(event)}\n\n`));
        return true;
      },
    });
    return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
  };
  return { fetch, streams, otherRequests };
}

/** A store over the HTTP transport and that fetch, with manual timers and frames, nothing stored. */
function setup() {
  const server = openStreamFetch();
  const transport = createHttpTransport({ baseUrl: 'https://agency.example.test/api/agent', fetch: server.fetch });
  const { store, timers } = createScriptedStore({ client: createAgentClient({ transport }), storage: null });
  let notifications = 0;
  store.subscribe(() => {
    notifications++;
  });
  return { store, server, timers, notifications: () => notifications };
}

/** Starts a build and waits until its stream is being read. */
async function buildBeingRead(page: ReturnType<typeof setup>): Promise<OpenStream> {
  void page.store.getState().generate({ prompt: 'A todo app with tags' });
  while (page.server.streams.length === 0) await settle();
  const stream = page.server.streams[0]!;
  await stream.reading;
  return stream;
}

/** After the close: the stream's name, had it come, changes nothing, and no status poll or list request goes. */
async function nothingMoreReachesTheStore(page: ReturnType<typeof setup>, stream: OpenStream): Promise<void> {
  const notificationsBefore = page.notifications();
  const written = stream.write(created('p1'));
  expect(written).toBe(false);
  await settle();
  await page.timers.advance(10_000);
  expect(page.store.getState().generations).toEqual({});
  expect(page.store.getState().currentKey).toBeUndefined();
  expect(page.store.getState().projects).toEqual({});
  expect(page.notifications()).toBe(notificationsBefore);
  expect(page.server.otherRequests).toEqual([]);
  expect(page.server.streams).toHaveLength(1);
}

describe('a stream read on for a stopped build’s name', () => {
  it('is read on after Stop watching (the name may still come)', async () => {
    const page = setup();
    const stream = await buildBeingRead(page);
    page.store.getState().stopWatching();
    await settle();
    expect(stream.cancelled).toBe(false);
    page.store.destroy();
  });

  it('reset() after Stop watching cancels its reader at once, and nothing it carries reaches the store', async () => {
    const page = setup();
    const stream = await buildBeingRead(page);
    page.store.getState().stopWatching();
    await settle();
    expect(stream.cancelled).toBe(false);
    page.store.getState().reset();
    await settle();
    expect(stream.cancelled).toBe(true);
    await nothingMoreReachesTheStore(page, stream);
  });

  it('reset() of a build still watched, before its name, cancels its reader too (not kept to read the name)', async () => {
    const page = setup();
    const stream = await buildBeingRead(page);
    stream.write({ type: 'container_progress', percentage: 10, message: 'Preparing' });
    await settle();
    page.store.getState().reset();
    await settle();
    expect(stream.cancelled).toBe(true);
    await nothingMoreReachesTheStore(page, stream);
  });

  it('destroy() after Stop watching cancels its reader at once', async () => {
    const page = setup();
    const stream = await buildBeingRead(page);
    page.store.getState().stopWatching();
    await settle();
    page.store.destroy();
    await settle();
    expect(stream.cancelled).toBe(true);
    expect(stream.write(created('p1'))).toBe(false);
    expect(page.server.otherRequests).toEqual([]);
  });
});
