/**
 * The streaming rules (one fetch, never a second POST; docs/decisions.md), each proven against a scripted server
 * on 127.0.0.1.
 * Every test counts the generation POSTs the server received: a generation costs credits, so it is sent once.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AgentApiError, createAgentClient, createHttpTransport, type AgentEvent } from 'agent-embed/core';

type Handler = (request: IncomingMessage, response: ServerResponse, body: string) => void;

interface ScriptedServer {
  baseUrl: string;
  posts: number;
  requests: IncomingMessage[];
  close(): Promise<void>;
}

const servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function scriptedServer(handler: Handler): Promise<ScriptedServer> {
  const state: ScriptedServer = { baseUrl: '', posts: 0, requests: [], close: async () => {} };
  const server = createServer((request, response) => {
    state.requests.push(request);
    if (request.method === 'POST') state.posts += 1;
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => handler(request, response, body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  servers.push(state);
  return state;
}

const sse = (event: object, eol = '\n') => `data: ${JSON.stringify(event)}${eol}${eol}`;
const created = { type: 'project_created', project_id: 'p1', app_url: 'https://p1.apps.test/' };
const fileEvent = (path: string) => ({ type: 'file_created', path, action: 'created' });
const streamEnd = { type: 'stream_end', project_id: 'p1', app_url: 'https://p1.apps.test/' };

function openStream(response: ServerResponse, status = 200) {
  response.writeHead(status, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  response.flushHeaders();
}

function clientFor(baseUrl: string, fetchImpl?: typeof fetch) {
  return createAgentClient({
    transport: createHttpTransport({
      baseUrl,
      headers: { authorization: 'Bearer test-token' },
      ...(fetchImpl ? { fetch: fetchImpl } : {}),
    }),
  });
}

/** Generates against a base URL, collecting every event and protocol problem. */
async function generateCollecting(baseUrl: string, fetchImpl?: typeof fetch) {
  const events: AgentEvent[] = [];
  const problems: AgentApiError[] = [];
  const result = await clientFor(baseUrl, fetchImpl).generate(
    { prompt: 'A todo list app' },
    { onEvent: (event) => events.push(event), onProtocolError: (problem) => problems.push(problem) },
  );
  return { result, events, problems };
}

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function setVisibility(state: 'hidden' | 'visible') {
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
  Object.defineProperty(document, 'hidden', { configurable: true, get: () => state === 'hidden' });
  document.dispatchEvent(new Event('visibilitychange'));
}

describe('a generation POST is sent once', () => {
  it('when the tab goes hidden and visible during the stream', async () => {
    let finish: () => void = () => {};
    const server = await scriptedServer((_request, response) => {
      openStream(response);
      response.write(sse(created));
      finish = () => response.end(sse(streamEnd));
    });
    const events: AgentEvent[] = [];
    const pending = clientFor(server.baseUrl).generate(
      { prompt: 'A todo list app' },
      { onEvent: (event) => events.push(event) },
    );
    await vi.waitFor(() => expect(events).toHaveLength(1));
    setVisibility('hidden');
    await tick(20);
    setVisibility('visible');
    await tick(50);
    finish();
    const result = await pending;
    expect(result.outcome).toBe('completed');
    expect(server.posts).toBe(1);
  });

  it('when the network drops mid-stream: the outcome is interrupted and nothing is retried', async () => {
    const server = await scriptedServer((_request, response) => {
      openStream(response);
      response.write(sse(created));
      setTimeout(() => response.socket?.destroy(), 20);
    });
    const result = await clientFor(server.baseUrl).generate({ prompt: 'A todo list app' });
    expect(result.outcome).toBe('interrupted');
    expect(result.projectId).toBe('p1');
    expect(result.error).toBeInstanceOf(AgentApiError);
    expect(result.error?.kind).toBe('network');
    // A retrying SSE client (fetch-event-source's default, EventSource's) would re-POST after about a second.
    await tick(1200);
    expect(server.posts).toBe(1);
  });

  it('when a 500 is served as text/event-stream: it is an upstream error, not a stream', async () => {
    const server = await scriptedServer((_request, response) => {
      response.writeHead(500, { 'content-type': 'text/event-stream' });
      response.end(sse(created));
    });
    const events: AgentEvent[] = [];
    const error = await clientFor(server.baseUrl)
      .generate({ prompt: 'A todo list app' }, { onEvent: (event) => events.push(event) })
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(AgentApiError);
    expect((error as AgentApiError).kind).toBe('upstream');
    expect((error as AgentApiError).status).toBe(500);
    expect(events).toHaveLength(0);
    expect(server.posts).toBe(1);
  });

  it('when an onEvent handler throws: the generation fails without a retry', async () => {
    const server = await scriptedServer((_request, response) => {
      openStream(response);
      response.write(sse(created));
      setTimeout(() => response.end(sse(streamEnd)), 30);
    });
    const result = await clientFor(server.baseUrl).generate(
      { prompt: 'A todo list app' },
      {
        onEvent: () => {
          throw new Error('bug in the app');
        },
      },
    );
    expect(result.outcome).toBe('failed');
    expect(result.error?.kind).toBe('protocol');
    expect(result.error?.message).toContain('bug in the app');
    await tick(1200);
    expect(server.posts).toBe(1);
  });

  it('when the stream is cut without a terminal event: interrupted, never completed', async () => {
    const server = await scriptedServer((_request, response) => {
      openStream(response);
      response.write(sse(created));
      response.end(sse(fileEvent('src/App.tsx')));
    });
    const result = await clientFor(server.baseUrl).generate({ prompt: 'A todo list app' });
    expect(result).toMatchObject({ outcome: 'interrupted', projectId: 'p1', appUrl: 'https://p1.apps.test/' });
    await tick(1200);
    expect(server.posts).toBe(1);
  });

  it('not at all when the signal is already aborted', async () => {
    const server = await scriptedServer((_request, response) => response.end());
    const controller = new AbortController();
    controller.abort();
    const client = clientFor(server.baseUrl);
    await expect(client.generate({ prompt: 'A todo list app' }, { signal: controller.signal })).resolves.toMatchObject({
      outcome: 'aborted',
    });
    await expect(
      client.followUp('p1', { prompt: 'Add a dark mode' }, { signal: controller.signal }),
    ).resolves.toMatchObject({ outcome: 'aborted' });
    await expect(client.getProject('p1', { signal: controller.signal })).rejects.toMatchObject({ kind: 'aborted' });
    expect(server.requests).toHaveLength(0);
  });

  it('and a cancel mid-stream ends it as aborted', async () => {
    const server = await scriptedServer((_request, response) => {
      openStream(response);
      response.write(sse(created));
    });
    const controller = new AbortController();
    const pending = clientFor(server.baseUrl).generate(
      { prompt: 'A todo list app' },
      { signal: controller.signal, onEvent: () => controller.abort() },
    );
    await expect(pending).resolves.toMatchObject({ outcome: 'aborted', projectId: 'p1' });
    await tick(1200);
    expect(server.posts).toBe(1);
  });
});

describe('the request', () => {
  it('sends one lower-case accept header, the JSON body and the configured headers', async () => {
    const server = await scriptedServer((_request, response) => {
      openStream(response);
      response.end(sse(created) + sse(streamEnd));
    });
    await clientFor(server.baseUrl).generate({ prompt: 'A todo list app', mode: 'design' });
    const request = server.requests[0];
    expect(request?.url).toBe('/api/v1/agent/generate');
    expect(request?.headers.accept).toBe('text/event-stream');
    expect(request?.headers.authorization).toBe('Bearer test-token');
    expect(request?.headers['content-type']).toBe('application/json');
  });

  it('turns a JSON refusal into the matching error before any event', async () => {
    const server = await scriptedServer((_request, response) => {
      response.writeHead(429, { 'content-type': 'application/json', 'retry-after': '7' });
      response.end(JSON.stringify({ status: false, message: 'Too Many Attempts.' }));
    });
    await expect(clientFor(server.baseUrl).generate({ prompt: 'A todo list app' })).rejects.toMatchObject({
      kind: 'rate_limited',
      status: 429,
      retryAfterMs: 7000,
      message: 'Too Many Attempts.',
    });
  });

  it('refuses a 200 that is not an event stream as a protocol error', async () => {
    const server = await scriptedServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<html>captive portal</html>');
    });
    await expect(clientFor(server.baseUrl).generate({ prompt: 'A todo list app' })).rejects.toMatchObject({
      kind: 'protocol',
      status: 200,
    });
    expect(server.posts).toBe(1);
  });
});

describe('parsing the stream', () => {
  it('ignores heartbeat comments', async () => {
    const server = await scriptedServer((_request, response) => {
      openStream(response);
      response.end(`: ping\n\n${sse(created)}: ping\n\n: ping\n\n${sse(fileEvent('a.ts'))}:\n\n${sse(streamEnd)}`);
    });
    const { result, events, problems } = await generateCollecting(server.baseUrl);
    expect(result.outcome).toBe('completed');
    expect(events.map((event) => event.type)).toEqual(['project_created', 'file_created', 'stream_end']);
    expect(problems).toEqual([]);
  });

  it('reads CRLF line endings', async () => {
    const server = await scriptedServer((_request, response) => {
      openStream(response);
      response.end(sse(created, '\r\n') + sse(fileEvent('a.ts'), '\r\n') + sse(streamEnd, '\r\n'));
    });
    const { result, events, problems } = await generateCollecting(server.baseUrl);
    expect(result.outcome).toBe('completed');
    expect(events.map((event) => event.type)).toEqual(['project_created', 'file_created', 'stream_end']);
    expect(problems).toEqual([]);
  });

  it('ignores fields the SSE spec does not know, and event names', async () => {
    const server = await scriptedServer((_request, response) => {
      openStream(response);
      response.end(`${sse(created)}retry: soon\nfoo: bar\nevent: message\n${sse(fileEvent('a.ts'))}${sse(streamEnd)}`);
    });
    const { result, events, problems } = await generateCollecting(server.baseUrl);
    expect(result.outcome).toBe('completed');
    expect(events.map((event) => event.type)).toEqual(['project_created', 'file_created', 'stream_end']);
    expect(problems).toEqual([]);
  });

  it('fails a stream whose event grows past 16 MiB without ending, once, without a retry', async () => {
    const server = await scriptedServer((_request, response) => {
      openStream(response);
      response.write(sse(created));
      const piece = `data: ${'x'.repeat(1024 * 1024 - 7)}\n`;
      for (let index = 0; index < 17; index++) response.write(piece);
      // The server would go on forever; the client must not wait for it.
    });
    const { result, events } = await generateCollecting(server.baseUrl);
    expect(result.outcome).toBe('interrupted');
    expect(result.error).toMatchObject({ kind: 'protocol', message: 'An event grew past 16 MiB without ending.' });
    expect(events.map((event) => event.type)).toEqual(['project_created']);
    await tick(50);
    expect(server.posts).toBe(1);
  });

  it('reports a malformed line through onProtocolError and goes on', async () => {
    const server = await scriptedServer((_request, response) => {
      openStream(response);
      response.end(
        `${sse(created)}data: {"type":"file_cre\n\n${sse({ type: 'brand_new_event', detail: 1 })}${sse(streamEnd)}`,
      );
    });
    const { result, events, problems } = await generateCollecting(server.baseUrl);
    expect(result.outcome).toBe('completed');
    expect(problems).toHaveLength(1);
    expect(problems[0]?.kind).toBe('protocol');
    expect(events[1]).toEqual({
      type: 'unknown',
      originalType: 'brand_new_event',
      data: { type: 'brand_new_event', detail: 1 },
    });
  });

  describe('events split at every byte boundary', () => {
    const payload = new TextEncoder().encode(
      sse(created, '\r\n') +
        ': ping\n\n' +
        sse({ type: 'tool_progress', tool: 'write', message: 'Écrit le fichier ✓ 日本語' }) +
        sse(fileEvent('src/ünïcode.tsx')) +
        sse(streamEnd),
    );
    const expected = ['project_created', 'tool_progress', 'file_created', 'stream_end'];

    function fetchServing(chunks: Uint8Array[]): typeof fetch {
      return async () =>
        new Response(
          new ReadableStream<Uint8Array>({
            start(controller) {
              for (const chunk of chunks) controller.enqueue(chunk);
              controller.close();
            },
          }),
          { status: 200, headers: { 'content-type': 'text/event-stream' } },
        );
    }

    const run = (chunks: Uint8Array[]) => generateCollecting('http://127.0.0.1:1/api/v1', fetchServing(chunks));

    it('in two pieces, at each of the boundaries', async () => {
      for (let split = 1; split < payload.length; split++) {
        const { result, events, problems } = await run([payload.slice(0, split), payload.slice(split)]);
        expect(problems, `split at byte ${split}`).toEqual([]);
        expect(result.outcome, `split at byte ${split}`).toBe('completed');
        expect(
          events.map((event) => event.type),
          `split at byte ${split}`,
        ).toEqual(expected);
        expect(events[1]).toMatchObject({ message: 'Écrit le fichier ✓ 日本語' });
      }
    });

    it('one byte at a time', async () => {
      const { result, events } = await run(Array.from(payload, (byte) => Uint8Array.of(byte)));
      expect(result.outcome).toBe('completed');
      expect(events.map((event) => event.type)).toEqual(expected);
      expect(events[2]).toMatchObject({ path: 'src/ünïcode.tsx' });
    });
  });
});

describe('after a cancel', () => {
  it('no event reaches the app, even from a fetch that ignores the abort', async () => {
    const encoder = new TextEncoder();
    let push: (text: string) => void = () => {};
    let opened: () => void = () => {};
    let cancelled = false;
    const streamOpened = new Promise<void>((resolve) => (opened = resolve));
    const deafFetch: typeof fetch = async () =>
      new Response(
        new ReadableStream<Uint8Array>({
          start(controller) {
            push = (text) => {
              if (!cancelled) controller.enqueue(encoder.encode(text));
            };
            opened();
          },
          cancel() {
            cancelled = true;
          },
        }),
        { headers: { 'content-type': 'text/event-stream' } },
      );
    const events: string[] = [];
    const controller = new AbortController();
    const pending = clientFor('http://127.0.0.1:1/api/v1', deafFetch).generate(
      { prompt: 'A todo list app' },
      { signal: controller.signal, onEvent: (event) => events.push(event.type) },
    );
    await streamOpened;
    push(sse(created));
    await vi.waitFor(() => expect(events).toEqual(['project_created']));
    controller.abort();
    push(sse(fileEvent('late.ts')) + sse(streamEnd));
    await expect(pending).resolves.toMatchObject({ outcome: 'aborted' });
    await tick(20);
    expect(events).toEqual(['project_created']);
    // The body is released, not left to be read by nobody.
    expect(cancelled).toBe(true);
  });
});

describe('a burst of buffered events', () => {
  it('is applied in slices that hand the main thread back, not in one long task', async () => {
    const total = 20_000;
    const text =
      sse(created) +
      Array.from({ length: total }, (_, index) => sse(fileEvent(`src/file-${index}.ts`))).join('') +
      sse(streamEnd);
    const bytes = new TextEncoder().encode(text);
    const burstFetch: typeof fetch = async () =>
      new Response(
        new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(bytes);
            controller.close();
          },
        }),
        { headers: { 'content-type': 'text/event-stream' } },
      );
    let received = 0;
    let receivedWhenATaskRan: number | undefined;
    const pending = clientFor('http://127.0.0.1:1/api/v1', burstFetch).generate(
      { prompt: 'A todo list app' },
      {
        onEvent: () => {
          received++;
          if (received === 1) setTimeout(() => (receivedWhenATaskRan = received), 0);
        },
      },
    );
    const result = await pending;
    expect(result.outcome).toBe('completed');
    expect(received).toBe(total + 2);
    // A task queued at the first event ran while events were still arriving.
    expect(receivedWhenATaskRan).toBeDefined();
    expect(receivedWhenATaskRan!).toBeLessThan(total);
  });
});
