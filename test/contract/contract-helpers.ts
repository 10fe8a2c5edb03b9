/** The client against the mock over real HTTP on 127.0.0.1. */
import {
  createAgentClient,
  createHttpTransport,
  isAgentApiError,
  type AgentApiError,
  type AgentClient,
  type AgentErrorKind,
  type AgentEvent,
} from 'agent-embed/core';
import { startMockAgentServer, type MockAgentApi, type MockAgentServer } from 'agent-embed/mock';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';

/** A mock server and a client pointed at it with its token. */
export interface Harness {
  server: MockAgentServer;
  client: AgentClient;
  /** A client with another bearer token. */
  clientWith(token: string): AgentClient;
}

/** Starts an instant mock server on 127.0.0.1 with a free port. */
export async function startHarness(options: Parameters<typeof startMockAgentServer>[0] = {}): Promise<Harness> {
  const server = await startMockAgentServer({
    speed: 'instant',
    rateLimit: false,
    host: '127.0.0.1',
    port: 0,
    ...options,
  });
  const clientWith = (token: string) =>
    createAgentClient({
      transport: createHttpTransport({ baseUrl: server.url, headers: { authorization: `Bearer ${token}` } }),
    });
  return { server, client: clientWith(server.token), clientWith };
}

/** A harness for a whole test file: started before its tests, reset before each, closed after them. */
export function useHarness(): Harness {
  let harness: Harness | undefined;
  const started = (): Harness => {
    if (harness === undefined) throw new Error('The contract harness starts in beforeAll.');
    return harness;
  };
  beforeAll(async () => {
    harness = await startHarness();
  });
  afterAll(async () => {
    await harness?.server.close();
  });
  beforeEach(() => started().server.api.admin.reset());
  return {
    get server() {
      return started().server;
    },
    get client() {
      return started().client;
    },
    clientWith: (token) => started().clientWith(token),
  };
}

/** What an expected failure looks like. */
export interface ExpectedError {
  kind: AgentErrorKind;
  status?: number;
  message?: string;
  fieldErrors?: Record<string, string[]>;
  retryAfterMs?: number;
}

/** Awaits a call that must reject with an `AgentApiError` matching `expected`; returns the error. */
export async function expectApiError(call: Promise<unknown>, expected: ExpectedError): Promise<AgentApiError> {
  const outcome = await call.then(
    (value) => ({ resolved: true as const, value }),
    (error: unknown) => ({ resolved: false as const, error }),
  );
  if (outcome.resolved)
    throw new Error(
      `Expected an AgentApiError (${expected.kind}) but the call resolved with ${JSON.stringify(outcome.value)}`,
    );
  expect(isAgentApiError(outcome.error)).toBe(true);
  const error = outcome.error as AgentApiError;
  expect({
    kind: error.kind,
    status: error.status,
    message: error.message,
    fieldErrors: error.fieldErrors,
    retryAfterMs: error.retryAfterMs,
  }).toMatchObject(expected);
  return error;
}

/** Collects every event a generation hands to `onEvent`. */
export function collector(): { events: AgentEvent[]; onEvent: (event: AgentEvent) => void; types: () => string[] } {
  const events: AgentEvent[] = [];
  return {
    events,
    onEvent: (event) => events.push(event),
    types: () => events.map((event) => (event.type === 'unknown' ? `unknown:${event.originalType}` : event.type)),
  };
}

/** POSTs the generate requests the mock received: the library must never send one twice. */
export function generatePosts(target: { api: MockAgentApi }, path = '/api/v1/agent/generate'): number {
  return target.api.admin.requests.filter((entry) => entry.method === 'POST' && entry.path === path).length;
}

/** Completes the code-host install flow the way a browser would: open the page, press Install, follow to return_url. */
export async function completeInstall(redirectUrl: string): Promise<Response> {
  const page = await fetch(redirectUrl);
  expect(page.status).toBe(200);
  const html = await page.text();
  const action = /<form method="post" action="([^"]+)">/.exec(html)?.[1];
  const state = /name="state" value="([^"]+)"/.exec(html)?.[1];
  expect(action).toBeDefined();
  expect(state).toBeDefined();
  return fetch(new URL(action!, redirectUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `state=${encodeURIComponent(state!)}`,
    redirect: 'manual',
  });
}
