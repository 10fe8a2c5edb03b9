/**
 * The hooks' two rules (README, "Hooks"): every action that sends a request returns a Promise that resolves
 * with its result and never rejects (never undefined: an action that cannot run resolves `{ ok: false }` and
 * sends nothing), and one load policy: load on mount or key change unless the store holds the answer, a
 * failure retried on the next mount (never in a loop), `enabled: false` to opt out.
 */
import { act, cleanup, render, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import {
  AgentProvider,
  useCodehost,
  useDeployment,
  useDeploymentConnections,
  usePlans,
  useProjects,
  useRepositories,
  useRepositoryActions,
  type AgentStore,
  type UseLoadOptions,
} from 'agent-embed';
import { AgentApiError, createAgentClient, createAgentStore, type AgentTransport } from 'agent-embed/core';
import { createMockTransport } from 'agent-embed/mock';

const ada = { id: 'ada', name: 'Ada Lovelace', email: 'ada@example.com' };
const disposers: (() => void)[] = [];

afterEach(() => {
  cleanup();
  for (const dispose of disposers.splice(0)) dispose();
  sessionStorage.clear();
});

/** A store over the mock, every JSON request recorded; `failing` paths answer 503 until `failing` is cleared. */
function setup() {
  const mock = createMockTransport({ speed: 'instant', rateLimit: false });
  disposers.push(() => mock.api.dispose());
  const requests: string[] = [];
  const failing = new Set<string>();
  const transport: AgentTransport = {
    async json(request) {
      requests.push(`${request.method} ${request.path}`);
      // Every answer comes in a later task, as from a server: a retry loop then shows as a count, not a hang.
      await new Promise((resolve) => setTimeout(resolve, 1));
      if ([...failing].some((path) => request.path.startsWith(path)))
        throw new AgentApiError('upstream', 'Service unavailable.', { status: 503 });
      return mock.json(request);
    },
    stream: (request, handlers) => mock.stream(request, handlers),
  };
  const store = createAgentStore({ client: createAgentClient({ transport }), storage: null });
  disposers.push(() => store.destroy());
  const count = (path: string) => requests.filter((request) => request === `GET ${path}`).length;
  return { store, requests, failing, count };
}

function inProvider(store: AgentStore, children: ReactNode, signedIn = true) {
  return (
    <AgentProvider store={store} {...(signedIn ? { externalUser: ada } : {})}>
      {children}
    </AgentProvider>
  );
}

/** Every data hook with a load policy, each reporting its status as a data attribute. */
function DataHooks(options: UseLoadOptions) {
  const plans = usePlans(options);
  const deployment = useDeployment('vercel', undefined, options);
  const connections = useDeploymentConnections('vercel', options);
  const codehost = useCodehost({ ...options, refreshOnReturn: false });
  const repositories = useRepositories(options);
  const projects = useProjects(options);
  return (
    <p
      data-testid="hooks"
      data-plans={plans.status}
      data-deployment={deployment.connectionStatus}
      data-connections={connections.status}
      data-codehost={codehost.connectionStatus}
      data-repositories={repositories.status}
      data-projects={projects.status}
    />
  );
}

const loadedPaths = [
  '/subscription-plans',
  '/deployments/vercel/connections',
  '/codehost/connections',
  '/codehost/connections/ada/repositories',
  '/projects',
];

describe('hook actions return a Promise of their result, never undefined and never rejected', () => {
  it('without an end user or a project, each action resolves { ok: false } at once and sends nothing', async () => {
    const { store, requests } = setup();
    const { result } = renderHook(
      () => ({
        deployment: useDeployment('vercel', undefined),
        codehost: useCodehost(),
        repositories: useRepositories(),
        actions: useRepositoryActions(undefined),
      }),
      { wrapper: ({ children }) => inProvider(store, children, false) },
    );
    const seen = result.current;
    const results = await Promise.all([
      seen.deployment.refresh(),
      seen.deployment.connect('token'),
      seen.deployment.deploy(),
      seen.codehost.refresh(),
      seen.codehost.startConnect('https://agency.example/back'),
      seen.repositories.goToPage(2),
      seen.repositories.loadMore(),
      seen.repositories.refresh(),
      seen.actions.linkRepository({ owner: 'ada', name: 'site' }),
      seen.actions.pushRepository(),
    ]);
    expect(results.map((result) => (result.ok ? 'ok' : result.error.kind))).toEqual([
      'unauthorized',
      'unauthorized',
      'validation', // no project to deploy
      'unauthorized',
      'unauthorized',
      'unauthorized',
      'unauthorized',
      'unauthorized',
      'unauthorized',
      'unauthorized',
    ]);
    expect(requests).toEqual([]);
    expect(store.getState().mutations).toEqual({});
  });

  it('an API failure resolves { ok: false, error } and is the same error the state shows', async () => {
    const { store, failing } = setup();
    failing.add('/subscription-plans');
    const { result: plans } = renderHook(() => usePlans({ enabled: false }), {
      wrapper: ({ children }) => inProvider(store, children),
    });
    let result: Awaited<ReturnType<typeof plans.current.refresh>> | undefined;
    await act(async () => {
      result = await plans.current.refresh();
    });
    expect(result?.ok).toBe(false);
    expect(plans.current.status).toBe('error');
    expect(result?.ok === false && result.error).toBe(plans.current.error);
  });
});

describe('one load policy', () => {
  it('loads on mount once for every hook sharing the key, and not again on a remount while the store holds it', async () => {
    const { store, count } = setup();
    const view = render(
      inProvider(
        store,
        <>
          <DataHooks />
          <DataHooks />
        </>,
      ),
    );
    await waitFor(() => {
      const hooks = view.getAllByTestId('hooks')[0]!;
      expect(hooks).toHaveAttribute('data-plans', 'success');
      expect(hooks).toHaveAttribute('data-deployment', 'missing');
      expect(hooks).toHaveAttribute('data-connections', 'success');
      expect(hooks).toHaveAttribute('data-codehost', 'missing');
      expect(hooks).toHaveAttribute('data-projects', 'success');
    });
    const once = loadedPaths.map(count);
    // Two hooks each: one request per resource. The provider's listing serves two resources (the end user's
    // connection, read through it, and the list itself). Repositories fail without a connection: asked once.
    expect(view.getAllByTestId('hooks')[0]).toHaveAttribute('data-repositories', 'error');
    expect(once).toEqual([1, 2, 1, 1, 1]);

    view.rerender(inProvider(store, null));
    view.rerender(inProvider(store, <DataHooks />));
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
    // Held answers are reused; the failed repository listing is tried again, once, by the new mount.
    expect(loadedPaths.map(count)).toEqual([1, 2, 1, 2, 1]);
  });

  it('enabled: false loads nothing; the actions still do', async () => {
    const { store, requests } = setup();
    render(inProvider(store, <DataHooks enabled={false} />));
    const { result: plans } = renderHook(() => usePlans({ enabled: false }), {
      wrapper: ({ children }) => inProvider(store, children),
    });
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
    expect(requests).toEqual([]);
    await act(async () => {
      expect((await plans.current.refresh()).ok).toBe(true);
    });
    expect(requests).toEqual(['GET /subscription-plans']);
  });

  it('a failed load is tried again on the next mount, never in a loop', async () => {
    const { store, failing, count } = setup();
    failing.add('/subscription-plans');
    const view = render(inProvider(store, <DataHooks />));
    await waitFor(() => expect(view.getByTestId('hooks')).toHaveAttribute('data-plans', 'error'));
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
    expect(count('/subscription-plans')).toBe(1);

    failing.clear();
    view.rerender(inProvider(store, null));
    view.rerender(inProvider(store, <DataHooks />));
    await waitFor(() => expect(view.getByTestId('hooks')).toHaveAttribute('data-plans', 'success'));
    expect(count('/subscription-plans')).toBe(2);
  });
});
