/**
 * The in-browser mock in a worker: `serveMockInWorker` runs here in a stand-in worker (a `self` and a `postMessage` of
 * its own, messages cloned and buffers transferred as between threads), and `createWorkerMockTransport` reaches it as a
 * page does. Real Chromium runs the same pair with a module worker in test/mock/mock-worker.browser.test.tsx.
 */
import { createAgentClient, fetchThroughWorker, type AgentEvent } from 'agent-embed/core';
import {
  MockAdminError,
  createWorkerMockTransport,
  serveMockInWorker,
  type MockTransportOptions,
} from 'agent-embed/mock';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

/** What the page posted to the worker, in order (the protocol's `type`s). */
let posted: string[] = [];

// The worker's globals, stubbed for the whole file: a worker's program may still post after its test has ended.
const workerSelf: { onmessage?: (message: { data: unknown }) => void } = {};
let workerPost: (data: unknown, transfer?: { transfer?: Transferable[] }) => void = () => {};
beforeAll(() => {
  vi.stubGlobal('self', workerSelf);
  vi.stubGlobal('postMessage', (data: unknown, transfer?: { transfer?: Transferable[] }) => workerPost(data, transfer));
});
afterAll(() => vi.unstubAllGlobals());

/** A worker in this thread whose program is `serveMockInWorker(options)`; `stop()` makes it fail as a crashed one. */
function startMockWorker(options: MockTransportOptions = {}) {
  let alive = true;
  const requests: number[] = [];
  const worker = {
    onmessage: null as ((message: MessageEvent) => void) | null,
    onerror: null as ((event: Event) => void) | null,
    postMessage(data: { type: string; id?: number }) {
      posted.push(data.type);
      if (data.type === 'fetch') requests.push(data.id!);
      const copy = structuredClone(data);
      queueMicrotask(() => alive && receive?.({ data: copy }));
    },
    terminate() {
      alive = false;
    },
  };
  workerPost = (data, transfer) => {
    const copy = structuredClone(data, transfer);
    queueMicrotask(() => alive && worker.onmessage?.(new MessageEvent('message', { data: copy })));
  };
  const mock = serveMockInWorker({ speed: 'instant', credits: 10_000, ...options });
  const receive = workerSelf.onmessage;
  // A worker that stops takes its streams with it: here its program is told to end them.
  const stop = () => {
    alive = false;
    for (const id of requests) receive?.({ data: { type: 'abort', id } });
    worker.onerror?.(new Event('error'));
  };
  return { worker: worker as unknown as Worker, mock, stop };
}

const generatePosts = (mock: ReturnType<typeof serveMockInWorker>) =>
  mock.api.admin.requests.filter((request) => request.method === 'POST' && request.path.endsWith('/agent/generate'));

afterEach(() => {
  posted = [];
});

describe('createWorkerMockTransport over serveMockInWorker', () => {
  it('streams a whole build from the worker’s mock and proxy, its POST sent once', async () => {
    const { worker, mock } = startMockWorker({ scenario: { files: 400 } });
    const client = createAgentClient({ transport: createWorkerMockTransport(worker) });
    const events: AgentEvent['type'][] = [];
    const result = await client.generate(
      { prompt: 'Build a todo app with dark mode' },
      { onEvent: (event) => events.push(event.type) },
    );
    expect(result.outcome).toBe('completed');
    expect(events.filter((type) => type === 'file_created')).toHaveLength(400);
    expect(events.at(-1)).toBe('stream_end');
    expect(generatePosts(mock)).toHaveLength(1);
    // The proxy in the worker owns what it built, for this end user: its own routes answer as in the page.
    const [project] = await client.projects.list();
    expect(project?.project_id).toBe(result.projectId);
    expect(mock.api.admin.projects()[0]?.files).toHaveLength(400);
  });

  it('answers the proxy’s errors as they are, with their status and message', async () => {
    const { worker, mock } = startMockWorker({ credits: 0 });
    const client = createAgentClient({ transport: createWorkerMockTransport(worker) });
    await expect(client.generate({ prompt: 'Build a todo app with dark mode' })).rejects.toMatchObject({
      code: 'insufficient_credits',
      status: 400,
      message: 'Not enough credits. Please purchase more credits to continue.',
    });
    expect(generatePosts(mock)).toHaveLength(1);
  });

  it('stops the worker’s stream when the page cancels it', async () => {
    const { worker, mock } = startMockWorker({ scenario: { files: 2000 } });
    const client = createAgentClient({ transport: createWorkerMockTransport(worker) });
    const controller = new AbortController();
    let files = 0;
    const run = client.generate(
      { prompt: 'Build a todo app with dark mode' },
      {
        signal: controller.signal,
        onEvent: (event) => {
          if (event.type === 'file_created' && ++files === 10) controller.abort();
        },
      },
    );
    await expect(run).resolves.toMatchObject({ outcome: 'aborted' });
    expect(posted).toContain('abort');
    await vi.waitFor(() => expect(mock.api.admin.projects()[0]?.status).toBeDefined());
    expect(files).toBeLessThan(2000);
    expect(generatePosts(mock)).toHaveLength(1);
  });
});

describe('the admin of a mock in a worker', () => {
  it('sets the worker’s mock up from the page and reads it back, each call answered once it is done', async () => {
    const token = 'mock_story_0123456789';
    const { worker, mock } = startMockWorker({ token });
    const transport = createWorkerMockTransport(worker);
    const client = createAgentClient({ transport });
    const { admin } = transport;

    await admin.setCredits(0);
    expect(mock.api.admin.credits()).toBe(0);
    expect(await admin.credits()).toBe(0);
    await expect(client.generate({ prompt: 'Build a todo app with dark mode' })).rejects.toMatchObject({
      code: 'insufficient_credits',
    });
    await admin.setCredits(500);
    await admin.injectFault({ kind: 'error_event', afterEvents: 3, message: 'The build failed.' });
    expect(await admin.pendingFaults()).toEqual([
      { kind: 'error_event', afterEvents: 3, message: 'The build failed.' },
    ]);
    const failed = await client.generate({ prompt: 'Build a todo app with dark mode' });
    expect(failed.outcome).toBe('failed');
    const [project] = await admin.projects();
    expect(project?.id).toBe(failed.projectId);
    expect((await admin.requests()).filter((request) => request.path.endsWith('/agent/generate'))).toHaveLength(2);

    // The page picked the default token, so it can revoke it: the admin's JSON never shows one.
    expect(JSON.stringify(await admin.state())).not.toContain(token);
    await admin.revokeToken(token);
    await expect(client.generate({ prompt: 'Build a todo app with dark mode' })).rejects.toMatchObject({ status: 401 });
  });

  it('answers a request with a token from the mock itself, as the agency’s server reaches it, and the rest through the proxy', async () => {
    const { worker, mock } = startMockWorker({ token: 'mock_server_token_1' });
    const { fetch } = createWorkerMockTransport(worker);
    const plans = 'http://mock.agent-embed.test/api/v1/subscription-plans';
    expect((await fetch(plans, { headers: { authorization: 'Bearer mock_server_token_1' } })).status).toBe(200);
    // A wrong token reaches the mock too, which refuses it; the proxy would have sent its own.
    const refused = await fetch(plans, { headers: { authorization: 'Bearer mock_not_the_token' } });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ message: 'Unauthorized.' });
    expect((await fetch(plans)).status).toBe(200);
    expect(mock.api.admin.requests.map((request) => request.path)).toEqual([
      '/api/v1/subscription-plans',
      '/api/v1/subscription-plans',
      '/api/v1/subscription-plans',
    ]);
  });

  it('rejects a refused call with the admin’s own message and status, and changes nothing', async () => {
    const { worker, mock } = startMockWorker();
    const { admin } = createWorkerMockTransport(worker);
    await expect(admin.setCredits(5, 'team_unknown')).rejects.toEqual(
      new MockAdminError('Unknown team: team_unknown.', 404),
    );
    await expect(admin.injectFault({ kind: 'explode' } as never)).rejects.toMatchObject({
      name: 'MockAdminError',
      status: 400,
      message: 'Unknown fault kind: explode.',
    });
    expect(mock.api.admin.pendingFaults()).toEqual([]);
    expect(mock.api.admin.credits()).toBe(10_000);
  });
});

/** A worker whose module never serves: it only records what the page posts, and fails at the ping if told to. */
function unservedWorker(options: { failOnPing?: boolean } = {}) {
  const worker = {
    onmessage: null,
    onerror: null as ((event: Event) => void) | null,
    terminated: false,
    postMessage(data: { type: string }) {
      posted.push(data.type);
      if (options.failOnPing && data.type === 'ping') queueMicrotask(() => worker.onerror?.(new Event('error')));
    },
    terminate() {
      worker.terminated = true;
    },
  };
  return worker;
}

describe('fetchThroughWorker', () => {
  it('fails requests as a broken network does when the worker fails before it answers, and sends nothing', async () => {
    const worker = unservedWorker({ failOnPing: true });
    const send = fetchThroughWorker(worker as unknown as Worker);
    await expect(send('https://mock.test/api/v1/agent/generate', { method: 'POST' })).rejects.toThrow(TypeError);
    await expect(send('https://mock.test/api/v1/usage')).rejects.toThrow(TypeError);
    expect(posted).toEqual(['ping']);
    expect(worker.terminated).toBe(true);
  });

  it('fails requests after 10 s when the worker never answers (its module does not serve), and terminates it', async () => {
    vi.useFakeTimers();
    try {
      const worker = unservedWorker();
      const answer = fetchThroughWorker(worker as unknown as Worker)('https://mock.test/api/v1/usage');
      const failed = expect(answer).rejects.toThrow(/its module must call serveFetchInWorker/);
      await vi.advanceTimersByTimeAsync(9_999);
      expect(worker.terminated).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      await failed;
      expect(worker.terminated).toBe(true);
      expect(posted).toEqual(['ping']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('fails the stream it was reading when the worker stops, and every request after it', async () => {
    const { worker, stop } = startMockWorker({ scenario: { files: 2000 } });
    const client = createAgentClient({ transport: createWorkerMockTransport(worker) });
    let files = 0;
    const run = client.generate(
      { prompt: 'Build a todo app with dark mode' },
      { onEvent: (event) => (event.type === 'file_created' && ++files === 10 ? stop() : undefined) },
    );
    await expect(run).resolves.toMatchObject({ outcome: 'interrupted', error: { code: 'network' } });
    const sent = posted.length;
    await expect(client.projects.list()).rejects.toThrow();
    expect(posted).toHaveLength(sent);
  });
});
