/**
 * Two proxy instances on one real Redis, in front of one mock Agent API. Requests alternate between the
 * instances (a round-robin front), so every guarantee must hold across instances.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConversationBody, ProjectListBody } from 'agent-embed/core';
import { startMockAgentServer, type MockAgentServer } from 'agent-embed/mock';
import { createAgentProxy, type RedisProxyStore } from 'agent-embed/server';
import { authorize, basePath, serveHandler, sessionCookie, type Person } from '../server/proxy-stack.js';
import { readSse, typesOf } from '../server/sse-reader.js';
import { useTestRedis } from './redis-server.js';

const redis = useTestRedis();
const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of cleanup.splice(0).reverse()) await close();
});

interface Instance {
  origin: string;
  store: RedisProxyStore;
  close(): Promise<void>;
}

/** A mock upstream that records its answers, and a way to start proxy instances on one key prefix. */
async function cluster(mockOptions: Parameters<typeof startMockAgentServer>[0] = {}) {
  const mock: MockAgentServer = await startMockAgentServer({ port: 0, speed: 'instant', ...mockOptions });
  cleanup.push(() => mock.close());
  const keyPrefix = `test-${randomUUID()}:`;
  const upstream: { status: number; path: string }[] = [];
  const startInstance = async (): Promise<Instance> => {
    const store = redis.newStore({ keyPrefix });
    await store.ready();
    const proxy = createAgentProxy({
      apiBaseUrl: mock.url,
      apiToken: mock.token,
      basePath,
      authorize,
      store,
      fetch: async (input, init) => {
        const response = await globalThis.fetch(input, init);
        upstream.push({ status: response.status, path: new URL(String(input)).pathname });
        return response;
      },
    });
    const served = await serveHandler(proxy);
    const instance = {
      origin: served.origin,
      store,
      close: async () => {
        await served.close();
        await store.close();
      },
    };
    cleanup.push(instance.close);
    return instance;
  };
  const instances = [await startInstance(), await startInstance()];
  let turn = 0;
  /** Sends through the front: the next instance in turn, unless one is named. */
  const send = (person: Person, method: string, path: string, init: RequestInit & { via?: number } = {}) => {
    const instance = instances[init.via ?? turn++ % instances.length] as Instance;
    return fetch(`${instance.origin}${basePath}${path}`, {
      ...init,
      method,
      headers: { cookie: sessionCookie(person), 'content-type': 'application/json', ...init.headers },
    });
  };
  const generate = (person: Person, prompt: string, via?: number) =>
    send(person, 'POST', '/agent/generate', {
      body: JSON.stringify({ prompt }),
      ...(via === undefined ? {} : { via }),
    });
  const projectOf = (events: { data: string }[]) =>
    (JSON.parse(events[0]?.data ?? '{}') as { project_id: string }).project_id;
  const restart = async () => {
    for (const instance of instances.splice(0)) await instance.close();
    instances.push(await startInstance(), await startInstance());
  };
  return { mock, upstream, send, generate, projectOf, restart };
}

describe('the proxy on Redis, two instances', () => {
  it('keeps ownership, projects and conversations across instances and a restart of both', async () => {
    const { send, generate, projectOf, restart } = await cluster();
    const projectId = projectOf(await readSse(await generate('alice', 'A landing page for a bakery', 0)));
    expect((await send('alice', 'GET', `/agent/project/${projectId}`, { via: 1 })).status).toBe(200);
    expect((await send('bob', 'GET', `/agent/project/${projectId}`, { via: 1 })).status).toBe(404);
    await restart();
    for (const via of [0, 1]) {
      expect((await send('alice', 'GET', `/agent/project/${projectId}`, { via })).status).toBe(200);
      expect((await send('bob', 'GET', `/agent/project/${projectId}`, { via })).status).toBe(404);
      const list = (await (await send('alice', 'GET', '/projects', { via })).json()) as ProjectListBody;
      expect(list.projects.map((project) => project.project_id)).toEqual([projectId]);
      const conversation = (await (
        await send('alice', 'GET', `/projects/${projectId}/conversation`, { via })
      ).json()) as ConversationBody;
      expect(conversation.turns).toHaveLength(1);
      expect(conversation.turns[0]).toMatchObject({ kind: 'generate', prompt: 'A landing page for a bakery' });
      expect(conversation.turns[0]?.outcome?.status).toBe('completed');
    }
    // A follow-up through the other instance than the one that saw the project created.
    const followUp = await readSse(
      await send('alice', 'POST', `/agent/generate/${projectId}`, {
        via: 1,
        body: JSON.stringify({ prompt: 'Make the header blue please' }),
      }),
    );
    expect(typesOf(followUp).at(-1)).toBe('stream_end');
  });

  it('keeps 40 burst generations across both instances within the upstream limit, with no upstream 429', async () => {
    const { generate, upstream } = await cluster({ rateLimit: { limit: 10, windowMs: 60_000 } });
    const people: Person[] = ['alice', 'bob'];
    const answers = await Promise.all(
      Array.from({ length: 40 }, async (_, index) => {
        const response = await generate(people[index % 2] as Person, `A burst project number ${index}`);
        await response.arrayBuffer();
        return response.status;
      }),
    );
    const generated = upstream.filter((exchange) => exchange.path.endsWith('/agent/generate'));
    expect(generated.length).toBeLessThanOrEqual(10);
    expect(upstream.map((exchange) => exchange.status)).not.toContain(429);
    expect(answers.filter((status) => status === 200)).toHaveLength(generated.length);
    expect(answers.filter((status) => status !== 200).every((status) => status === 429)).toBe(true);
    // Who gets the burst depends on which instance's requests reach Redis first (the budget is work-
    // conserving: one active user may use the whole window); that a waiting user is served next, across
    // instances, is test/redis/budget-script.test.ts's waiter-priority case on a 1 s window.
  });

  it('serves 30 concurrent status polls across both instances with at most 2 upstream requests', async () => {
    const { send, generate, projectOf, upstream } = await cluster();
    const projectId = projectOf(await readSse(await generate('alice', 'A todo list for a small team')));
    const burst = async () => {
      const before = upstream.length;
      const answers = await Promise.all(
        Array.from({ length: 30 }, async () => {
          const response = await send('alice', 'GET', `/agent/project/${projectId}`);
          return { status: response.status, body: (await response.json()) as { project_id: string } };
        }),
      );
      expect(answers.every((answer) => answer.status === 200 && answer.body.project_id === projectId)).toBe(true);
      return upstream.length - before;
    };
    expect(await burst()).toBeLessThanOrEqual(2);
    // Once the cached answer expires, the next burst refreshes it once again (the claim was released).
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    expect(await burst()).toBeLessThanOrEqual(2);
  });

  it('resumes on instance B a build started on A and cut after 3 events: replayed plus live equal the original', async () => {
    const { mock, send, generate, projectOf } = await cluster();
    mock.api.admin.injectFault({ kind: 'slow_drip', intervalMs: 40 });
    const cut = await readSse(await generate('alice', 'A portfolio for a photographer', 0), 3);
    const projectId = projectOf(cut);
    const resumed = await readSse(
      await send('alice', 'GET', `/projects/${projectId}/events`, { via: 1, headers: { 'last-event-id': '3' } }),
    );
    const whole = [...cut, ...resumed];
    expect(whole.map((event) => event.id)).toEqual(whole.map((_, index) => index + 1));
    // The whole recorded generation, replayed from the start on either instance, is the same stream.
    const replayed = await readSse(await send('alice', 'GET', `/projects/${projectId}/events`, { via: 0 }));
    expect(whole).toEqual(replayed);
    expect(typesOf(whole).at(-1)).toBe('stream_end');
    const uncut = await readSse(await generate('alice', 'A portfolio for a photographer'));
    expect(typesOf(whole)).toEqual(typesOf(uncut));
  });

  it('answers another user 404 on every new route, and lists none of the owner’s projects', async () => {
    const { send, generate, projectOf } = await cluster();
    const projectId = projectOf(await readSse(await generate('alice', 'A recipe book with search')));
    for (const via of [0, 1]) {
      for (const path of [`/projects/${projectId}/conversation`, `/projects/${projectId}/events`]) {
        const refused = await send('bob', 'GET', path, { via });
        expect(refused.status).toBe(404);
        expect(await refused.json()).toEqual({ status: false, message: 'Project not found.' });
      }
      expect(((await (await send('bob', 'GET', '/projects', { via })).json()) as ProjectListBody).projects).toEqual([]);
    }
  });

  it('answers 503 while Redis is down, fails closed, and recovers when Redis returns', async () => {
    const { send, generate, projectOf, upstream } = await cluster();
    const projectId = projectOf(await readSse(await generate('alice', 'A landing page for a florist')));
    await redis.server.stop();
    try {
      const sentBefore = upstream.length;
      const refused = await generate('alice', 'A landing page while Redis is down');
      expect(refused.status).toBe(503);
      expect(((await refused.json()) as { message: string }).message).toMatch(/temporarily unavailable/);
      for (const person of ['alice', 'bob'] as const) {
        const status = await send(person, 'GET', `/agent/project/${projectId}`);
        expect(status.status).toBe(503);
        expect((await send(person, 'GET', `/projects/${projectId}/conversation`)).status).toBe(503);
      }
      expect(upstream.length).toBe(sentBefore);
    } finally {
      await redis.server.start();
    }
    // The clients reconnect on their own; Redis came back empty (no persistence in this test).
    await expect
      .poll(async () => (await generate('alice', 'A landing page after Redis returned')).status, { timeout: 15_000 })
      .toBe(200);
  });
});
