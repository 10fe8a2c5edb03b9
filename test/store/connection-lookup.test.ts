/** How the store finds an end user's connections (a listing through a failing page: repository-pages.test.tsx). */
import { afterEach, describe, expect, it } from 'vitest';
import {
  codehostConnectionStatus,
  createAgentClient,
  createAgentStore,
  deploymentConnectionStatus,
  resourceSpecs,
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
