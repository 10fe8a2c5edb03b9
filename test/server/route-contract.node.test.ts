/**
 * The route contract is the router: every route of `routeContract` is answered by the proxy (matched by name,
 * forwarded upstream to its own path) and by the mock, and a path outside it is a 404 in both.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  agentRoutes,
  createAgentClient,
  fillPath,
  routeContract,
  type RouteBody,
  type RouteName,
  type RouteParams,
} from 'agent-embed/core';
import { createMockTransport } from 'agent-embed/mock';
import type { ProxyLogEntry } from 'agent-embed/server';
import { createScriptedProxy } from './scripted-upstream.js';

const ada = { id: 'ada', name: 'Ada Lovelace', email: 'ada@example.com' };
const appUrl = 'http://localhost:3000/';
const opened: { api: { dispose(): void } }[] = [];

afterEach(() => {
  for (const transport of opened.splice(0)) transport.api.dispose();
});

/** One request of a route: its params, typed by the contract, and its body and query. */
type Sample<Name extends RouteName> = { params: RouteParams<Name>; body?: RouteBody<Name>; query?: string };

/** Ada's mock with a project, a Vercel connection and the code-host app installed; the proxy's log. */
async function adasMock() {
  const log: ProxyLogEntry[] = [];
  const transport = createMockTransport({
    speed: 'instant',
    rateLimit: false,
    externalUser: ada,
    proxy: { appUrl, onLog: (entry) => log.push(entry) },
  });
  opened.push(transport);
  const client = createAgentClient({ transport });
  const { projectId } = await client.generate({ prompt: 'A portfolio site for a ceramic artist' });
  await client.deployments.connect('vercel', { external_user_id: ada.id, token: 'ada-account:token' });
  const started = await client.codehost.startConnect({
    external_user_id: ada.id,
    external_user_name: ada.name,
    external_user_email: ada.email,
    return_url: appUrl,
  });
  await transport.api.fetch(
    new Request(new URL(`/__mock/codehost/callback?state=${started.state}`, started.redirect_url)),
  );
  const [owner = '', name = ''] = (await client.codehost.listRepositories(ada.id)).items[0]!.full_name.split('/');
  const samples: { [Name in RouteName]: Sample<Name> } = {
    generate: { params: {}, body: { prompt: 'A recipe book with search and tags', mode: 'build' } },
    followUp: { params: { projectId: projectId! }, body: { prompt: 'Add a contact page with a form' } },
    getProject: { params: { projectId: projectId! } },
    connectDeployment: {
      params: { provider: 'vercel' },
      body: { external_user_id: ada.id, token: 'ada-account:token' },
    },
    getDeploymentConnection: { params: { provider: 'vercel', externalUserId: ada.id } },
    listDeploymentConnections: { params: { provider: 'vercel' } },
    deploy: { params: { providerId: 'vercel', projectId: projectId! }, body: { external_user_id: ada.id } },
    startCodehostConnect: {
      params: {},
      body: {
        external_user_id: ada.id,
        external_user_name: ada.name,
        external_user_email: ada.email,
        return_url: appUrl,
      },
    },
    getCodehostConnection: { params: { externalUserId: ada.id } },
    listCodehostConnections: { params: {} },
    listRepositories: { params: { externalUserId: ada.id }, query: 'page=1&per_page=5' },
    linkRepository: {
      params: { projectId: projectId! },
      body: { external_user_id: ada.id, repo_owner: owner, repo_name: name },
    },
    pushRepository: { params: { projectId: projectId! }, body: { external_user_id: ada.id } },
    listPlans: { params: {} },
    listProjects: { params: {} },
    getConversation: { params: { projectId: projectId! } },
    projectEvents: { params: { projectId: projectId! } },
    getUsage: { params: {} },
  };
  return { transport, log, samples };
}

/** The request of a sample at `baseUrl`, as a browser (or the proxy) sends it. */
function requestOf(name: RouteName, sample: Sample<RouteName>, baseUrl: string, token?: string): Request {
  const route = routeContract[name];
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  const query = sample.query === undefined ? '' : `?${sample.query}`;
  return new Request(`${baseUrl}${fillPath(route.path, sample.params)}${query}`, {
    method: route.method,
    headers,
    ...(route.method === 'POST' ? { body: JSON.stringify(sample.body ?? {}) } : {}),
  });
}

describe('the route contract is the router of the proxy and the mock', () => {
  it('the proxy answers every route of the contract by name, and sends each API route upstream to its own path', async () => {
    const { transport, log, samples } = await adasMock();
    const { api } = transport;
    for (const name of Object.keys(routeContract) as RouteName[]) {
      const sentUpstream = api.admin.requests.length;
      const response = await transport.fetch(requestOf(name, samples[name], api.baseUrl));
      await response.text();
      expect([name, response.status < 300]).toEqual([name, true]);
      const entry = log.filter((line) => line.event === 'request').at(-1);
      expect(entry).toMatchObject({ route: name, status: response.status });
      const upstream = api.admin.requests.slice(sentUpstream).map((request) => request.path);
      const basePath = new URL(api.baseUrl).pathname;
      if (routeContract[name].family === 'proxy') expect(upstream).toEqual([]);
      else expect(upstream).toContain(`${basePath}${fillPath(routeContract[name].path, samples[name].params)}`);
    }
  });

  it('the mock answers every Agent API route of the contract', async () => {
    const { transport, samples } = await adasMock();
    const { api } = transport;
    for (const name of Object.keys(agentRoutes) as (keyof typeof agentRoutes)[]) {
      const response = await api.fetch(requestOf(name, samples[name], api.baseUrl, api.token));
      await response.text();
      expect([name, response.status < 300]).toEqual([name, true]);
    }
  });

  it.each([
    ['GET', '/agent/unknown'],
    ['GET', '/projects/proj_1/other'],
    ['POST', '/usage/more'],
    ['GET', '/deployments'],
    ['GET', '/codehost/connections/ada/repositories/extra'],
  ])('%s %s is outside the contract: 404 from the proxy and from the mock', async (method, path) => {
    const log: ProxyLogEntry[] = [];
    const transport = createMockTransport({
      speed: 'instant',
      externalUser: ada,
      proxy: { onLog: (entry) => log.push(entry) },
    });
    opened.push(transport);
    const init = {
      method,
      headers: { 'content-type': 'application/json' },
      ...(method === 'POST' ? { body: '{}' } : {}),
    };
    const viaProxy = await transport.fetch(`${transport.api.baseUrl}${path}`, init);
    expect(viaProxy.status).toBe(404);
    expect(log.at(-1)).toMatchObject({ route: 'unknown', reason: 'no route' });
    const direct = await transport.api.fetch(
      new Request(`${transport.api.baseUrl}${path}`, {
        ...init,
        headers: { ...init.headers, authorization: `Bearer ${transport.api.token}` },
      }),
    );
    expect(direct.status).toBe(404);
    // Nothing outside the contract reaches the upstream through the proxy.
    expect(transport.api.admin.requests.map((request) => request.path)).toEqual([
      new URL(`${transport.api.baseUrl}${path}`).pathname,
    ]);
  });
});

describe("the proxy forwards a body's fields from the route contract only", () => {
  it('a follow-up goes upstream with its prompt alone: a mode or any other field from the browser is dropped', async () => {
    const { proxy, upstream, store } = createScriptedProxy(
      () => new Response('data: {"type":"stream_end"}\n\n', { headers: { 'content-type': 'text/event-stream' } }),
      { authorize: () => ({ externalUserId: ada.id }) },
    );
    await store.setProjectOwner('proj_1', ada.id);
    const response = await proxy(
      new Request('http://agency.example.test/agent/generate/proj_1', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ prompt: 'Add a contact page with a form', mode: 'design', admin: true }),
      }),
    );
    await response.text();
    expect(upstream.calls.map((call) => [call.url.pathname, JSON.parse(call.body ?? '{}')])).toEqual([
      ['/api/v1/agent/generate/proj_1', { prompt: 'Add a contact page with a form' }],
    ]);
  });
});
