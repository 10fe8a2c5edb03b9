/**
 * The proxy relays event streams live, over real HTTP on 127.0.0.1: the library's client -> the proxy ->
 * the mock Agent API, or an upstream the test writes event by event so nothing depends on timing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createAgentStore, isAgentApiError, selectProjectView, type AgentEvent } from 'agent-embed/core';
import { createMemoryProxyStore } from 'agent-embed/server';
import {
  openEventStream,
  sessionCookie,
  startMockStack,
  startProxy,
  startScriptedUpstream,
  type ProxyStack,
} from './proxy-stack.js';

const prompt = 'A landing page for a neighbourhood bakery';
const cleanup: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const close of cleanup.splice(0).reverse()) await close();
});

async function scriptedStack(options: Parameters<typeof startProxy>[2] = {}) {
  const upstream = await startScriptedUpstream();
  const stack = await startProxy(upstream.url, upstream.token, options);
  cleanup.push(upstream.close, stack.close);
  return { upstream, stack };
}

function streamClosed(stack: ProxyStack) {
  return stack.logs.find((entry) => entry.event === 'stream_closed');
}

describe('event stream relay', () => {
  it('hands the first event to the client while the upstream stream is still open', async () => {
    const { upstream, stack } = await scriptedStack();
    let firstEvent!: (event: AgentEvent) => void;
    const first = new Promise<AgentEvent>((resolve) => (firstEvent = resolve));
    let settled = false;
    const run = stack
      .client('alice')
      .generate({ prompt }, { onEvent: (event) => firstEvent(event) })
      .finally(() => {
        settled = true;
      });
    const exchange = await upstream.next();
    expect(exchange.method).toBe('POST');
    expect(exchange.path).toBe('/api/v1/agent/generate');
    expect(exchange.headers.authorization).toBe(`Bearer ${upstream.token}`);
    expect(exchange.headers.cookie).toBeUndefined();
    expect(exchange.headers.accept).toBe('text/event-stream');
    expect(JSON.parse(exchange.body)).toEqual({ prompt });
    const events = openEventStream(exchange);
    events.event({ type: 'project_created', project_id: 'p-live', app_url: 'https://p-live.example' });
    expect(await first).toEqual({ type: 'project_created', project_id: 'p-live', app_url: 'https://p-live.example' });
    // The upstream has not finished: the event travelled alone, ahead of everything else.
    expect(exchange.response.writableEnded).toBe(false);
    expect(settled).toBe(false);
    events.event({ type: 'stream_end', project_id: 'p-live', app_url: 'https://p-live.example' });
    events.end();
    expect(await run).toEqual({ outcome: 'completed', projectId: 'p-live', appUrl: 'https://p-live.example' });
  });

  it('relays a slow mock generation event by event', async () => {
    const stack = await startMockStack();
    cleanup.push(stack.close);
    stack.mock.api.admin.injectFault({ kind: 'slow_drip', intervalMs: 25 });
    const seen: { type: string; projectStatus: string | undefined }[] = [];
    const result = await stack.client('alice').generate(
      { prompt },
      {
        onEvent: (event) => {
          const project = stack.mock.api.admin.projects()[0];
          seen.push({ type: event.type, projectStatus: project?.status });
        },
      },
    );
    expect(result.outcome).toBe('completed');
    expect(seen[0]?.type).toBe('project_created');
    expect(seen.at(-1)?.type).toBe('stream_end');
    // Every event but the last arrived while the mock was still generating.
    expect(seen.slice(0, -1).map((event) => event.projectStatus)).not.toContain('ready');
    expect(seen.length).toBeGreaterThan(10);
  });

  it('sends heartbeat comments while the upstream is idle, only between events', async () => {
    const { upstream, stack } = await scriptedStack({ heartbeatMs: 10 });
    const responding = fetch(`${stack.proxyUrl}/agent/generate`, {
      method: 'POST',
      headers: { cookie: sessionCookie('alice'), 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ prompt }),
    });
    const exchange = await upstream.next();
    const events = openEventStream(exchange);
    const response = await responding;
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.get('cache-control')).toBe('no-cache, no-transform');
    expect(response.headers.get('x-accel-buffering')).toBe('no');
    expect(response.headers.get('content-encoding')).toBeNull();
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = '';
    const readUntil = async (needle: string, from = 0) => {
      while (!text.slice(from).includes(needle)) {
        const { done, value } = await reader.read();
        if (done) throw new Error(`The stream ended before ${JSON.stringify(needle)}: ${text}`);
        text += decoder.decode(value, { stream: true });
      }
    };
    await readUntil(': ping\n\n');
    events.event({ type: 'project_created', project_id: 'p-beat', app_url: 'https://p-beat.example' });
    await readUntil('project_created');
    // The upstream now stays silent: the proxy keeps the connection alive on its own.
    await readUntil(': ping\n\n', text.indexOf('project_created'));
    events.event({ type: 'stream_end', project_id: 'p-beat', app_url: 'https://p-beat.example' });
    events.end();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    const blocks = text.split('\n\n').filter((block) => block !== '');
    expect(
      blocks
        .filter((block) => block.startsWith('id: '))
        .map((block) => JSON.parse(block.slice(block.indexOf('\ndata: ') + 7)).type),
    ).toEqual(['project_created', 'stream_end']);
    expect(blocks.every((block) => block === ': ping' || /^id: \d+\ndata: \{.*\}$/.test(block))).toBe(true);
    expect(blocks.filter((block) => block === ': ping').length).toBeGreaterThanOrEqual(2);
  });

  it('keeps the ownership record when the browser disconnects in mid-stream', async () => {
    const stack = await startMockStack();
    cleanup.push(stack.close);
    stack.mock.api.admin.injectFault({ kind: 'slow_drip', intervalMs: 25 });
    const alice = stack.client('alice');
    const browser = new AbortController();
    const result = await alice.generate(
      { prompt },
      {
        signal: browser.signal,
        onEvent: (event) => {
          if (event.type === 'project_created') browser.abort();
        },
      },
    );
    expect(result.outcome).toBe('aborted');
    const projectId = result.projectId ?? '';
    expect(projectId).not.toBe('');
    await expect
      .poll(() => streamClosed(stack)?.reason, { timeout: 4000 })
      .toBe('upstream completed; browser disconnected');
    const project = await alice.getProject(projectId);
    expect(project.project_status).toBe('ready');
    const stolen = await stack
      .client('bob')
      .getProject(projectId)
      .catch((thrown: unknown) => thrown);
    expect(isAgentApiError(stolen) && stolen.status).toBe(404);
    expect(stack.mock.api.admin.requests.filter((request) => request.method === 'POST')).toHaveLength(1);
  });

  it('records the owner even when the browser leaves before project_created arrives', async () => {
    const { upstream, stack } = await scriptedStack();
    const browser = new AbortController();
    const responding = fetch(`${stack.proxyUrl}/agent/generate`, {
      method: 'POST',
      headers: { cookie: sessionCookie('alice'), 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ prompt }),
      signal: browser.signal,
    });
    const exchange = await upstream.next();
    const events = openEventStream(exchange);
    events.event({ type: 'container_progress', message: 'Provisioning', percentage: 1 });
    const response = await responding;
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toContain('Provisioning');
    browser.abort();
    await expect.poll(() => stack.logs.some((entry) => entry.event === 'browser_disconnected')).toBe(true);
    events.event({ type: 'project_created', project_id: 'p-orphan', app_url: 'https://p-orphan.example' });
    events.event({ type: 'container_ready', message: 'ready' });
    events.event({ type: 'stream_end', project_id: 'p-orphan', app_url: 'https://p-orphan.example' });
    events.end();
    await expect
      .poll(() => streamClosed(stack)?.reason, { timeout: 4000 })
      .toBe('upstream completed; browser disconnected');
    expect(streamClosed(stack)?.projectId).toBe('p-orphan');

    const status = stack.client('alice').getProject('p-orphan');
    const poll = await upstream.next();
    expect(poll.path).toBe('/api/v1/agent/project/p-orphan');
    poll.response.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        status: true,
        project_id: 'p-orphan',
        app_url: 'https://p-orphan.example',
        project_status: 'ready',
        name: 'Orphan',
      }),
    );
    expect((await status).project_status).toBe('ready');
    const stolen = await stack
      .client('bob')
      .getProject('p-orphan')
      .catch((thrown: unknown) => thrown);
    expect(isAgentApiError(stolen) && stolen.status).toBe(404);
  });

  it('turns an upstream that cannot be reached into a 502 in the spec shape, sent once', async () => {
    const upstream = await startScriptedUpstream();
    await upstream.close();
    const stack = await startProxy(upstream.url, upstream.token);
    cleanup.push(stack.close);
    const refused = await stack
      .client('alice')
      .generate({ prompt })
      .catch((thrown: unknown) => thrown);
    expect(isAgentApiError(refused) && refused.status).toBe(502);
    expect(isAgentApiError(refused) && refused.message).toBe('The Agent API could not be reached.');
    expect(stack.logs.filter((entry) => entry.event === 'upstream_unreachable')).toHaveLength(1);
  });

  it('reports a follow-up the upstream never answered (504) once, never sends it again, and follows the project by polling', async () => {
    const upstream = await startScriptedUpstream();
    const stack = await startProxy(upstream.url, upstream.token, {
      upstreamHeadersTimeoutMs: 200,
      store: createMemoryProxyStore({ owners: { 'p-slow': 'alice' } }),
    });
    cleanup.push(upstream.close, stack.close);
    // The upstream takes the follow-up (and never answers it), then reports the build it started after all.
    let posts = 0;
    const statuses = ['generating', 'ready'];
    void (async () => {
      for (;;) {
        const exchange = await upstream.next();
        if (exchange.method === 'POST') {
          posts++;
          continue;
        }
        const project_status = statuses.length > 1 ? statuses.shift() : statuses[0];
        exchange.response.writeHead(200, { 'content-type': 'application/json' });
        exchange.response.end(
          JSON.stringify({ status: true, project_id: 'p-slow', project_status, app_url: 'https://p-slow.example' }),
        );
      }
    })();
    const store = createAgentStore({ client: stack.client('alice'), storage: null, pollIntervalMs: 50 });
    const stopWatching = store.getState().watchProject('p-slow');
    const result = await store.getState().followUp('p-slow', { prompt: 'Make the header blue please' });
    expect(result.outcome).toBe('failed');
    expect(result.error).toMatchObject({
      kind: 'upstream',
      status: 504,
      message: 'The Agent API did not answer in time.',
    });
    const view = () => selectProjectView(store.getState(), 'p-slow');
    // Shown once, as the refusal of this request; the project itself is followed to its real end.
    expect(view().refusal?.message).toBe('The Agent API did not answer in time.');
    await expect.poll(() => view().phase, { timeout: 3_000 }).toBe('ready');
    expect(posts).toBe(1);
    expect(stack.logs.filter((entry) => entry.status === 504)).toHaveLength(1);
    stopWatching();
    store.destroy();
  });
});
