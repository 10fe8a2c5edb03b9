/**
 * The one module that calls fetch-event-source. Its defaults are unsafe for requests that cost credits
 * (see "Streaming rules" in DESIGN.md): every option here exists to send the POST exactly once.
 */
import { fetchEventSource } from '@microsoft/fetch-event-source';
import { AgentApiError, errorFromResponse, errorFromThrown } from './errors.js';
import { isTerminalEvent, parseAgentEvent } from './events.js';
import type { StreamHandlers } from './transport.js';

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
}

/** Opens the stream once; see `AgentTransport.stream` for how it settles. */
export async function openEventStream(request: EventStreamRequest): Promise<void> {
  const outer = request.signal;
  if (outer?.aborted) throw errorFromThrown(outer.reason, outer);
  // fetch-event-source calls window and document when a stream ends; without them it would crash the process.
  if (typeof window === 'undefined' || typeof document === 'undefined') {
    throw new AgentApiError('protocol', 'Event streams need a browser-like environment with window and document (a browser, or jsdom in Node).');
  }
  // Our own controller, so a terminal event can close the connection without looking like a cancel.
  const controller = new AbortController();
  const forwardAbort = () => controller.abort(outer?.reason);
  outer?.addEventListener('abort', forwardAbort, { once: true });
  let failure: unknown;
  try {
    const init: Parameters<typeof fetchEventSource>[1] = {
      method: request.method,
      headers: request.headers,
      signal: controller.signal,
      fetch: request.fetch,
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
          ? new AgentApiError('protocol', `Expected an event stream but the Agent API answered with ${contentType || 'no content type'}.`, { status: response.status })
          : refused;
      },
      onmessage(message) {
        // A fetch that ignores the abort keeps delivering; nothing reaches the app after a cancel or a terminal event.
        if (controller.signal.aborted) return;
        // Heartbeat comments (": ping") end in an empty message.
        if (message.data === '') return;
        const parsed = parseAgentEvent(message.data);
        if (!parsed.ok) {
          request.handlers.onProtocolError?.(new AgentApiError('protocol', parsed.reason));
          return;
        }
        try {
          request.handlers.onEvent(parsed.event);
        } catch (thrown) {
          failure = new AgentApiError('protocol', `An event handler threw: ${thrown instanceof Error ? thrown.message : String(thrown)}`, { cause: thrown });
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
    outer?.removeEventListener('abort', forwardAbort);
  }
  if (outer?.aborted) throw errorFromThrown(outer.reason, outer);
  if (failure !== undefined) throw errorFromThrown(failure);
}
