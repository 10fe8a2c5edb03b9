/** How the store finds an end user's connections and keeps a repository listing through a failing page. */
import { afterEach, describe, expect, it } from 'vitest';
import { createAgentClient, createAgentStore, type AgentStore, type TransportRequest } from 'agent-embed/core';
import { createMockTransport } from 'agent-embed/mock';

const opened: { store: AgentStore; transport: ReturnType<typeof createMockTransport> }[] = [];

afterEach(() => {
  for (const { store, transport } of opened.splice(0)) {
    store.destroy();
    transport.api.dispose();
  }
});

function setup() {
  const transport = createMockTransport({ speed: 'instant', rateLimit: false });
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
  return { store, transport, client, sent, paths: () => sent.map((request) => `${request.method} ${request.path}`) };
}

describe('connection lookups answer 200 for "not connected yet"', () => {
  it('a new end user: one listing per lookup, no direct GET that would answer 404', async () => {
    const { store, paths } = setup();
    await store.getState().loadDeploymentConnection('vercel', 'ada');
    await store.getState().loadCodehostConnection('ada');
    expect(store.getState().deploymentConnections['vercel:ada']?.status).toBe('missing');
    expect(store.getState().codehostConnections.ada?.status).toBe('missing');
    expect(paths()).toEqual(['GET /deployments/vercel/connections', 'GET /codehost/connections']);
  });

  it('a connected end user: the listing, then the detailed view', async () => {
    const { store, client, paths } = setup();
    await client.deployments.connect('vercel', { external_user_id: 'ada', token: 'ada-account:token' });
    await store.getState().loadDeploymentConnection('vercel', 'ada');
    expect(store.getState().deploymentConnections['vercel:ada']?.status).toBe('connected');
    expect(paths().slice(1)).toEqual([
      'GET /deployments/vercel/connections',
      'GET /deployments/vercel/connections/ada',
    ]);
  });

  it('another user in the listing is not this user', async () => {
    const { store, client } = setup();
    await client.deployments.connect('vercel', { external_user_id: 'grace', token: 'grace-account:token' });
    await store.getState().loadDeploymentConnection('vercel', 'ada');
    expect(store.getState().deploymentConnections['vercel:ada']?.status).toBe('missing');
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
    const failed = await store.getState().loadRepositories('ada', { page: 2 });
    expect(failed.ok).toBe(false);
    const list = store.getState().repositoryLists.ada!;
    expect(list.status).toBe('error');
    expect(Object.keys(list.pages)).toEqual(['1']);
    expect(list.pages[1]).toHaveLength(20);
    await store.getState().loadRepositories('ada', { page: 2 });
    expect(Object.keys(store.getState().repositoryLists.ada!.pages)).toEqual(['1', '2']);
    expect(store.getState().repositoryLists.ada!.status).toBe('success');
  });
});
