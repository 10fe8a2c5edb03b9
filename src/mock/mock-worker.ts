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
import { defaultMockBaseUrl } from './mock-options.js';
import { createMockTransport, type MockTransportOptions } from './mock-transport.js';

/**
 * In a dedicated worker's module: creates a mock transport there (`createMockTransport(options)`: a new mock, the real
 * proxy in front of it) and answers the page's `createWorkerMockTransport` with it. Returns that transport, whose
 * `api.admin` sets the mock's state from the worker.
 */
export function serveMockInWorker(options: MockTransportOptions = {}): ReturnType<typeof createMockTransport> {
  const transport = createMockTransport(options);
  serveFetchInWorker(transport.fetch);
  return transport;
}

/** Options of `createWorkerMockTransport`. */
export interface WorkerMockTransportOptions extends Pick<HttpTransportOptions, 'slicing' | 'streamIdleTimeoutMs'> {
  /** The worker's mock's `baseUrl`, if its options set one (default `defaultMockBaseUrl`). */
  baseUrl?: string;
}

/**
 * An `AgentTransport` to the mock that `worker` serves (its module calls `serveMockInWorker`): every request, JSON or
 * event stream, is sent to the worker once, and its answer's body is handed over chunk by chunk as the page reads it.
 * If the worker fails, requests fail as over a broken network.
 */
export function createWorkerMockTransport(worker: Worker, options: WorkerMockTransportOptions = {}): AgentTransport {
  const { baseUrl = defaultMockBaseUrl, ...rest } = options;
  return createHttpTransport({ ...rest, baseUrl, fetch: fetchThroughWorker(worker), streamWorker: false });
}
