/**
 * Issue 24: in a page whose scheduler can yield, a stream's request starts in a task of its own, so the click or
 * the resume that asked for it renders first and its task does not also carry the stream's setup and fetch.
 * The POST is still sent once. Node and jsdom have no `scheduler.yield`: there the request goes out at once.
 */
import { afterEach, expect, it, vi } from 'vitest';
import { createAgentClient, createHttpTransport, type StreamSlicing } from 'agent-embed/core';

afterEach(() => {
  vi.unstubAllGlobals();
});

const slicing: StreamSlicing = { now: () => 0, yieldTask: async () => {} };

function endedStream(): Response {
  const body = [
    { type: 'project_created', project_id: 'p1', app_url: 'https://p1.apps.test/' },
    { type: 'stream_end', project_id: 'p1', app_url: 'https://p1.apps.test/' },
  ]
    .map((event) => `data: ${JSON.stringify(event)}\n\n`)
    .join('');
  return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
}

/** A page whose `scheduler.yield()` resolves when the test says: the hops waiting for their task. */
function yieldingPage(): (() => void)[] {
  const hops: (() => void)[] = [];
  vi.stubGlobal('scheduler', { yield: () => new Promise<void>((resolve) => hops.push(resolve)) });
  return hops;
}

function clientWithFetch() {
  const fetch = vi.fn(async () => endedStream());
  const client = createAgentClient({
    transport: createHttpTransport({ baseUrl: 'https://proxy.test/api', fetch, slicing }),
  });
  return { client, fetch };
}

it('in a page that can yield, the generate POST is sent in a task after the caller’s, and once', async () => {
  const hops = yieldingPage();
  const { client, fetch } = clientWithFetch();
  const result = client.generate({ prompt: 'A recipe box with tags' });
  for (let turn = 0; turn < 20; turn++) await Promise.resolve();
  // The caller's task is over and nothing was sent: the request waits for its own task.
  expect(hops).toHaveLength(1);
  expect(fetch).not.toHaveBeenCalled();
  hops[0]?.();
  expect((await result).outcome).toBe('completed');
  expect(fetch).toHaveBeenCalledTimes(1);
});

it('a stream cancelled before its task came sends nothing', async () => {
  const hops = yieldingPage();
  const { client, fetch } = clientWithFetch();
  const controller = new AbortController();
  const result = client.generate({ prompt: 'A recipe box with tags' }, { signal: controller.signal });
  await Promise.resolve();
  controller.abort();
  hops[0]?.();
  expect((await result).outcome).toBe('aborted');
  expect(fetch).not.toHaveBeenCalled();
});

it('without a scheduler that can yield (Node, jsdom), the POST is sent at once', async () => {
  const { client, fetch } = clientWithFetch();
  const result = client.generate({ prompt: 'A recipe box with tags' });
  for (let turn = 0; turn < 20; turn++) await Promise.resolve();
  expect(fetch).toHaveBeenCalledTimes(1);
  await result;
});
