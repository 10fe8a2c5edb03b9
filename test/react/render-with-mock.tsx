/** Renders components inside an AgentProvider backed by the in-browser mock (instant speed, no rate limit). */
import { cleanup, render, type RenderResult } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { StrictMode, type ReactNode } from 'react';
import { AgentProvider, type AgentProviderOptions, type AgentStore } from 'agent-embed';
import {
  AgentApiError,
  createAgentClient,
  createAgentStore,
  type AgentStoreOptions,
  type AgentTransport,
} from 'agent-embed/core';
import { createMockTransport, type MockTransportOptions } from 'agent-embed/mock';

const mocks: { api: { dispose(): void } }[] = [];

/** Unmounts everything, stops the mocks' timers and clears the storage the provider persists to. */
export function cleanupRendered(): void {
  cleanup();
  for (const mock of mocks.splice(0)) mock.api.dispose();
  sessionStorage.clear();
}

/** Options of `renderWithMock`. */
export interface RenderWithMockOptions {
  mock?: MockTransportOptions;
  /** Store options (a store is built over the mock transport); omit to let the provider build its own. */
  store?: Partial<Omit<AgentStoreOptions, 'client'>>;
  provider?: Omit<AgentProviderOptions, 'children'>;
  strict?: boolean;
  /** Puts a layer between the client and the mock (a stricter server, a rewritten answer). */
  wrapTransport?: (transport: AgentTransport) => AgentTransport;
}

/** Everything a test needs to drive and inspect a rendered embed. */
export interface RenderedWithMock extends RenderResult {
  user: ReturnType<typeof userEvent.setup>;
  transport: ReturnType<typeof createMockTransport>;
  store: AgentStore | undefined;
  /** Generation and follow-up POSTs the mock received. */
  generationPosts(): { method: string; path: string }[];
  statusGets(): { method: string; path: string }[];
}

/** Renders `ui` inside a provider over a fresh in-memory mock. */
export function renderWithMock(ui: ReactNode, options: RenderWithMockOptions = {}): RenderedWithMock {
  const externalUser = options.provider?.externalUser;
  // The proxy in front of the mock serves the provider's end user, as an agency's session would.
  const transport = createMockTransport({
    speed: 'instant',
    rateLimit: false,
    ...(externalUser === undefined ? {} : { externalUser }),
    ...options.mock,
  });
  mocks.push(transport);
  const wire = options.wrapTransport?.(transport) ?? transport;
  const store =
    options.store === undefined
      ? undefined
      : createAgentStore({ client: createAgentClient({ transport: wire }), storage: null, ...options.store });
  const source = store === undefined ? { transport: wire } : { store };
  const tree = (
    <AgentProvider {...source} {...options.provider}>
      {ui}
    </AgentProvider>
  );
  const result = render(options.strict === true ? <StrictMode>{tree}</StrictMode> : tree);
  const requests = () => transport.api.admin.requests;
  return {
    ...result,
    user: userEvent.setup(),
    transport,
    store,
    generationPosts: () =>
      requests().filter((request) => request.method === 'POST' && /\/agent\/generate(\/|$)/.test(request.path)),
    statusGets: () =>
      requests().filter((request) => request.method === 'GET' && request.path.includes('/agent/project/')),
  };
}

/**
 * A transport straight to the API, without the agency proxy's own routes (`/projects...` answer 404): the
 * store then recovers an interrupted stream by polling the project status.
 */
export function withoutProxyRoutes(transport: AgentTransport): AgentTransport {
  const refuse = () => Promise.reject(new AgentApiError('not_found', 'Not Found', { status: 404 }));
  return {
    json: (request) => (request.path.startsWith('/projects') ? refuse() : transport.json(request)),
    stream: (request, handlers) =>
      request.path.startsWith('/projects') ? refuse() : transport.stream(request, handlers),
  };
}
