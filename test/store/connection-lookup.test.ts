/** How the store finds an end user's connections and keeps a repository listing through a failing page. */
import { afterEach, describe, expect, it } from 'vitest';
import {
  codehostConnectionStatus,
  createAgentClient,
  createAgentStore,
  deploymentConnectionStatus,
  resourceSpecs,
  selectRepositoryPages,
  selectResource,
  type AgentStore,
  type TransportRequest,
} from 'agent-embed/core';
import { createMockTransport } from 'agent-embed/mock';

const opened: { store: AgentStore; transport: ReturnType<typeof createMockTransport> }[] = [];

afterEach(() => {
  for (const { store, transport } of opened.splice(0)) {
    store.destroy();
    transport.api.dispose();
  }
});

function setup() {
  const transport = createMockTransport({
    speed: 'instant',
    rateLimit: false,
    externalUser: { id: 'ada', name: 'Ada Lovelace', email: 'ada@example.com' },
  });
  const sent: TransportRequest[] = [];
  const client = createAgentClient({
    transport: {
      json: (request) => {
        sent.push(request);
        return transport.json(request);
      },
      stream: (request, handlers) => transport.stream(request, handlers),
    },
  });
  const store = createAgentStore({ client, storage: null });
  opened.push({ store, transport });
  const vercel = resourceSpecs.deploymentConnection('vercel', 'ada');
  const codehost = resourceSpecs.codehostConnection('ada');
  return {
    store,
    transport,
    client,
    sent,
    paths: () => sent.map((request) => `${request.method} ${request.path}`),
    loadVercel: () => store.getState().fetchResource(vercel),
    vercelStatus: () => deploymentConnectionStatus(selectResource(store.getState(), vercel)),
    loadCodehost: () => store.getState().fetchResource(codehost),
    codehostStatus: () => codehostConnectionStatus(selectResource(store.getState(), codehost)),
  };
}

describe('connection lookups answer 200 for "not connected yet"', () => {
  it('a new end user: one listing per lookup, no direct GET that would answer 404', async () => {
    const { paths, loadVercel, loadCodehost, vercelStatus, codehostStatus } = setup();
    await loadVercel();
    await loadCodehost();
    expect(vercelStatus()).toBe('missing');
    expect(codehostStatus()).toBe('missing');
    expect(paths()).toEqual(['GET /deployments/vercel/connections', 'GET /codehost/connections']);
  });

  it('a connected end user: the listing, then the detailed view', async () => {
    const { client, paths, loadVercel, vercelStatus } = setup();
    await client.deployments.connect('vercel', { external_user_id: 'ada', token: 'ada-account:token' });
    await loadVercel();
    expect(vercelStatus()).toBe('connected');
    expect(paths().slice(1)).toEqual([
      'GET /deployments/vercel/connections',
      'GET /deployments/vercel/connections/ada',
    ]);
  });

  it('another user in the listing is not this user', async () => {
    const { transport, loadVercel, vercelStatus } = setup();
    // Grace, another end user of the same agency, signed in on another browser.
    const grace = createAgentClient({
      transport: createMockTransport({ api: transport.api, externalUser: { id: 'grace' } }),
    });
    await grace.deployments.connect('vercel', { external_user_id: 'grace', token: 'grace-account:token' });
    await loadVercel();
    expect(vercelStatus()).toBe('missing');
  });
});

describe('a repository listing keeps what it has', () => {
  it('a failing second page leaves the first page loaded, and its retry adds the second', async () => {
    const { store, client, transport } = setup();
    const started = await client.codehost.startConnect({
      external_user_id: 'ada',
      external_user_name: 'Ada Lovelace',
      external_user_email: 'ada@example.com',
      return_url: 'http://localhost:3000/',
    });
    await transport.api.fetch(
      new Request(new URL(`/__mock/codehost/callback?state=${started.state}`, started.redirect_url)),
    );
    await store.getState().loadRepositories('ada', { page: 1, perPage: 20 });
    transport.api.admin.injectFault({ kind: 'http_500', route: 'listRepositories' });
    const failed = await store.getState().loadRepositories('ada', { page: 2, perPage: 20 });
    expect(failed.ok).toBe(false);
    const pageTwo = resourceSpecs.repositories('ada', { page: 2, perPage: 20 });
    expect(selectResource(store.getState(), pageTwo).status).toBe('error');
    const list = selectRepositoryPages(store.getState(), 'ada', 20)!;
    expect(Object.keys(list.pages)).toEqual(['1']);
    expect(list.pages[1]).toHaveLength(20);
    await store.getState().loadRepositories('ada', { page: 2, perPage: 20 });
    expect(Object.keys(selectRepositoryPages(store.getState(), 'ada', 20)!.pages)).toEqual(['1', '2']);
    expect(selectResource(store.getState(), pageTwo).status).toBe('success');
  });
});
