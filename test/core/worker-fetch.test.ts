/**
 * Event streams read in a worker (`fetchInWorker`, the HTTP transport's default in a page): the worker's own program,
 * run here by a stand-in `Worker` with the worker's globals, so what it sends and hands over is checked without
 * timing. The same path runs in real Chromium in every browser suite (the playground's streams) and in
 * test/browser/stream-worker.test.ts.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

/** What the worker's `fetch` is asked, and the body it answers with, set per test. */
interface Served {
  url: string;
  init: RequestInit;
}
let served: Served[] = [];
let answer: (signal: AbortSignal) => Response = () => new Response('');
const workersStarted: FakeWorker[] = [];
let failStart = false;

/** A dedicated worker in this thread: runs the blob's program with `onmessage`, `postMessage` and `fetch` of its own. */
class FakeWorker {
  onmessage: ((message: MessageEvent) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  terminated = false;
  private deliver: Promise<(data: unknown) => void>;
  constructor(url: string) {
    workersStarted.push(this);
    const blob = blobs.get(url);
    this.deliver = (async () => {
      const source = await blob!.text();
      if (failStart) {
        queueMicrotask(() => this.onerror?.(new Event('error')));
        return () => {};
      }
      const post = (data: unknown) =>
        queueMicrotask(() => this.terminated || this.onmessage?.(new MessageEvent('message', { data })));
      const workerFetch = (url: string, init: RequestInit) => {
        served.push({ url, init });
        return Promise.resolve(answer(init.signal!));
      };
      // The worker's globals: `self.onmessage`, `postMessage` and `fetch`.
      const self: { onmessage?: (message: { data: unknown }) => void } = {};
      new Function('self', 'postMessage', 'fetch', source)(self, post, workerFetch);
      return (data: unknown) => self.onmessage?.({ data });
    })();
  }
  postMessage(data: unknown): void {
    void this.deliver.then((receive) => this.terminated || receive(structuredClone(data)));
  }
  terminate(): void {
    this.terminated = true;
  }
}

const blobs = new Map<string, Blob>();
beforeAll(() => {
  vi.stubGlobal('Worker', FakeWorker);
  let next = 0;
  URL.createObjectURL = (blob: Blob) => {
    const url = `blob:test/${++next}`;
    blobs.set(url, blob);
    return url;
  };
  URL.revokeObjectURL = (url: string) => void blobs.delete(url);
});
afterAll(() => vi.unstubAllGlobals());
afterEach(() => {
  served = [];
});

/** A body written chunk by chunk as the test says, with the signal the worker's fetch was given. */
function heldBody(signal: AbortSignal) {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
  });
  return { stream, controller, signal };
}

/** Answers the worker's next fetch with a body the test writes chunk by chunk; returns that body once asked for. */
function holdNextBody(): () => ReturnType<typeof heldBody> {
  let body: ReturnType<typeof heldBody> | undefined;
  answer = (signal) => {
    body = heldBody(signal);
    return new Response(body.stream, { status: 200 });
  };
  return () => body!;
}

/** A stream through the worker whose body the test writes, with its first chunk already read by the page. */
async function openHeldStream(signal?: AbortSignal) {
  const { fetchInWorker } = await import('agent-embed/core');
  const held = holdNextBody();
  const response = await fetchInWorker('/stream', signal === undefined ? {} : { signal });
  held().controller.enqueue(new TextEncoder().encode('data: {}\n\n'));
  const reader = response.body!.getReader();
  await reader.read();
  return { held, reader, fetchInWorker };
}

/** Runs `test` with the page's own `fetch` replaced by `pageFetch`. */
async function withPageFetch(pageFetch: typeof fetch, test: () => Promise<void>): Promise<void> {
  const original = globalThis.fetch;
  vi.stubGlobal('fetch', pageFetch);
  try {
    await test();
  } finally {
    vi.stubGlobal('fetch', original);
  }
}

async function readAll(response: Response): Promise<string> {
  return new TextDecoder().decode(await response.arrayBuffer());
}

describe('fetchInWorker', () => {
  it('sends the request once, from the worker, and hands the body over in order', async () => {
    const { fetchInWorker } = await import('agent-embed/core');
    answer = () =>
      new Response('data: {"type":"file_created","path":"a.ts"}\n\ndata: {"type":"stream_end"}\n\n', {
        status: 200,
        headers: { 'content-type': 'text/event-stream' },
      });
    const response = await fetchInWorker('/api/agent/agent/generate', {
      method: 'POST',
      headers: { accept: 'text/event-stream', 'content-type': 'application/json' },
      body: '{"prompt":"A booking site for a yoga studio"}',
      credentials: 'same-origin',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(await readAll(response)).toBe(
      'data: {"type":"file_created","path":"a.ts"}\n\ndata: {"type":"stream_end"}\n\n',
    );
    expect(served).toHaveLength(1);
    expect(served[0]!.url).toBe(new URL('/api/agent/agent/generate', document.baseURI).href);
    expect(served[0]!.init).toMatchObject({
      method: 'POST',
      body: '{"prompt":"A booking site for a yoga studio"}',
      credentials: 'same-origin',
      headers: { accept: 'text/event-stream', 'content-type': 'application/json' },
    });
    // One worker for the page, however many streams.
    await readAll(await fetchInWorker('/again'));
    expect(workersStarted).toHaveLength(1);
  });

  it('an error answer comes back whole, with its status and headers', async () => {
    const { fetchInWorker } = await import('agent-embed/core');
    answer = () =>
      new Response('{"success":false,"error":{"message":"Insufficient credits"}}', {
        status: 402,
        headers: { 'content-type': 'application/json' },
      });
    const response = await fetchInWorker('/api/agent/agent/generate', { method: 'POST', body: '{}' });
    expect(response.status).toBe(402);
    expect(await response.json()).toEqual({ success: false, error: { message: 'Insufficient credits' } });
  });

  it('hands over at most a mebibyte the page has not read, and goes on as it reads', async () => {
    const { fetchInWorker } = await import('agent-embed/core');
    const held = holdNextBody();
    const response = await fetchInWorker('/stream');
    const chunk = new Uint8Array(256 * 1024).fill(97);
    for (let index = 0; index < 12; index++) held().controller.enqueue(chunk.slice());
    // The worker reads four chunks and one more, then waits for the page: the rest stays with the network (time for
    // a worker without that bound to take them all).
    await new Promise((resolve) => setTimeout(resolve, 50));
    const reader = response.body!.getReader();
    let read = 0;
    const first = await reader.read();
    read += first.value!.byteLength;
    // 12 chunks were offered; the worker took at most the mebibyte and one chunk.
    const desired = (held().controller.desiredSize ?? 0) * -1;
    expect(desired).toBeGreaterThanOrEqual(12 - 5 - 1);
    held().controller.close();
    for (;;) {
      const next = await reader.read();
      if (next.done) break;
      read += next.value.byteLength;
    }
    expect(read).toBe(12 * 256 * 1024);
  });

  it('an abort stops the worker’s fetch and fails the read with the abort', async () => {
    const controller = new AbortController();
    const { held, reader, fetchInWorker } = await openHeldStream(controller.signal);
    const pending = reader.read();
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    await vi.waitFor(() => expect(held().signal.aborted).toBe(true));
    // Aborted before it is sent: nothing reaches the worker.
    const before = served.length;
    await expect(fetchInWorker('/stream', { signal: controller.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(served).toHaveLength(before);
  });

  it('the page cancelling the body aborts the worker’s fetch', async () => {
    const { held, reader } = await openHeldStream();
    await reader.cancel();
    await vi.waitFor(() => expect(held().signal.aborted).toBe(true));
  });

  it('an answer without a body (204) comes back without one', async () => {
    const { fetchInWorker } = await import('agent-embed/core');
    answer = () => new Response(null, { status: 204 });
    const response = await fetchInWorker('/stream', { method: 'POST', body: '{}' });
    expect(response.status).toBe(204);
    expect(response.body).toBeNull();
  });

  it('a network failure in the middle of the body fails the read as the page’s fetch does (TypeError)', async () => {
    const { held, reader } = await openHeldStream();
    held().controller.error(new TypeError('network error'));
    await expect(reader.read()).rejects.toBeInstanceOf(TypeError);
  });
});

describe('fetchInWorker when things go wrong late', () => {
  it('an abort before the answer aborts the worker’s fetch and rejects with the abort', async () => {
    const { fetchInWorker } = await import('agent-embed/core');
    let workerSignal: AbortSignal | undefined;
    let answered!: (response: Response) => void;
    answer = (signal) => {
      workerSignal = signal;
      return new Promise<Response>((resolve) => (answered = resolve)) as unknown as Response;
    };
    const controller = new AbortController();
    const pending = fetchInWorker('/stream', { signal: controller.signal });
    await vi.waitFor(() => expect(workerSignal).toBeDefined());
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    await vi.waitFor(() => expect(workerSignal!.aborted).toBe(true));
    answered(new Response('late'));
  });

  it('a worker that fails after it answered fails its streams as a network error, and the next one starts anew', async () => {
    const { reader, fetchInWorker } = await openHeldStream();
    const failing = workersStarted.at(-1)!;
    failing.onerror?.(new Event('error'));
    await expect(reader.read()).rejects.toBeInstanceOf(TypeError);
    expect(failing.terminated).toBe(true);
    answer = () => new Response('data: {}\n\n');
    const before = workersStarted.length;
    expect(await readAll(await fetchInWorker('/stream'))).toBe('data: {}\n\n');
    expect(workersStarted).toHaveLength(before + 1);
  });
});

describe('the HTTP transport in a page', () => {
  const sse = 'data: {"type":"file_created","path":"a.ts"}\n\ndata: {"type":"stream_end","project_id":"p1"}\n\n';
  const generate = {
    method: 'POST',
    path: '/agent/generate',
    body: { prompt: 'A booking site for a yoga studio' },
  } as const;

  it('reads an event stream in the worker by default, once; JSON requests stay in the page', async () => {
    const { createHttpTransport } = await import('agent-embed/core');
    answer = () => new Response(sse, { status: 200, headers: { 'content-type': 'text/event-stream' } });
    const pageFetch = vi.fn(async () => new Response('{"data":{"balance":3}}', { status: 200 }));
    await withPageFetch(pageFetch, async () => {
      const transport = createHttpTransport({ baseUrl: '/api/agent', slicing: null });
      const events: string[] = [];
      await transport.stream(generate, { onEvent: (event) => events.push(event.type) });
      expect(events).toEqual(['file_created', 'stream_end']);
      expect(served.map((request) => [request.init.method, new URL(request.url).pathname])).toEqual([
        ['POST', '/api/agent/agent/generate'],
      ]);
      expect(pageFetch).not.toHaveBeenCalled();
      await transport.json({ method: 'GET', path: '/credits' });
      expect(pageFetch).toHaveBeenCalledTimes(1);
      expect(served).toHaveLength(1);
    });
  });

  it('a given fetch, or streamWorker: false, reads it in the page', async () => {
    const { createHttpTransport } = await import('agent-embed/core');
    const given = vi.fn(
      async () => new Response(sse, { status: 200, headers: { 'content-type': 'text/event-stream' } }),
    );
    await createHttpTransport({ baseUrl: '/api/agent', fetch: given, slicing: null }).stream(generate, {
      onEvent() {},
    });
    expect(given).toHaveBeenCalledTimes(1);
    const pageFetch = vi.fn(
      async () => new Response(sse, { status: 200, headers: { 'content-type': 'text/event-stream' } }),
    );
    await withPageFetch(pageFetch, async () => {
      await createHttpTransport({ baseUrl: '/api/agent', streamWorker: false, slicing: null }).stream(generate, {
        onEvent() {},
      });
      expect(pageFetch).toHaveBeenCalledTimes(1);
      expect(served).toHaveLength(0);
    });
  });
});

describe('fetchInWorker where no worker starts', () => {
  it('the page sends the request itself, once, and nothing goes to the worker', async () => {
    vi.resetModules();
    failStart = true;
    const pageFetch = vi.fn(async () => new Response('data: {}\n\n', { status: 200 }));
    await withPageFetch(pageFetch, async () => {
      const { fetchInWorker } = await import('agent-embed/core');
      const started = workersStarted.length;
      const response = await fetchInWorker('/api/agent/agent/generate', { method: 'POST', body: '{}' });
      expect(await readAll(response)).toBe('data: {}\n\n');
      expect(pageFetch).toHaveBeenCalledTimes(1);
      expect(workersStarted).toHaveLength(started + 1);
      expect(workersStarted.at(-1)!.terminated).toBe(true);
      expect(served).toHaveLength(0);
    });
    failStart = false;
  });
});
