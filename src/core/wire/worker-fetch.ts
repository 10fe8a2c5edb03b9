/**
 * Event streams fetched in a dedicated worker: the worker sends the request once and reads the body, and hands each
 * chunk to the page (transferred, not copied), where the stream is parsed and applied as before. Chromium hands a
 * response body to the thread that reads it in tasks of its own, with no script in them: on the main thread a 2 MB
 * build took 2-3 tasks of 100-260 ms at 4x CPU throttling (`npm run bench:body`), and in a worker none.
 *
 * The worker is one per page, made from its program's own source text (no file for a bundler to find). It is used
 * only once it has answered a ping: a page whose policy forbids it (`worker-src`) or where it fails to start reads
 * its streams itself, and a request is never sent twice, since none goes to a worker that has not answered.
 *
 * The same protocol reaches a worker the caller made (`fetchThroughWorker`), whose program answers with a `fetch` of
 * its own (`serveFetchInWorker`): the in-browser mock and its proxy run off the page that way.
 */

/** What the page tells the worker. */
type ToWorker =
  | { type: 'ping'; id?: undefined }
  | { type: 'fetch'; id: number; url: string; init: RequestInit }
  | { type: 'read' | 'abort'; id: number; bytes?: number };

// The worker's whole program, run from its source text: it uses nothing outside itself, and no syntax a bundler would
// rewrite with a helper of its own (hence Object.assign and Array.from, not spreads). `credit`: the bytes it
// may hand over before the page has read them (the page reads as it applies events): a page that falls behind holds
// at most that much, and the rest waits in the network, as it would for the page's own fetch.
function workerProgram(credit: number, send: typeof fetch = fetch): void {
  const streams = new Map<number, { controller: AbortController; unread: number; wake: (() => void) | undefined }>();
  self.onmessage = async ({ data }: MessageEvent<ToWorker>) => {
    if (data.type === 'ping') return postMessage({ type: 'pong' });
    const id = data.id;
    const known = streams.get(id);
    if (data.type !== 'fetch') {
      if (known === undefined) return;
      known.unread -= data.bytes ?? 0;
      if (data.type === 'abort') known.controller.abort();
      return known.wake?.();
    }
    const stream = { controller: new AbortController(), unread: 0, wake: undefined as (() => void) | undefined };
    streams.set(id, stream);
    const { signal } = stream.controller;
    try {
      const response = await send(data.url, Object.assign({}, data.init, { signal }));
      const { status, statusText } = response;
      postMessage({ type: 'head', id, status, statusText, headers: Array.from(response.headers) });
      const reader = response.body?.getReader();
      for (let read = await reader?.read(); read !== undefined && !read.done; read = await reader?.read()) {
        const bytes = read.value;
        const buffer =
          bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes.buffer : bytes.slice().buffer;
        stream.unread += buffer.byteLength;
        postMessage({ type: 'chunk', id, buffer }, { transfer: [buffer] });
        while (stream.unread > credit && !signal.aborted) await new Promise<void>((wake) => (stream.wake = wake));
        if (signal.aborted) return await reader?.cancel();
      }
      postMessage({ type: 'end', id });
    } catch (error) {
      postMessage({ type: 'error', id, message: String((error as Error | undefined)?.message ?? error) });
    } finally {
      streams.delete(id);
    }
  };
}

const creditBytes = 1024 * 1024;
const workerSource = `(${workerProgram.toString()})(${creditBytes})`;

/**
 * In a dedicated worker: answers the requests that `fetchThroughWorker` sends from the page with `send`, and hands
 * each answer's body over chunk by chunk as the page reads it.
 */
export function serveFetchInWorker(send: typeof fetch): void {
  workerProgram(creditBytes, send);
}

interface Stream {
  head(status: number, statusText: string, headers: [string, string][]): void;
  chunk(buffer: ArrayBuffer): void;
  end(): void;
  fail(message: string): void;
}

interface PageWorker {
  worker: Worker;
  streams: Map<number, Stream>;
}

let pageWorker: Promise<PageWorker | undefined> | undefined;
let lastId = 0;

// Starts the page's worker from its source text; undefined if it cannot start. One that fails later starts anew with
// the next stream.
function startPageWorker(): Promise<PageWorker | undefined> {
  let worker: Worker;
  let source: string;
  try {
    source = URL.createObjectURL(new Blob([workerSource], { type: 'text/javascript' }));
    worker = new Worker(source);
  } catch {
    return Promise.resolve(undefined);
  }
  // Slow to start (a busy page on a slow phone) is as good as not starting: nothing has been sent to it yet.
  const connection = connect(worker, () => (pageWorker = undefined), 5000);
  void connection.then(() => URL.revokeObjectURL(source));
  return connection;
}

// Waits for the worker's answer to a ping (undefined if it fails first, or takes longer than `startMs`: then it is
// terminated). A worker that fails later (an error it did not catch) fails the streams it was reading.
function connect(worker: Worker, stopped: () => void, startMs?: number): Promise<PageWorker | undefined> {
  const streams = new Map<number, Stream>();
  let answered = false;
  return new Promise((resolve) => {
    const give = (started: PageWorker | undefined) => {
      clearTimeout(timer);
      answered = started !== undefined;
      if (started === undefined) worker.terminate();
      resolve(started);
    };
    const timer = startMs && setTimeout(() => give(undefined), startMs);
    worker.onerror = () => {
      if (!answered) return give(undefined);
      stopped();
      worker.terminate();
      for (const stream of streams.values()) stream.fail('The stream worker stopped.');
    };
    worker.onmessage = ({ data }: MessageEvent<{ type: string; id: number } & Record<string, unknown>>) => {
      if (data.type === 'pong') return give({ worker, streams });
      const stream = streams.get(data.id);
      if (data.type === 'head') stream?.head(data.status as number, data.statusText as string, data.headers as never);
      else if (data.type === 'chunk') stream?.chunk(data.buffer as ArrayBuffer);
      else if (data.type === 'end') stream?.end();
      else if (data.type === 'error') stream?.fail(data.message as string);
    };
    worker.postMessage({ type: 'ping' });
  });
}

/** Whether streams can be fetched in a worker here: a page with workers and blob URLs. */
export function canFetchInWorker(): boolean {
  return (
    typeof document === 'object' &&
    typeof Worker === 'function' &&
    typeof Blob === 'function' &&
    typeof URL.createObjectURL === 'function'
  );
}

/**
 * A `fetch` for event streams that sends the request from the page's worker and reads the body there; where no worker
 * can start, the page's own `fetch`. The answer is a `Response` whose body is the worker's chunks, in order.
 */
export const fetchInWorker: typeof fetch = fetchOver(
  () => (pageWorker ??= startPageWorker()),
  (input, init) => fetch(input, init),
);

/**
 * A `fetch` whose requests `worker` answers (its program calls `serveFetchInWorker`); the page reads each body as
 * `fetchInWorker`'s. Requests fail with a `TypeError`, as a network failure does, if the worker fails or gives no
 * answer to a first ping within 10 s (it is then terminated), or stops later.
 */
export function fetchThroughWorker(worker: Worker): typeof fetch {
  let connection: Promise<PageWorker | undefined> | undefined;
  const stopped = () => (connection = Promise.resolve(undefined));
  return fetchOver(
    () => (connection ??= connect(worker, stopped, 10_000)),
    () =>
      Promise.reject(
        new TypeError('The worker gave no answer: its module must call serveFetchInWorker, and it must not stop.'),
      ),
  );
}

function fetchOver(connection: () => Promise<PageWorker | undefined>, withoutWorker: typeof fetch): typeof fetch {
  return async (input, init = {}) => {
    const started = await connection();
    if (started === undefined) return withoutWorker(input, init);
    const { signal } = init;
    if (signal?.aborted) throw signal.reason;
    const { worker, streams } = started;
    const id = ++lastId;
    const post = (type: string, bytes?: number) => worker.postMessage({ type, id, bytes });
    const queue: Uint8Array[] = [];
    let ended = false;
    let failure: unknown;
    let wake: (() => void) | undefined;
    const settle = () => {
      wake?.();
      wake = undefined;
    };
    return new Promise<Response>((resolve, reject) => {
      // The worker has nothing more for this stream: what is queued is read, then it closes or fails.
      const finish = () => {
        streams.delete(id);
        signal?.removeEventListener('abort', onAbort);
        settle();
      };
      const stop = (reason: unknown) => {
        failure ??= reason;
        reject(reason);
        finish();
      };
      // An abort drops what was not read yet, as `fetch` does; a failure lets it be read first.
      const onAbort = () => {
        post('abort');
        queue.length = 0;
        stop(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort);
      // Read only as the page applies them: each chunk read is acknowledged, so the worker never runs far ahead.
      const body = new ReadableStream<Uint8Array>(
        {
          async pull(controller) {
            while (queue.length === 0 && !ended && failure === undefined)
              await new Promise<void>((awake) => (wake = awake));
            const chunk = queue.shift();
            if (chunk !== undefined) {
              controller.enqueue(chunk);
              post('read', chunk.byteLength);
            } else if (failure !== undefined) controller.error(failure);
            else controller.close();
          },
          cancel() {
            post('abort');
            stop(new DOMException('The stream was cancelled.', 'AbortError'));
          },
        },
        { highWaterMark: 0 },
      );
      streams.set(id, {
        head(status, statusText, headers) {
          const nullBody = status === 204 || status === 205 || status === 304;
          resolve(new Response(nullBody ? null : body, { status, statusText, headers }));
        },
        chunk(buffer) {
          queue.push(new Uint8Array(buffer));
          settle();
        },
        end() {
          ended = true;
          finish();
        },
        fail(message) {
          // As the page's own fetch fails: a TypeError, before the answer or in the middle of its body.
          stop(new TypeError(message));
        },
      });
      const headers = Object.fromEntries(new Headers(init.headers));
      const url = new URL(String(input instanceof Request ? input.url : input), document.baseURI).href;
      worker.postMessage({
        type: 'fetch',
        id,
        url,
        init: { method: init.method, headers, body: init.body, credentials: init.credentials },
      });
    });
  };
}
