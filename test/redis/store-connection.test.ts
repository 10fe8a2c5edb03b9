/**
 * The Redis store at its edges: a fresh store serves its first request without `ready()`, a connection that
 * never opens answers 503 after `connectTimeoutMs`, a Redis that stops answering 503 after `commandTimeoutMs`, and a follower on one instance is woken by Redis when
 * another instance records an event (the added latency is printed, never asserted).
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { firstEventIdOfGeneration } from 'agent-embed/core';
import { createAgentProxy, ProxyStoreUnavailableError, type ProxyStore } from 'agent-embed/server';
import { authorize, basePath, sessionCookie } from '../server/proxy-stack.js';
import { useTestRedis, type TestStoreOptions } from './redis-server.js';

const redis = useTestRedis();
const newStore = (options: TestStoreOptions = {}) => redis.newStore({ onError: () => undefined, ...options });

function proxyOn(store: ProxyStore) {
  return createAgentProxy({
    apiBaseUrl: 'http://upstream.invalid/api/v1',
    apiToken: 'test-token',
    basePath,
    authorize,
    store,
  });
}

const listProjects = (proxy: ReturnType<typeof proxyOn>) =>
  proxy(new Request(`http://proxy.test${basePath}/projects`, { headers: { cookie: sessionCookie('alice') } }));

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === 'object' && address !== null ? address.port : 1;
}

describe('the first connection', () => {
  it("serves a fresh store's first request without ready()", async () => {
    const response = await listProjects(proxyOn(newStore()));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: true, projects: [] });
  });

  it('answers 503 after connectTimeoutMs when the connection never opens', async () => {
    const store = newStore({ url: `redis://127.0.0.1:${await closedPort()}`, connectTimeoutMs: 200 });
    await expect(store.getProjectOwner('p-1')).rejects.toBeInstanceOf(ProxyStoreUnavailableError);
    const response = await listProjects(proxyOn(store));
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('5');
  });
});

describe('a Redis that stops answering', () => {
  it('answers 503 after commandTimeoutMs while its socket stays open, and serves again once it answers', async () => {
    const store = newStore({ commandTimeoutMs: 300 });
    const proxy = proxyOn(store);
    expect((await listProjects(proxy)).status).toBe(200);
    redis.server.pause();
    try {
      await expect(store.getProjectOwner('p-1')).rejects.toBeInstanceOf(ProxyStoreUnavailableError);
      const response = await listProjects(proxy);
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('5');
    } finally {
      redis.server.resume();
    }
    await expect.poll(async () => (await listProjects(proxy)).status).toBe(200);
  });
});

const completed = { status: 'completed', files_created: 0, files_modified: 0, steps: 0 } as const;

/** Reads a proxy's SSE answer, calling `onEvent` with each event id as it arrives. */
async function follow(response: Response, onEvent: (id: number) => void): Promise<void> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    text += decoder.decode(value, { stream: true });
    for (const match of text.matchAll(/^id: (\d+)$/gm)) onEvent(Number(match[1]));
    text = text.slice(text.lastIndexOf('\n\n') + 2);
  }
}

/** Records a build on `recorder`, followed through a proxy on `follower`; returns each event's delay in ms. */
async function followAcrossInstances(recorder: ProxyStore, follower: ProxyStore, projectId: string) {
  await recorder.setProjectOwner(projectId, 'alice');
  const generation = await recorder.beginGeneration(projectId, 'alice', {
    kind: 'generate',
    prompt: 'A landing page for a bakery',
    mode: 'build',
    at: new Date().toISOString(),
    outcome: null,
  });
  const first = firstEventIdOfGeneration(generation);
  const data = (index: number) => JSON.stringify({ type: 'file_created', path: `src/file-${index}.tsx` });
  await recorder.appendEvent(projectId, generation, { id: first, data: data(0) });
  const response = await proxyOn(follower)(
    new Request(`http://proxy.test${basePath}/projects/${projectId}/events`, {
      headers: { cookie: sessionCookie('alice') },
    }),
  );
  expect(response.status).toBe(200);
  const sentAt = new Map<number, number>();
  const delays: number[] = [];
  const seen: number[] = [];
  const reading = follow(response, (id) => {
    seen.push(id);
    const at = sentAt.get(id);
    if (at !== undefined) delays.push(performance.now() - at);
  });
  // Events arrive at irregular gaps, as from a real build.
  for (let index = 1; index <= 20; index++) {
    await new Promise((resolve) => setTimeout(resolve, 20 + ((index * 37) % 60)));
    sentAt.set(first + index, performance.now());
    await recorder.appendEvent(projectId, generation, { id: first + index, data: data(index) });
  }
  await recorder.endGeneration(projectId, generation, completed);
  await reading;
  expect(seen).toEqual(Array.from({ length: 21 }, (_, index) => first + index));
  return delays.sort((a, b) => a - b);
}

describe('followers of another instance', () => {
  it('are woken by Redis when an instance records an event, not by a poll', async () => {
    const keyPrefix = `wake-${randomUUID()}:`;
    const recorder = newStore({ keyPrefix });
    const follower = newStore({ keyPrefix });
    const woken = await followAcrossInstances(recorder, follower, 'p-woken');
    // The same follower without a watch falls back to polling every 250 ms.
    const polling: ProxyStore = Object.assign(Object.create(follower) as ProxyStore, { watchEvents: undefined });
    const polled = await followAcrossInstances(recorder, polling, 'p-polled');
    const at = (delays: number[], share: number) =>
      (delays[Math.min(delays.length - 1, Math.floor(delays.length * share))] ?? NaN).toFixed(1);
    console.log(
      `follower latency across instances, 20 events: woken by Redis p50 ${at(woken, 0.5)} ms, max ${at(woken, 1)} ms; ` +
        `polled every 250 ms p50 ${at(polled, 0.5)} ms, max ${at(polled, 1)} ms`,
    );
    expect(woken).toHaveLength(20);
  });

  it('stop listening when the follower goes', async () => {
    const keyPrefix = `unwatch-${randomUUID()}:`;
    const recorder = newStore({ keyPrefix });
    const follower = newStore({ keyPrefix });
    let calls = 0;
    const unwatch = await follower.watchEvents?.('p-unwatch', () => calls++);
    expect(unwatch).toBeTypeOf('function');
    await recorder.beginGeneration('p-unwatch', 'alice', {
      kind: 'generate',
      prompt: 'A landing page for a bakery',
      mode: 'build',
      at: new Date().toISOString(),
      outcome: null,
    });
    await expect.poll(() => calls).toBe(1);
    unwatch?.();
    await recorder.appendEvent('p-unwatch', 1, { id: 1, data: '{}' });
    await recorder.endGeneration('p-unwatch', 1, completed);
    // A round trip through Redis after the publishes: a listener still subscribed would have been called.
    await recorder.getProjectOwner('p-unwatch');
    await follower.getProjectOwner('p-unwatch');
    expect(calls).toBe(1);
  });
});
