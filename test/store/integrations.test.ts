/** The store's deployment and code-host slices and the plans resource against the in-memory mock (jsdom: generations stream). */
import { afterEach, describe, expect, it } from 'vitest';
import {
  AgentApiError,
  agentApiMessages,
  createAgentClient,
  codehostConnectionStatus,
  createAgentStore,
  deploymentConnectionStatus,
  mutationKeys,
  resourceSpecs,
  selectMutation,
  selectRepositoryPages,
  selectResource,
  type AgentLogEntry,
  type AgentStore,
  type AgentStoreOptions,
  type AgentTransport,
  type TransportRequest,
} from 'agent-embed/core';
import { createMockTransport, type MockTransportOptions } from 'agent-embed/mock';

const prompt = 'A recipe sharing app with ratings';
/** The end user the proxy in front of the mock serves. */
const ada = { id: 'ada', name: 'Ada Lovelace', email: 'ada@example.com' };
const day = 24 * 60 * 60 * 1000;
const opened: { store: AgentStore; transport: ReturnType<typeof createMockTransport> }[] = [];

afterEach(() => {
  for (const { store, transport } of opened.splice(0)) {
    store.destroy();
    transport.api.dispose();
  }
});

interface Setup {
  mock?: MockTransportOptions;
  store?: Partial<Omit<AgentStoreOptions, 'client'>>;
  wrap?: (transport: AgentTransport) => AgentTransport;
}

function setup(options: Setup = {}) {
  const transport = createMockTransport({
    speed: 'instant',
    rateLimit: false,
    externalUser: ada,
    // The agency's app, where end users come back to from the code-host install.
    proxy: { appUrl: 'https://agency.example/app' },
    ...options.mock,
  });
  const sent: TransportRequest[] = [];
  const recording: AgentTransport = {
    json: (request) => {
      sent.push(request);
      return transport.json(request);
    },
    stream: (request, handlers) => transport.stream(request, handlers),
  };
  const client = createAgentClient({ transport: options.wrap?.(recording) ?? recording });
  const log: AgentLogEntry[] = [];
  const store = createAgentStore({
    client,
    storage: null,
    scheduleFlush: (flush) => (flush(), () => {}),
    onLog: (entry) => log.push(entry),
    ...options.store,
  });
  opened.push({ store, transport });
  const admin = transport.api.admin;
  return {
    store,
    log,
    transport,
    admin,
    sent,
    state: () => store.getState(),
    connect: (provider: string, user: string) =>
      selectMutation(store.getState(), mutationKeys.deploymentConnect(provider, user)),
    loadDeploymentConnection: (provider: string, user: string) =>
      store.getState().fetchResource(resourceSpecs.deploymentConnection(provider, user)),
    deploymentConnection: (provider: string, user: string) => {
      const resource = selectResource(store.getState(), resourceSpecs.deploymentConnection(provider, user));
      return { ...resource, connectionStatus: deploymentConnectionStatus(resource) };
    },
    loadCodehostConnection: (user: string) => store.getState().fetchResource(resourceSpecs.codehostConnection(user)),
    codehostConnection: (user: string) => {
      const resource = selectResource(store.getState(), resourceSpecs.codehostConnection(user));
      return { ...resource, connectionStatus: codehostConnectionStatus(resource) };
    },
    posts: (fragment: string) =>
      admin.requests.filter((request) => request.method === 'POST' && request.path.includes(fragment)),
    async project(): Promise<string> {
      const result = await store.getState().generate({ prompt });
      expect(result.outcome).toBe('completed');
      return result.projectId!;
    },
    /** Runs the install flow as the browser would: start, then the mock's callback redirects to return_url. */
    async connectCodehost(externalUserId = 'ada', name = 'Ada Lovelace'): Promise<void> {
      const started = await store.getState().startCodehostConnect({
        external_user_id: externalUserId,
        external_user_name: name,
        external_user_email: `${externalUserId}@example.com`,
        return_url: 'https://agency.example/app',
      });
      if (!started.ok) throw started.error;
      const state = new URL(started.data.redirect_url).searchParams.get('state')!;
      const callback = await transport.api.fetch(
        new Request(new URL(`/__mock/codehost/callback?state=${state}`, started.data.redirect_url)),
      );
      expect(callback.status).toBe(302);
    },
  };
}

describe('deployments slice', () => {
  it('a missing connection, a rejected token, a connected account; the token is in no state and no log', async () => {
    const { state, store, log, loadDeploymentConnection, deploymentConnection, connect } = setup();
    const token = 'bad_secret_token_9f3a';
    const goodToken = 'acme-team:secret-value-771';
    expect(await loadDeploymentConnection('vercel', 'ada')).toEqual({ ok: true, data: null });
    expect(deploymentConnection('vercel', 'ada')).toMatchObject({ connectionStatus: 'missing', error: undefined });

    const rejected = await state().connectDeployment('vercel', 'ada', token);
    expect(rejected.ok).toBe(false);
    expect(deploymentConnection('vercel', 'ada').connectionStatus).toBe('missing');
    const afterRejection = connect('vercel', 'ada');
    expect(afterRejection.status).toBe('error');
    expect(afterRejection.error?.fieldErrors?.token?.[0]).toContain('rejected by Vercel');

    const connected = await state().connectDeployment('vercel', 'ada', goodToken);
    expect(connected.ok).toBe(true);
    expect(connect('vercel', 'ada')).toEqual({
      status: 'success',
      data: expect.objectContaining({ provider_account_name: 'acme-team (Vercel)' }),
      error: undefined,
      variables: { provider: 'vercel', externalUserId: 'ada' },
      startedAt: expect.any(Number),
      endedAt: expect.any(Number),
    });
    expect(deploymentConnection('vercel', 'ada')).toMatchObject({
      connectionStatus: 'connected',
      data: { provider_account_name: 'acme-team (Vercel)' },
    });

    const serialized = JSON.stringify(store.getState()) + JSON.stringify(log);
    expect(serialized).not.toContain(token);
    expect(serialized).not.toContain(goodToken);
    expect(serialized).not.toContain('secret-value');
    expect(log.map((entry) => entry.text)).toEqual(
      expect.arrayContaining(['deployment-connect:vercel:ada: pending', 'deployment-connect:vercel:ada: success']),
    );
  });

  it('409 for an account of another end user, unknown provider, and an expired connection', async () => {
    const { state, transport, loadDeploymentConnection, deploymentConnection, connect } = setup({
      store: { now: () => Date.now() },
    });
    // Grace, another end user of the same agency, signed in on another browser.
    const grace = createAgentClient({
      transport: createMockTransport({ api: transport.api, externalUser: { id: 'grace' } }),
    });
    await grace.deployments.connect('netlify', { external_user_id: 'grace', token: 'shared:one' });
    await state().connectDeployment('netlify', 'ada', 'shared:two');
    expect(connect('netlify', 'ada')).toMatchObject({
      status: 'error',
      error: { kind: 'conflict', message: agentApiMessages.providerAccountTaken },
    });

    await loadDeploymentConnection('heroku', 'ada');
    expect(deploymentConnection('heroku', 'ada')).toMatchObject({
      connectionStatus: 'unknown_provider',
      error: { message: agentApiMessages.providerNotFound },
    });
    await state().connectDeployment('heroku', 'ada', 'long_enough_token');
    expect(deploymentConnection('heroku', 'ada').connectionStatus).toBe('unknown_provider');
    expect(connect('heroku', 'ada').status).toBe('error');

    const expiring = setup({
      store: { now: () => Date.parse('2030-01-01T00:00:00Z') },
      wrap: (inner) => ({
        json: async (request) => {
          const body = (await inner.json(request)) as { data?: Record<string, unknown> };
          return request.path.includes('/connections/')
            ? { ...body, data: { ...body.data, expires_at: '2029-12-31T00:00:00Z' } }
            : body;
        },
        stream: inner.stream,
      }),
    });
    await expiring.state().connectDeployment('vercel', 'ada', 'long_enough_token');
    await expiring.loadDeploymentConnection('vercel', 'ada');
    expect(expiring.deploymentConnection('vercel', 'ada').connectionStatus).toBe('expired');
  });

  it('masks the token in an error that echoes it', async () => {
    const token = 'echoed_secret_4242';
    const { state, store, log, connect } = setup({
      wrap: (inner) => ({
        json: async (request) => {
          if (request.method === 'POST' && request.path.endsWith('/connections')) {
            throw new AgentApiError('validation', `Token ${token} is not valid.`, {
              status: 422,
              fieldErrors: { token: [`${token} was revoked`] },
            });
          }
          return inner.json(request);
        },
        stream: inner.stream,
      }),
    });
    await state().connectDeployment('vercel', 'ada', token);
    const error = connect('vercel', 'ada').error!;
    expect(error.message).toBe('Token ••• is not valid.');
    expect(error.fieldErrors).toEqual({ token: ['••• was revoked'] });
    expect(error.kind).toBe('validation');
    expect(JSON.stringify(store.getState()) + JSON.stringify(log) + error.message).not.toContain(token);
  });

  it('deploys once per double click; a missing connection fails the deploy and marks the connection missing', async () => {
    const { state, posts, project, deploymentConnection } = setup();
    const deployment = (projectId: string) => selectMutation(state(), mutationKeys.deploy('vercel', projectId));
    const projectId = await project();
    const missing = await state().deploy('vercel', projectId, 'ada');
    expect(missing).toMatchObject({ ok: false, error: { message: agentApiMessages.deploymentConnectionNotFound } });
    expect(deployment(projectId)).toMatchObject({ status: 'error', variables: { provider: 'vercel', projectId } });
    expect(deploymentConnection('vercel', 'ada').connectionStatus).toBe('missing');

    await state().connectDeployment('vercel', 'ada', 'long_enough_token');
    const first = state().deploy('vercel', projectId, 'ada');
    const second = state().deploy('vercel', projectId, 'ada');
    expect(second).toBe(first);
    expect(deployment(projectId)).toMatchObject({ status: 'pending', data: undefined, error: undefined });
    const result = await first;
    expect(result.ok).toBe(true);
    expect(deployment(projectId)).toMatchObject({
      status: 'success',
      error: undefined,
      data: { status: 'ready', url: expect.stringMatching(/^https:\/\//) },
    });
    expect(posts('/project/').filter((request) => request.path.endsWith('/deploy'))).toHaveLength(2);
  });

  it('lists connections; after destroy nothing is published', async () => {
    const { state, store, loadCodehostConnection, codehostConnection } = setup();
    await state().connectDeployment('vercel', 'ada', 'long_enough_token');
    const vercel = resourceSpecs.deploymentConnections('vercel');
    await state().fetchResource(vercel);
    expect(selectResource(state(), vercel).data?.map((connection) => connection.external_user_id)).toEqual(['ada']);
    const pending = loadCodehostConnection('ada');
    store.destroy();
    expect((await pending).ok).toBe(false);
    expect(codehostConnection('ada').status).toBe('loading');
    expect(await state().fetchResource(resourceSpecs.plans)).toMatchObject({ ok: false, error: { kind: 'aborted' } });
  });
});

describe('code-host slice', () => {
  it('missing, then the install flow, then connected with the installation status; inactive and expired', async () => {
    const { loadCodehostConnection, codehostConnection } = setup();
    await loadCodehostConnection('ada');
    expect(codehostConnection('ada')).toMatchObject({ connectionStatus: 'missing', data: null, error: undefined });

    const flow = setup();
    await flow.connectCodehost('ada');
    expect(selectMutation(flow.state(), mutationKeys.codehostStart('ada'))).toMatchObject({
      status: 'success',
      data: { redirect_url: expect.stringContaining('/__mock/codehost/install?state=') },
    });
    await flow.loadCodehostConnection('ada');
    expect(flow.codehostConnection('ada')).toMatchObject({
      connectionStatus: 'connected',
      data: { codehost_login: 'ada-lovelace', installation_status: 'active' },
    });
    flow.admin.setCodehostInstallationStatus('ada', 'suspended');
    await flow.loadCodehostConnection('ada');
    expect(flow.codehostConnection('ada').connectionStatus).toBe('inactive');

    const later = setup({ store: { now: () => Date.now() + 400 * day } });
    await later.connectCodehost('ada');
    await later.loadCodehostConnection('ada');
    expect(later.codehostConnection('ada').connectionStatus).toBe('expired');
  });

  it('a start whose redirect_url is not http(s) fails and keeps no address; validation errors are kept', async () => {
    const { state } = setup({
      wrap: (inner) => ({
        json: async (request) => {
          const body = (await inner.json(request)) as { data?: Record<string, unknown> };
          return request.path.endsWith('/connect/start')
            ? { ...body, data: { ...body.data, redirect_url: 'javascript:alert(1)' } }
            : body;
        },
        stream: inner.stream,
      }),
    });
    const result = await state().startCodehostConnect({
      external_user_id: 'ada',
      external_user_name: 'Ada',
      external_user_email: 'ada@example.com',
      return_url: 'https://agency.example/app',
    });
    expect(result.ok).toBe(false);
    expect(selectMutation(state(), mutationKeys.codehostStart('ada'))).toMatchObject({
      status: 'error',
      data: undefined,
      error: { kind: 'protocol' },
    });
    expect(JSON.stringify(state())).not.toContain('javascript:');

    // A session without a name or an email: the upstream asks for them.
    const plain = setup({ mock: { externalUser: { id: 'ada' } } });
    await plain.state().startCodehostConnect({ external_user_id: 'ada', return_url: 'https://agency.example/app' });
    expect(selectMutation(plain.state(), mutationKeys.codehostStart('ada')).error?.fieldErrors).toMatchObject({
      external_user_name: expect.any(Array),
      external_user_email: expect.any(Array),
    });
  });

  it('pages: clamped bounds, one resource per page and page size, total count, null total count', async () => {
    const { state, sent, connectCodehost } = setup();
    await connectCodehost('ada');
    const query = () =>
      sent.filter((request) => request.path.endsWith('/repositories')).map((request) => request.query);

    await state().loadRepositories('ada', { page: 0, perPage: 500 });
    await state().loadRepositories('ada', { page: -3, perPage: 0 });
    await state().loadRepositories('ada', { page: 2.7, perPage: 20.9 });
    expect(query()).toEqual([
      { page: 1, per_page: 100 },
      { page: 1, per_page: 1 },
      { page: 2, per_page: 20 },
    ]);
    expect(selectResource(state(), resourceSpecs.repositories('ada', { page: 2, perPage: 20 })).status).toBe('success');
    const list = selectRepositoryPages(state(), 'ada', 20)!;
    expect(list.totalCount).toBe(47);
    expect(Object.keys(list.pages)).toEqual(['2']);
    expect(list.pages[2]).toHaveLength(20);
    // Each page size is its own set of pages; none of the default size (30) was asked for.
    expect(Object.keys(selectRepositoryPages(state(), 'ada', 100)!.pages)).toEqual(['1']);
    expect(selectRepositoryPages(state(), 'ada')).toBeUndefined();
    await state().loadRepositories('ada', { page: 3, perPage: 20 });
    expect(selectRepositoryPages(state(), 'ada', 20)?.pages[3]).toHaveLength(7);
    expect(Object.keys(selectRepositoryPages(state(), 'ada', 20)!.pages)).toEqual(['2', '3']);
    expect(selectRepositoryPages(state(), 'ada', 20)!.loaded).toHaveLength(27);

    const unknown = setup({ mock: { scenario: { repositoryTotalCountUnknown: true, repositoryCount: 5 } } });
    await unknown.connectCodehost('ada');
    await unknown.state().loadRepositories('ada', { perPage: 2 });
    expect(selectRepositoryPages(unknown.state(), 'ada', 2)).toMatchObject({ totalCount: null });
  });

  it('listing without a connection fails with the spec message and marks the connection missing', async () => {
    const { state, codehostConnection } = setup();
    await state().loadRepositories('ada');
    expect(selectResource(state(), resourceSpecs.repositories('ada'))).toMatchObject({
      status: 'error',
      error: { message: agentApiMessages.codehostConnectionNotFound },
    });
    expect(codehostConnection('ada').connectionStatus).toBe('missing');
  });

  it('link ok and not found, push to the linked repository, to an existing one and to a new one', async () => {
    const { state, connectCodehost, project } = setup();
    await connectCodehost('ada');
    const projectId = await project();
    const link = () => selectMutation(state(), mutationKeys.repositoryLink(projectId));
    const push = () => selectMutation(state(), mutationKeys.repositoryPush(projectId));
    const page = await state().loadRepositories('ada', { perPage: 5 });
    const first = (page.ok ? page.data.items : [])[0]!;
    const [owner, name] = first.full_name.split('/') as [string, string];

    await state().pushRepository(projectId, 'ada');
    expect(push()).toMatchObject({ status: 'error', error: { kind: 'validation' } });

    await state().linkRepository(projectId, 'ada', { owner, name: 'no-such-repository' });
    expect(link()).toMatchObject({ status: 'error', error: { kind: 'not_found' } });
    await state().linkRepository(projectId, 'ada', { owner, name });
    expect(link()).toMatchObject({
      status: 'success',
      variables: { owner, name },
      data: {
        project_id: projectId,
        repo_url: first.html_url,
        branch: first.default_branch,
        codehost_login: 'ada-lovelace',
      },
    });

    await state().pushRepository(projectId, 'ada');
    expect(push()).toMatchObject({
      status: 'success',
      variables: undefined,
      data: { repo_created: false, repo_url: first.html_url },
    });
    await state().pushRepository(projectId, 'ada', { owner, name });
    expect(push().data?.repo_created).toBe(false);
    await state().pushRepository(projectId, 'ada', { owner, name: 'brand-new-site' });
    expect(push()).toMatchObject({
      status: 'success',
      variables: { owner, name: 'brand-new-site' },
      data: { repo_created: true, repo_url: expect.stringContaining('brand-new-site') },
    });

    const missingProject = await state().linkRepository('proj_missing', 'ada', { owner, name });
    expect(missingProject).toMatchObject({ ok: false, error: { message: agentApiMessages.projectNotFound } });
    // Another end user's id is refused by the proxy before anything goes upstream.
    await state().pushRepository(projectId, 'grace');
    expect(push().error?.kind).toBe('forbidden');
  });
});

describe('plans resource', () => {
  it('in display order, without payment ids, one request for concurrent callers', async () => {
    const { state, admin } = setup();
    const [a, b] = [state().fetchResource(resourceSpecs.plans), state().fetchResource(resourceSpecs.plans)];
    expect(b).toBe(a);
    await a;
    const plans = selectResource(state(), resourceSpecs.plans);
    expect(plans.status).toBe('success');
    expect(plans.data?.map((plan) => plan.name)).toEqual(['Starter', 'Pro', 'Agency', 'Enterprise']);
    expect(JSON.stringify(plans)).not.toMatch(/stripe|price_mock|prod_mock/);
    expect(admin.requests.filter((request) => request.path.endsWith('/subscription-plans'))).toHaveLength(1);
  });

  it('a failure is kept with its message', async () => {
    const { state, admin } = setup();
    admin.injectFault({ kind: 'http_500', route: 'listPlans' });
    await state().fetchResource(resourceSpecs.plans);
    expect(selectResource(state(), resourceSpecs.plans)).toMatchObject({
      status: 'error',
      error: { kind: 'upstream' },
    });
  });
});
