/** A transport that reaches an in-memory mock through the real HTTP transport: no server, same code path. */
import { createHttpTransport, type AgentTransport } from '../core/index.js';
import { createMockAgentApi } from './mock-agent-api.js';
import type { MockAgentApi, MockAgentApiOptions } from './mock-options.js';
import { withProjectRecords } from './mock-project-records.js';

/** Options of `createMockTransport`: an existing mock, or options for a new one. */
export type MockTransportOptions = { api?: MockAgentApi } & MockAgentApiOptions;

function abortError(reason: unknown): unknown {
  return reason instanceof Error ? reason : new DOMException('The operation was aborted.', 'AbortError');
}

/**
 * Wraps the body so that aborting the request ends it, as a network fetch does: a reader must not see
 * events after a cancel.
 */
function abortable(response: Response, signal: AbortSignal): Response {
  if (response.body === null) return response;
  const reader = response.body.getReader();
  let onAbort: (() => void) | undefined;
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        onAbort = () => {
          controller.error(abortError(signal.reason));
          reader.cancel(signal.reason).catch(() => undefined);
        };
        signal.addEventListener('abort', onAbort, { once: true });
      },
      async pull(controller) {
        try {
          const { done, value } = await reader.read();
          if (signal.aborted) return;
          if (done) {
            if (onAbort) signal.removeEventListener('abort', onAbort);
            controller.close();
          } else {
            controller.enqueue(value);
          }
        } catch (thrown) {
          if (onAbort) signal.removeEventListener('abort', onAbort);
          if (!signal.aborted) controller.error(thrown);
        }
      },
      cancel(reason) {
        if (onAbort) signal.removeEventListener('abort', onAbort);
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/** The `fetch` of a mock: a Request goes straight to its handler, with abort wired like a network fetch. */
export function createMockFetch(api: MockAgentApi): typeof fetch {
  return async (input, init) => {
    const signal = init?.signal ?? (input instanceof Request ? input.signal : undefined);
    if (signal?.aborted) throw abortError(signal.reason);
    // The signal stays out of the Request: under jsdom it may come from another realm than Request.
    const { signal: _signal, ...rest } = init ?? {};
    const request = input instanceof Request ? new Request(input, rest) : new Request(input, rest);
    const response = await api.fetch(request);
    return signal ? abortable(response, signal) : response;
  };
}

/**
 * An `AgentTransport` backed by an in-memory mock (a new one unless `api` is given); for browsers and tests.
 * It also answers the agency proxy's own routes (projects, conversation, events) for its one end user.
 */
export function createMockTransport(
  options: MockTransportOptions = {},
): AgentTransport & { api: MockAgentApi; fetch: typeof globalThis.fetch } {
  const { api: given, ...apiOptions } = options;
  const api = given ?? createMockAgentApi(apiOptions);
  const recordingFetch = withProjectRecords(createMockFetch(api), api.baseUrl);
  const transport = createHttpTransport({
    baseUrl: api.baseUrl,
    fetch: recordingFetch,
    headers: { authorization: `Bearer ${api.token}` },
  });
  return {
    json: (request) => transport.json(request),
    stream: (request, handlers) => transport.stream(request, handlers),
    api,
    fetch: recordingFetch,
  };
}
