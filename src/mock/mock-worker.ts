/**
 * The in-browser mock off the page: the mock and its proxy (`createMockTransport`) run in a dedicated worker, and the
 * page reaches them by messages. A burst of 20,000 events then costs the page only its own ingestion: the mock's
 * producer, the proxy's relay and recorder, and the garbage they make stay in the worker.
 */
import {
  createHttpTransport,
  fetchThroughWorker,
  serveFetchInWorker,
  type AgentTransport,
  type HttpTransportOptions,
} from '../core/index.js';
import { createMockAdminClient, type MockAdminClient } from './mock-admin-client.js';
import { defaultMockBaseUrl } from './mock-options.js';
import { createMockFetch, createMockTransport, type MockTransportOptions } from './mock-transport.js';

/**
 * A `fetch` that answers as a mock server would at the mock's origin, with the proxy in front of its API: the API's path
 * through the proxy (the browser's requests), and from the mock itself its own routes (its admin under /__mock/admin,
 * the code-host pages, app pages) and any request with an `authorization` header (the agency's server's, with the
 * mock's token). What a worker serves (`serveMockInWorker`; a worker of several mocks routes by origin to theirs).
 */
export function createMockSiteFetch(transport: ReturnType<typeof createMockTransport>): typeof fetch {
  const mockFetch = createMockFetch(transport.api);
  const apiPath = new URL(transport.api.baseUrl).pathname;
  return (input, init) => {
    const { pathname } = new URL(input instanceof Request ? input.url : String(input));
    const fromServer = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined)).has(
      'authorization',
    );
    const throughProxy = !fromServer && (pathname === apiPath || pathname.startsWith(`${apiPath}/`));
    return (throughProxy ? transport.fetch : mockFetch)(input, init);
  };
}

/**
 * In a dedicated worker's module: creates a mock transport there (`createMockTransport(options)`: a new mock, the real
 * proxy in front of it) and answers the page's `createWorkerMockTransport` with it, as a mock server at the mock's
 * origin would (`createMockSiteFetch`). Returns that transport, whose `api.admin` sets the mock's state from the worker.
 */
export function serveMockInWorker(options: MockTransportOptions = {}): ReturnType<typeof createMockTransport> {
  const transport = createMockTransport(options);
  serveFetchInWorker(createMockSiteFetch(transport));
  return transport;
}

/** Options of `createWorkerMockTransport`. */
export interface WorkerMockTransportOptions extends Pick<HttpTransportOptions, 'slicing' | 'streamIdleTimeoutMs'> {
  /** The worker's mock's `baseUrl`, if its options set one (default `defaultMockBaseUrl`). */
  baseUrl?: string;
}

/** The page's side of a mock in a worker: its transport, its admin, and a `fetch` of the mock's own routes. */
export interface WorkerMockTransport extends AgentTransport {
  /** The worker's mock's admin (`MockAdmin`'s methods, each answered once the worker has done it). */
  admin: MockAdminClient;
  /**
   * A `fetch` to the worker: the API's path reaches its proxy, as the page's requests do; the mock's own routes (the
   * code-host pages) and a request with an `authorization` header (the agency's server's) reach the mock itself.
   */
  fetch: typeof globalThis.fetch;
}

/**
 * An `AgentTransport` to the mock that `worker` serves (its module calls `serveMockInWorker`): every request, JSON or
 * event stream, is sent to the worker once, and its answer's body is handed over chunk by chunk as the page reads it.
 * If the worker fails, requests fail as over a broken network.
 */
export function createWorkerMockTransport(
  worker: Worker,
  options: WorkerMockTransportOptions = {},
): WorkerMockTransport {
  const { baseUrl = defaultMockBaseUrl, ...rest } = options;
  const fetch = fetchThroughWorker(worker);
  const transport = createHttpTransport({ ...rest, baseUrl, fetch, streamWorker: false });
  return {
    json: (request) => transport.json(request),
    stream: (request, handlers) => transport.stream(request, handlers),
    admin: createMockAdminClient({ url: baseUrl, fetch }),
    fetch,
  };
}
