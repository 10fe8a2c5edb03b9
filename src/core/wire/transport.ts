/** The pluggable transport: how the client reaches the Agent API (or the agency's proxy in front of it). */
import { AgentApiError, errorFromResponse, errorFromThrown, isFailureBody } from './errors.js';
import { openEventStream, type StreamHandlers } from './event-stream.js';
import { defaultStreamSlicing, schedulerYield, type StreamSlicing } from './time-slice.js';
import { canFetchInWorker, fetchInWorker } from './worker-fetch.js';

export type { StreamHandlers } from './event-stream.js';

/** One request, with a path already filled and relative to the transport's base URL. */
export interface TransportRequest {
  method: 'GET' | 'POST';
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  signal?: AbortSignal;
}

/** How the client talks to the API. Implement it to add retries, logging or another wire. */
export interface AgentTransport {
  /** Sends a JSON request; resolves with the parsed body of a success, rejects with `AgentApiError`. */
  json(request: TransportRequest): Promise<unknown>;
  /**
   * Sends a request answered by an event stream, exactly once. Rejects with `AgentApiError` when refused
   * before the stream starts, when the stream breaks, or on abort; resolves when the server closes it or
   * after a terminal event.
   */
  stream(request: TransportRequest, handlers: StreamHandlers): Promise<void>;
}

/** Headers added to every request; a function is called per request (for a fresh session token). */
export type HeadersOption = Record<string, string> | (() => Record<string, string> | Promise<Record<string, string>>);

/** Options of `createHttpTransport`. */
export interface HttpTransportOptions {
  /** The base URL: the agency's proxy route, or the API's base ending in /api/v1 (server side only). */
  baseUrl: string;
  headers?: HeadersOption;
  credentials?: RequestCredentials;
  /** A fetch to use instead of the global one (tests, the in-browser mock). */
  fetch?: typeof fetch;
  /**
   * Milliseconds an open event stream may stay silent (heartbeat comments count: they prove the connection
   * is alive) before it ends as `interrupted` and the store recovers; default 45 000, three of the proxy's
   * 15 s heartbeats. 0 turns it off. Nothing is ever sent again.
   */
  streamIdleTimeoutMs?: number;
  /**
   * How an event stream shares the thread: by default, in a page, events are applied in slices of about 8 ms
   * with the browser's turn in between (`scheduler.yield()`, else a message task); elsewhere without pausing.
   * Inject a clock and a yield to test the slicing; `null` applies every event at once.
   */
  slicing?: StreamSlicing | null;
  /**
   * Whether an event stream's request is sent, and its body read, by a worker, which hands the chunks to the page:
   * Chromium's hand-over of a large body then leaves the page's main thread (up to 260 ms per task at 4x CPU
   * throttling). Default: in a page that can start a worker, unless `fetch` is given. Where none starts, the page
   * reads the stream itself; either way the request is sent once.
   */
  streamWorker?: boolean;
}

/** Default of `streamIdleTimeoutMs`. */
export const defaultStreamIdleTimeoutMs = 45_000;

/** Creates the HTTP transport: fetch for JSON, and for event streams one fetch read by eventsource-parser. */
export function createHttpTransport(options: HttpTransportOptions): AgentTransport {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const doFetch: typeof fetch = (input, init) => (options.fetch ?? globalThis.fetch)(input, init);
  const slicing = options.slicing === undefined ? defaultStreamSlicing() : (options.slicing ?? undefined);
  const streamFetch =
    (options.streamWorker ?? options.fetch === undefined) && canFetchInWorker() ? fetchInWorker : doFetch;

  function url(request: TransportRequest): string {
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(request.query ?? {})) {
      if (value !== undefined) query.set(key, String(value));
    }
    const search = query.toString();
    return `${baseUrl}${request.path}${search ? `?${search}` : ''}`;
  }

  async function headers(extra: Record<string, string>): Promise<Record<string, string>> {
    const given = typeof options.headers === 'function' ? await options.headers() : (options.headers ?? {});
    const merged: Record<string, string> = {};
    // Lower-case names, so that a header the transport sets replaces the caller's however it is spelt.
    for (const [name, value] of Object.entries({ ...given, ...extra })) merged[name.toLowerCase()] = value;
    return merged;
  }

  return {
    async json(request) {
      if (request.signal?.aborted) throw errorFromThrown(request.signal.reason, request.signal);
      const init: RequestInit = {
        method: request.method,
        headers: await headers(
          request.body === undefined
            ? { accept: 'application/json' }
            : { accept: 'application/json', 'content-type': 'application/json' },
        ),
      };
      if (request.body !== undefined) init.body = JSON.stringify(request.body);
      if (request.signal) init.signal = request.signal;
      if (options.credentials) init.credentials = options.credentials;
      let response: Response;
      let text: string;
      try {
        response = await doFetch(url(request), init);
        text = await response.text();
      } catch (thrown) {
        throw errorFromThrown(thrown, request.signal);
      }
      if (!response.ok) throw errorFromResponse(response.status, response.headers, text);
      let body: unknown;
      try {
        body = text === '' ? null : JSON.parse(text);
      } catch (thrown) {
        throw new AgentApiError('protocol', 'The Agent API answered with something that is not JSON.', {
          status: response.status,
          cause: thrown,
        });
      }
      if (isFailureBody(body)) throw errorFromResponse(response.status, response.headers, text);
      return body;
    },

    async stream(request, handlers) {
      // In a page that can yield, the request starts in a task of its own: the click or the resume that asked for
      // it renders first, and the stream's setup and fetch do not lengthen that task.
      const startTask = slicing === undefined ? undefined : schedulerYield();
      if (startTask !== undefined) await startTask();
      if (request.signal?.aborted) throw errorFromThrown(request.signal.reason, request.signal);
      const streamOptions: Parameters<typeof openEventStream>[0] = {
        url: url(request),
        method: request.method,
        headers: await headers({ accept: 'text/event-stream', 'content-type': 'application/json' }),
        handlers,
        fetch: streamFetch,
        idleTimeoutMs: options.streamIdleTimeoutMs ?? defaultStreamIdleTimeoutMs,
        slicing,
      };
      if (request.body !== undefined) streamOptions.body = JSON.stringify(request.body);
      if (request.signal) streamOptions.signal = request.signal;
      if (options.credentials) streamOptions.credentials = options.credentials;
      await openEventStream(streamOptions);
    },
  };
}
