/**
 * The in-browser mock as an agency runs it: the real agency proxy (`createAgentProxy`, memory store) in front
 * of an in-memory mock Agent API, both reached through `fetch` functions: no server, production's code path.
 */
import { createHttpTransport, parseHttpUrl, schedulerYield, type AgentTransport } from '../core/index.js';
import {
  createAgentProxy,
  createMemoryProxyStore,
  type AgentProxyHandler,
  type AgentProxyOptions,
  type ProxyStore,
} from '../server/index.js';
import { createMockAgentApi } from './mock-agent-api.js';
import type { MockAgentApi, MockAgentApiOptions } from './mock-options.js';

/** The signed-in end user of a mock transport, as `AgentProvider`'s `externalUser` names one. */
export interface MockExternalUser {
  id: string;
  name?: string;
  email?: string;
}

/** The end user a mock transport's proxy serves when none is given. */
export const defaultMockExternalUser: MockExternalUser = {
  id: 'mock-end-user',
  name: 'Ada Lovelace',
  email: 'ada@agency.example.test',
};

/** Options of the proxy in front of the mock; the mock transport sets where it lives and who is signed in. */
export type MockProxyOptions = Omit<
  Partial<AgentProxyOptions>,
  'apiBaseUrl' | 'apiToken' | 'basePath' | 'fetch' | 'authorize'
>;

/** Options of `createMockTransport`: an existing mock, or options for a new one; the end user; the proxy's options. */
export type MockTransportOptions = {
  api?: MockAgentApi;
  /** The one signed-in end user the proxy serves (default `defaultMockExternalUser`); pass the provider's. */
  externalUser?: MockExternalUser;
  /**
   * More options of the proxy. By default it has no rate budget (the mock's own `rateLimit` plays the upstream's),
   * no status or plan cache (a mock changed by its admin answers at once), and `appUrl` the page's address.
   */
  proxy?: MockProxyOptions;
} & MockAgentApiOptions;

/** One proxy store per mock, like one agency in front of one API: transports over a mock share its records. */
const proxyStores = new WeakMap<MockAgentApi, ProxyStore>();

function proxyStoreOf(api: MockAgentApi): ProxyStore {
  let store = proxyStores.get(api);
  if (store === undefined) proxyStores.set(api, (store = createMemoryProxyStore()));
  return store;
}

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

/**
 * A `fetch` over a Request handler (a mock, a proxy): the Request goes straight to it, with abort wired like a network
 * fetch. With `hop`, the request reaches the handler in a new task and its answer comes back in another, as over a
 * network: the click that sent it ends first, and so does the handler's own work on it.
 */
function fetchOf(handler: (request: Request) => Promise<Response>, hop?: () => Promise<void>): typeof fetch {
  return async (input, init) => {
    const signal = init?.signal ?? (input instanceof Request ? input.signal : undefined);
    if (signal?.aborted) throw abortError(signal.reason);
    if (hop !== undefined) {
      await hop();
      if (signal?.aborted) throw abortError(signal.reason);
    }
    // The signal stays out of the Request: under jsdom it may come from another realm than Request.
    const { signal: _signal, ...rest } = init ?? {};
    const request = input instanceof Request ? new Request(input, rest) : new Request(input, rest);
    const response = await handler(request);
    if (hop !== undefined) {
      await hop();
      // Cancelled while the answer was on its way: the handler's stream is let go, as a network fetch drops it.
      if (signal?.aborted) {
        response.body?.cancel(signal.reason).catch(() => undefined);
        throw abortError(signal.reason);
      }
    }
    return signal ? abortable(response, signal) : response;
  };
}

/**
 * The `fetch` of a mock: a Request goes to its handler with abort wired like a network fetch; in a page, it and its
 * answer each cross in a task of their own, as over a network.
 */
export function createMockFetch(api: MockAgentApi): typeof fetch {
  return fetchOf((request) => api.fetch(request), schedulerYield());
}

/**
 * An `AgentTransport` for browsers and tests: the agency proxy (`createAgentProxy`, the one end user
 * `externalUser`) in front of an in-memory mock (a new one unless `api` is given), at the mock's base URL.
 * Transports over one mock share one memory store (ownership, projects, conversations), as the end users of
 * one agency do. `fetch` reaches the proxy as a browser would; `proxy` is the proxy's handler.
 */
export function createMockTransport(
  options: MockTransportOptions = {},
): AgentTransport & { api: MockAgentApi; fetch: typeof globalThis.fetch; proxy: AgentProxyHandler } {
  const { api: given, externalUser = defaultMockExternalUser, proxy: proxyOptions, ...apiOptions } = options;
  const api = given ?? createMockAgentApi(apiOptions);
  // One slicing for the whole chain in the page: the mock's producer, the proxy's relay, the client's ingestion.
  const { slicing } = apiOptions;
  const page = parseHttpUrl((globalThis as { location?: { href?: string } }).location?.href)?.href;
  const user = {
    externalUserId: externalUser.id,
    ...(externalUser.name === undefined ? {} : { name: externalUser.name }),
    ...(externalUser.email === undefined ? {} : { email: externalUser.email }),
  };
  const proxy = createAgentProxy({
    rateLimit: false,
    statusCacheMs: 0,
    teamAnswersCacheMs: 0,
    store: proxyStoreOf(api),
    ...(page === undefined ? {} : { appUrl: page }),
    ...(slicing === undefined ? {} : { slicing }),
    ...proxyOptions,
    apiBaseUrl: api.baseUrl,
    apiToken: api.token,
    // Mounted where the mock's API is, on its own fetch: the browser's URLs stay the mock's.
    basePath: parseHttpUrl(api.baseUrl)?.pathname ?? '',
    fetch: createMockFetch(api),
    authorize: () => user,
  });
  // The browser's requests cross a network to the proxy: in a page they reach it in a task of their own.
  const proxyFetch = fetchOf(proxy, schedulerYield());
  const transport = createHttpTransport({
    baseUrl: api.baseUrl,
    fetch: proxyFetch,
    ...(slicing === undefined ? {} : { slicing }),
  });
  return {
    json: (request) => transport.json(request),
    stream: (request, handlers) => transport.stream(request, handlers),
    api,
    fetch: proxyFetch,
    proxy,
  };
}
