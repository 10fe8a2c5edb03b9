/**
 * The one module that calls fetch-event-source. Its defaults are unsafe for requests that cost credits
 * (see "Streaming rules" in DESIGN.md): every option here exists to send the POST exactly once.
 */
import { fetchEventSource } from '@microsoft/fetch-event-source';
import { AgentApiError, errorFromResponse, errorFromThrown, streamInterruptedError } from './errors.js';
import { isTerminalEvent, parseAgentEvent } from './events.js';
import type { AgentEvent } from './events.js';

/** Callbacks of an event stream. */
export interface StreamHandlers {
  /** The server accepted the request and the stream has started. */
  onOpen?(): void;
  /** An event, with its SSE `id:` when the server numbered it (the agency proxy does: 1, 2, 3… per generation). */
  onEvent(event: AgentEvent, eventId?: number): void;
  /** A line that could not be understood; the stream goes on. */
  onProtocolError?(error: AgentApiError): void;
}

/** What `openEventStream` needs: a plain-object header set with lower-case names. */
export interface EventStreamRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
  credentials?: RequestCredentials;
  signal?: AbortSignal;
  handlers: StreamHandlers;
  fetch: typeof fetch;
  /** Milliseconds without a byte (heartbeats count) after which an open stream ends as interrupted; 0 for never. */
  idleTimeoutMs: number;
}

/** Work done on a stream before the main thread is handed back, and the largest piece parsed at once. */
const sliceMs = 8;
const maxPieceBytes = 16 * 1024;

/** Resolves in a new task (not a microtask), so rendering and input run in between. */
function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const host = globalThis as { setImmediate?: (callback: () => void) => unknown };
    // Node's setImmediate; in browsers a message, which is not clamped to 4 ms as nested timeouts are.
    if (typeof host.setImmediate === 'function') {
      host.setImmediate(resolve);
    } else if (typeof MessageChannel === 'function') {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        channel.port1.close();
        resolve();
      };
      channel.port2.postMessage(undefined);
    } else {
      setTimeout(resolve, 0);
    }
  });
}

/**
 * The response with its body cut into small pieces and a new task started every `sliceMs`: a burst of
 * thousands of queued events would otherwise be parsed and applied in one long main-thread task, since
 * every read of an already-buffered body resolves as a microtask.
 */
function timeSlicedResponse(
  response: Response,
  onBytes: () => void,
  now: () => number = () => performance.now(),
): Response {
  const source = response.body;
  if (source === null) return response;
  const reader = source.getReader();
  let pending: Uint8Array | undefined;
  let sliceStart = now();
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (now() - sliceStart >= sliceMs) {
          await nextTask();
          sliceStart = now();
        }
        if (pending === undefined) {
          const { done, value } = await reader.read();
          if (done) {
            controller.close();
            return;
          }
          pending = value;
          onBytes();
        }
        controller.enqueue(pending.subarray(0, maxPieceBytes));
        pending = pending.length > maxPieceBytes ? pending.subarray(maxPieceBytes) : undefined;
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

function eventIdOf(id: string): number | undefined {
  // Most streams (straight from the API) number nothing: skip the pattern test for every event.
  if (id === '') return undefined;
  return /^\d{1,15}$/.test(id) ? Number(id) : undefined;
}

/** Opens the stream once; see `AgentTransport.stream` for how it settles. */
export async function openEventStream(request: EventStreamRequest): Promise<void> {
  const outer = request.signal;
  if (outer?.aborted) throw errorFromThrown(outer.reason, outer);
  // fetch-event-source calls window and document when a stream ends; without them it would crash the process.
  if (typeof window === 'undefined' || typeof document === 'undefined') {
    throw new AgentApiError(
      'protocol',
      'Event streams need a browser-like environment with window and document (a browser, or jsdom in Node).',
    );
  }
  // Our own controller, so a terminal event can close the connection without looking like a cancel.
  const controller = new AbortController();
  // Read for every event: a plain flag costs less than the signal's two checked getters.
  let closed = false;
  controller.signal.addEventListener(
    'abort',
    () => {
      closed = true;
    },
    { once: true },
  );
  const forwardAbort = () => controller.abort(outer?.reason);
  outer?.addEventListener('abort', forwardAbort, { once: true });
  let failure: unknown;
  // A connection that dies silently (a closed laptop, a network switch) would otherwise stay open forever.
  // Each read only notes the time; the one timer re-arms itself for what is left, so a burst costs no timers.
  const idleMs = request.idleTimeoutMs > 0 && Number.isFinite(request.idleTimeoutMs) ? request.idleTimeoutMs : 0;
  let idleTimer: ReturnType<typeof setTimeout> | undefined;
  let lastBytesAt = 0;
  const checkIdle = () => {
    const silentFor = Date.now() - lastBytesAt;
    if (silentFor < idleMs) {
      idleTimer = setTimeout(checkIdle, idleMs - silentFor);
      return;
    }
    failure ??= streamInterruptedError('idle');
    controller.abort();
  };
  const noteBytes = () => {
    lastBytesAt = Date.now();
    if (idleMs > 0 && idleTimer === undefined && !controller.signal.aborted) idleTimer = setTimeout(checkIdle, idleMs);
  };
  try {
    const init: Parameters<typeof fetchEventSource>[1] = {
      method: request.method,
      headers: request.headers,
      signal: controller.signal,
      fetch: async (input, init) => {
        const response = await request.fetch(input, init);
        noteBytes();
        return timeSlicedResponse(response, noteBytes);
      },
      // Otherwise a hidden tab that becomes visible sends the POST again.
      openWhenHidden: true,
      async onopen(response) {
        const contentType = response.headers.get('content-type') ?? '';
        if (response.ok && contentType.toLowerCase().startsWith('text/event-stream')) {
          request.handlers.onOpen?.();
          return;
        }
        const text = await response.text().catch(() => '');
        if (!response.ok) throw errorFromResponse(response.status, response.headers, text);
        const refused = errorFromResponse(response.status, response.headers, text);
        throw refused.kind === 'protocol'
          ? new AgentApiError(
              'protocol',
              `Expected an event stream but the Agent API answered with ${contentType || 'no content type'}.`,
              { status: response.status },
            )
          : refused;
      },
      onmessage(message) {
        // A fetch that ignores the abort keeps delivering; nothing reaches the app after a cancel or a terminal event.
        if (closed) return;
        // Heartbeat comments (": ping") end in an empty message.
        if (message.data === '') return;
        const parsed = parseAgentEvent(message.data);
        if (!parsed.ok) {
          request.handlers.onProtocolError?.(new AgentApiError('protocol', parsed.reason));
          return;
        }
        try {
          request.handlers.onEvent(parsed.event, eventIdOf(message.id));
        } catch (thrown) {
          failure = new AgentApiError(
            'protocol',
            `An event handler threw: ${thrown instanceof Error ? thrown.message : String(thrown)}`,
            { cause: thrown },
          );
          controller.abort();
          return;
        }
        if (isTerminalEvent(parsed.event)) controller.abort();
      },
      // Throwing stops fetch-event-source from retrying (it would re-POST every second forever).
      onerror(thrown) {
        failure = thrown;
        throw thrown;
      },
    };
    if (request.body !== undefined) init.body = request.body;
    if (request.credentials) init.credentials = request.credentials;
    await fetchEventSource(request.url, init);
  } catch (thrown) {
    failure ??= thrown;
  } finally {
    clearTimeout(idleTimer);
    outer?.removeEventListener('abort', forwardAbort);
  }
  if (outer?.aborted) throw errorFromThrown(outer.reason, outer);
  if (failure !== undefined) throw errorFromThrown(failure);
}
