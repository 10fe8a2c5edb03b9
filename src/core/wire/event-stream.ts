/**
 * The one module that reads event streams: one fetch, never repeated (a POST costs credits; see the README's
 * "Streaming safety" and docs/decisions.md), its body cut into events by eventsource-parser, the spec-conformant parser the AI
 * SDK uses. There is no retry, no reconnect and no visibility handling to turn off: nothing here can send
 * the request a second time. It needs no DOM, so the client streams in Node, workers and edge runtimes too.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { AgentApiError, errorFromResponse, errorFromThrown, streamInterruptedError } from './errors.js';
import { isTerminalEvent, readAgentEvent } from './events.js';
import type { AgentEvent } from './events.js';
import { createSlicer, type StreamSlicing } from './time-slice.js';

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
  /** How events are applied in slices that hand the thread back; `undefined` applies every event at once. */
  slicing: StreamSlicing | undefined;
}

/** The largest piece of a chunk parsed at once, so that a slice's deadline is checked within a big chunk too. */
const maxPieceBytes = 16 * 1024;
/** The largest event kept while waiting for its blank line (characters); a longer one fails the stream. */
const maxEventChars = 16 * 1024 * 1024;

function eventIdOf(id: string | undefined): number | undefined {
  // Most streams (straight from the API) number nothing; a replay numbers every event: digits read without a
  // pattern test (which cost a fifth of a replay's bare JSON.parse).
  if (id === undefined || id === '' || id.length > 15) return undefined;
  let value = 0;
  for (let index = 0; index < id.length; index++) {
    const digit = id.charCodeAt(index) - 48;
    if (digit < 0 || digit > 9) return undefined;
    value = value * 10 + digit;
  }
  return value;
}

/** Refuses an answer that is not an event stream, with the error its status and body say. */
async function checkStreamAnswer(response: Response): Promise<void> {
  const contentType = response.headers.get('content-type') ?? '';
  if (response.ok && contentType.toLowerCase().startsWith('text/event-stream')) return;
  const text = await response.text().catch(() => '');
  const refused = errorFromResponse(response.status, response.headers, text);
  if (!response.ok || refused.kind !== 'protocol') throw refused;
  throw new AgentApiError(
    'protocol',
    `Expected an event stream but the Agent API answered with ${contentType || 'no content type'}.`,
    { status: response.status },
  );
}

/** Opens the stream once; see `AgentTransport.stream` for how it settles. */
export async function openEventStream(request: EventStreamRequest): Promise<void> {
  const outer = request.signal;
  if (outer?.aborted) throw errorFromThrown(outer.reason, outer);
  // Our own controller, so a terminal event can close the connection without looking like a cancel.
  const controller = new AbortController();
  // Set by a terminal event, an abort or a failure; read for every event, as a plain flag is cheaper than
  // the signal's checked getters. A fetch that ignores the abort keeps delivering: nothing passes this.
  let closed = false;
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  let failure: unknown;
  const close = () => {
    closed = true;
    // Also ends a read pending on a fetch that ignores the abort signal.
    reader?.cancel().catch(() => {});
    controller.abort();
  };
  outer?.addEventListener('abort', close, { once: true });
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
    close();
  };
  const noteBytes = () => {
    lastBytesAt = Date.now();
    if (idleMs > 0 && idleTimer === undefined && !closed) idleTimer = setTimeout(checkIdle, idleMs);
  };
  const deliver = (message: EventSourceMessage) => {
    // An empty `data:` is a keep-alive; comments (": ping") never reach here.
    if (message.data === '') return;
    const event = readAgentEvent(message.data);
    if (typeof event === 'string') {
      request.handlers.onProtocolError?.(new AgentApiError('protocol', event));
      return;
    }
    try {
      request.handlers.onEvent(event, eventIdOf(message.id));
    } catch (thrown) {
      failure ??= new AgentApiError(
        'protocol',
        `An event handler threw: ${thrown instanceof Error ? thrown.message : String(thrown)}`,
        { cause: thrown },
      );
      close();
      return;
    }
    if (isTerminalEvent(event)) close();
  };
  // The parser only queues messages; `drain` applies them, so the slice's deadline can fall between any two.
  const slicer = createSlicer(request.slicing);
  // Reused from piece to piece: `queued` messages wait in it, `next` is the first not yet applied.
  const queue: EventSourceMessage[] = [];
  let queued = 0;
  let next = 0;
  /** Applies the queued events; true when the slice ran out of time with events left (then yield, drain again). */
  const drain = (): boolean => {
    while (next < queued && !closed) {
      deliver(queue[next++] as EventSourceMessage);
      if (slicer.due()) return true;
    }
    queued = 0;
    next = 0;
    return false;
  };
  const parser = createParser({
    maxBufferSize: maxEventChars,
    onEvent: (message) => {
      queue[queued++] = message;
    },
    // Unknown fields and bad `retry:` values are ignored, as the SSE spec says; only an endless event fails.
    onError(error) {
      if (error.type !== 'max-buffer-size-exceeded') return;
      failure ??= new AgentApiError('protocol', 'An event grew past 16 MiB without ending.');
      close();
    },
  });
  try {
    const init: RequestInit = { method: request.method, headers: request.headers, signal: controller.signal };
    if (request.body !== undefined) init.body = request.body;
    if (request.credentials) init.credentials = request.credentials;
    const response = await request.fetch(request.url, init);
    noteBytes();
    await checkStreamAnswer(response);
    request.handlers.onOpen?.();
    if (response.body !== null && !closed) {
      reader = response.body.getReader();
      const decoder = new TextDecoder();
      let firstChunk = true;
      while (!closed) {
        const { done, value } = await reader.read();
        if (done || closed) break;
        noteBytes();
        // A chunk read after the slice ran out came in a task of the browser's (a replay's 2 MB took 39 ms of one at
        // 4x CPU throttling): its events start in a new one. The first came after a wait for the answer, during which
        // the page could render: it does not wait for a frame.
        if (slicer.overdue()) await slicer.pause(firstChunk);
        firstChunk = false;
        for (let offset = 0; offset < value.length && !closed; offset += maxPieceBytes) {
          parser.feed(decoder.decode(value.subarray(offset, offset + maxPieceBytes), { stream: true }));
          while (drain()) await slicer.pause();
        }
      }
    }
  } catch (thrown) {
    // Once closed (a terminal event, a cancel, a failure already noted), a rejected read is only the echo.
    if (!closed) failure ??= thrown;
  } finally {
    clearTimeout(idleTimer);
    outer?.removeEventListener('abort', close);
    close();
  }
  if (outer?.aborted) throw errorFromThrown(outer.reason, outer);
  if (failure !== undefined) throw errorFromThrown(failure);
}
