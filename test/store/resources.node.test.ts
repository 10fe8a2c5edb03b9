/**
 * The resource mechanism (docs/architecture.md, "Server data: resources"), case by case against a transport
 * whose every answer the test gives by hand, in the order it chooses.
 */
import { describe, expect, it } from 'vitest';
import {
  AgentApiError,
  createAgentClient,
  createAgentStore,
  resourceSpecs,
  selectResource,
  type AgentTransport,
  type ResourceSpec,
} from 'agent-embed/core';

interface Pending {
  method: string;
  path: string;
  answer(body: unknown): void;
  refuse(error: AgentApiError): void;
}

/** A store whose JSON requests wait until the test answers them; streams are not used here. */
function setup() {
  const pending: Pending[] = [];
  const transport: AgentTransport = {
    json: (request) =>
      new Promise((resolve, reject) => {
        pending.push({ method: request.method, path: request.path, answer: resolve, refuse: reject });
      }),
    stream: () => Promise.reject(new AgentApiError('not_found', 'Not found.', { status: 404 })),
  };
  const store = createAgentStore({ client: createAgentClient({ transport }), storage: null });
  /** The oldest unanswered request for `path`. */
  const take = (path: string, method = 'GET'): Pending => {
    const index = pending.findIndex((request) => request.path === path && request.method === method);
    if (index === -1) throw new Error(`no request for ${path} (open: ${pending.map((p) => p.path).join(', ')})`);
    return pending.splice(index, 1)[0]!;
  };
  const sent = (path: string) => pending.filter((request) => request.path === path && request.method === 'GET').length;
  return { store, take, sent };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const failure = () => new AgentApiError('upstream', 'Service unavailable.', { status: 503 });
const plan = (name: string) => ({ id: name, name, slug: name.toLowerCase() });
const connection = (externalUserId: string) => ({ id: 1, external_user_id: externalUserId, provider: 'vercel' });
const vercel = resourceSpecs.deploymentConnections('vercel');
const adaOnVercel = resourceSpecs.deploymentConnection('vercel', 'ada');

interface Case {
  name: string;
  spec: ResourceSpec<unknown>;
  path: string;
  run(context: ReturnType<typeof setup>): Promise<void>;
  /** The resource at the end, and how many requests of its path are still open. */
  expected: { status: string; data: unknown; open?: number };
}

const cases: Case[] = [
  {
    name: 'concurrent loads of a key share one request and one promise',
    spec: resourceSpecs.plans,
    path: '/subscription-plans',
    async run({ store, take, sent }) {
      const loads = [1, 2, 3].map(() => store.getState().fetchResource(resourceSpecs.plans));
      expect(new Set(loads).size).toBe(1);
      expect(sent('/subscription-plans')).toBe(1);
      take('/subscription-plans').answer({ data: [plan('Pro')] });
      await Promise.all(loads);
    },
    expected: { status: 'success', data: [plan('Pro')] },
  },
  {
    name: 'an error is kept, then a refresh of the key succeeds',
    spec: resourceSpecs.projects,
    path: '/projects',
    async run({ store, take }) {
      const first = store.getState().fetchResource(resourceSpecs.projects);
      take('/projects').refuse(failure());
      await expect(first).resolves.toMatchObject({ ok: false, error: { kind: 'upstream' } });
      expect(selectResource(store.getState(), resourceSpecs.projects)).toMatchObject({ status: 'error' });
      const again = store.getState().fetchResource(resourceSpecs.projects);
      expect(selectResource(store.getState(), resourceSpecs.projects).status).toBe('loading');
      take('/projects').answer({ projects: [] });
      await expect(again).resolves.toEqual({ ok: true, data: [] });
    },
    expected: { status: 'success', data: [] },
  },
  {
    name: 'a deploy invalidates the provider connections: loaded again, the old list shown meanwhile',
    spec: vercel,
    path: '/deployments/vercel/connections',
    async run({ store, take }) {
      const first = store.getState().fetchResource(vercel);
      take('/deployments/vercel/connections').answer({ data: [] });
      await first;
      const deploy = store.getState().deploy('vercel', 'p1', 'ada');
      take('/deployments/vercel/project/p1/deploy', 'POST').answer({
        data: { deployment_id: 'd1', status: 'ready', url: null },
      });
      await deploy;
      // Held data stays on screen while it is asked again.
      expect(selectResource(store.getState(), vercel)).toMatchObject({ status: 'success', data: [] });
      take('/deployments/vercel/connections').answer({ data: [connection('ada')] });
      await settle();
    },
    expected: { status: 'success', data: [connection('ada')] },
  },
  {
    name: 'a mutation does not load what was never asked for',
    spec: vercel,
    path: '/deployments/vercel/connections',
    async run({ store, take }) {
      const deploy = store.getState().deploy('vercel', 'p1', 'ada');
      take('/deployments/vercel/project/p1/deploy', 'POST').answer({
        data: { deployment_id: 'd1', status: 'ready', url: null },
      });
      await deploy;
      await settle();
    },
    expected: { status: 'idle', data: undefined, open: 0 },
  },
  {
    name: 'the answer of an older load never overwrites a newer one',
    spec: resourceSpecs.plans,
    path: '/subscription-plans',
    async run({ store, take, sent }) {
      const older = store.getState().fetchResource(resourceSpecs.plans);
      const olderRequest = take('/subscription-plans');
      // An invalidation sends a new request even while one runs: the running one may answer stale data.
      store.getState().invalidate('plans');
      expect(sent('/subscription-plans')).toBe(1);
      take('/subscription-plans').answer({ data: [plan('New')] });
      await settle();
      olderRequest.answer({ data: [plan('Old')] });
      await expect(older).resolves.toEqual({ ok: true, data: [plan('Old')] });
    },
    expected: { status: 'success', data: [plan('New')] },
  },
  {
    name: 'an older failure never overwrites a newer answer either',
    spec: resourceSpecs.plans,
    path: '/subscription-plans',
    async run({ store, take }) {
      void store.getState().fetchResource(resourceSpecs.plans);
      const olderRequest = take('/subscription-plans');
      store.getState().invalidate('plans');
      take('/subscription-plans').answer({ data: [plan('New')] });
      await settle();
      olderRequest.refuse(failure());
      await settle();
    },
    expected: { status: 'success', data: [plan('New')] },
  },
  {
    name: "a mutation's answer overtakes a load still running: a new token, then the old listing without it",
    spec: adaOnVercel,
    path: '/deployments/vercel/connections',
    async run({ store, take }) {
      const lookup = store.getState().fetchResource(adaOnVercel);
      const listing = take('/deployments/vercel/connections');
      const connect = store.getState().connectDeployment('vercel', 'ada', 'ada-account:token');
      take('/deployments/vercel/connections', 'POST').answer({ data: connection('ada') });
      await connect;
      listing.answer({ data: [] });
      await expect(lookup).resolves.toEqual({ ok: true, data: null });
    },
    expected: { status: 'success', data: connection('ada') },
  },
];

describe('resources', () => {
  it.each(cases)('$name', async ({ spec, path, run, expected }) => {
    const context = setup();
    await run(context);
    expect(selectResource(context.store.getState(), spec)).toEqual({
      status: expected.status,
      data: expected.data,
      error: undefined,
      updatedAt: expected.status === 'idle' ? undefined : expect.any(Number),
    });
    if (expected.open !== undefined) expect(context.sent(path)).toBe(expected.open);
    context.store.destroy();
  });

  it('a repository page asked for before a reconnect to another account is never shown, and is asked for again', async () => {
    const { store, take, sent } = setup();
    const connectionOf = resourceSpecs.codehostConnection('ada');
    const page = resourceSpecs.repositories('ada', { page: 1 });
    const account = (login: string) =>
      ({ external_user_id: 'ada', codehost_login: login, installation_id: `${login}-install` }) as never;
    const listing = (login: string) => ({
      items: [{ id: 1, name: 'site', full_name: `${login}/site` }],
      meta: { total_count: 1, page: 1, per_page: 30 },
    });
    store.getState().putResource(connectionOf, account('ada-lovelace'), Date.now());
    void store.getState().fetchResource(page);
    const asked = take('/codehost/connections/ada/repositories');
    // The app is installed for another account: the connection is news from a request sent after the page's.
    store.getState().putResource(connectionOf, account('ada-byron'), Date.now() + 1_000);
    asked.answer(listing('ada-lovelace'));
    await settle();
    expect(selectResource(store.getState(), page).data).toBeUndefined();

    // Asked for again (the load from before is not shared), the page lists the new account's repositories.
    void store.getState().fetchResource(page);
    take('/codehost/connections/ada/repositories').answer(listing('ada-byron'));
    await settle();
    expect(selectResource(store.getState(), page).data).toMatchObject({ items: [{ full_name: 'ada-byron/site' }] });
    expect(sent('/codehost/connections/ada/repositories')).toBe(0);
    store.destroy();
  });

  it('after destroy, a load sends nothing and resolves aborted', async () => {
    const { store, sent } = setup();
    store.destroy();
    await expect(store.getState().fetchResource(resourceSpecs.plans)).resolves.toMatchObject({
      ok: false,
      error: { kind: 'aborted' },
    });
    expect(sent('/subscription-plans')).toBe(0);
  });
});
