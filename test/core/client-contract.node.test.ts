/**
 * The client resolves what the route contract says each route answers (docs/architecture.md, "The route
 * contract"). The type assertions are checked by `npm run typecheck` (part of `npm test`): changing a route's
 * answer in `RouteTypes` or a method's return type in `AgentClient`, and not the other, fails to compile.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  createAgentClient,
  type AgentClient,
  type AgentTransport,
  type CodehostConnection,
  type ConversationTurn,
  type Deployment,
  type DeploymentConnection,
  type LinkResult,
  type ListRouteName,
  type Project,
  type ProjectSummary,
  type PushResult,
  type RepositoryList,
  type RouteData,
  type StartCodehostConnectResult,
  type SubscriptionPlan,
  type TransportRequest,
  type UsageBody,
} from 'agent-embed/core';

type Resolved<Method extends (...args: never[]) => Promise<unknown>> = Awaited<ReturnType<Method>>;

describe('the client and the route contract', () => {
  it('every JSON method resolves with its route’s RouteData, which is the wire type the spec names', () => {
    expectTypeOf<Resolved<AgentClient['getProject']>>().toEqualTypeOf<RouteData<'getProject'>>();
    expectTypeOf<RouteData<'getProject'>>().toEqualTypeOf<Project>();

    type Deployments = AgentClient['deployments'];
    expectTypeOf<Resolved<Deployments['connect']>>().toEqualTypeOf<RouteData<'connectDeployment'>>();
    expectTypeOf<Resolved<Deployments['getConnection']>>().toEqualTypeOf<RouteData<'getDeploymentConnection'>>();
    expectTypeOf<Resolved<Deployments['listConnections']>>().toEqualTypeOf<RouteData<'listDeploymentConnections'>>();
    expectTypeOf<Resolved<Deployments['deploy']>>().toEqualTypeOf<RouteData<'deploy'>>();
    expectTypeOf<RouteData<'connectDeployment'>>().toEqualTypeOf<DeploymentConnection>();
    expectTypeOf<RouteData<'getDeploymentConnection'>>().toEqualTypeOf<DeploymentConnection>();
    expectTypeOf<RouteData<'listDeploymentConnections'>>().toEqualTypeOf<DeploymentConnection[]>();
    expectTypeOf<RouteData<'deploy'>>().toEqualTypeOf<Deployment>();

    type Codehost = AgentClient['codehost'];
    expectTypeOf<Resolved<Codehost['startConnect']>>().toEqualTypeOf<RouteData<'startCodehostConnect'>>();
    expectTypeOf<Resolved<Codehost['getConnection']>>().toEqualTypeOf<RouteData<'getCodehostConnection'>>();
    expectTypeOf<Resolved<Codehost['listConnections']>>().toEqualTypeOf<RouteData<'listCodehostConnections'>>();
    expectTypeOf<Resolved<Codehost['listRepositories']>>().toEqualTypeOf<RouteData<'listRepositories'>>();
    expectTypeOf<Resolved<Codehost['link']>>().toEqualTypeOf<RouteData<'linkRepository'>>();
    expectTypeOf<Resolved<Codehost['push']>>().toEqualTypeOf<RouteData<'pushRepository'>>();
    expectTypeOf<RouteData<'startCodehostConnect'>>().toEqualTypeOf<StartCodehostConnectResult>();
    expectTypeOf<RouteData<'getCodehostConnection'>>().toEqualTypeOf<CodehostConnection>();
    expectTypeOf<RouteData<'listCodehostConnections'>>().toEqualTypeOf<CodehostConnection[]>();
    expectTypeOf<RouteData<'listRepositories'>>().toEqualTypeOf<RepositoryList>();
    expectTypeOf<RouteData<'linkRepository'>>().toEqualTypeOf<LinkResult>();
    expectTypeOf<RouteData<'pushRepository'>>().toEqualTypeOf<PushResult>();

    expectTypeOf<Resolved<AgentClient['plans']['list']>>().toEqualTypeOf<RouteData<'listPlans'>>();
    expectTypeOf<RouteData<'listPlans'>>().toEqualTypeOf<SubscriptionPlan[]>();
    expectTypeOf<Resolved<AgentClient['projects']['list']>>().toEqualTypeOf<RouteData<'listProjects'>>();
    expectTypeOf<Resolved<AgentClient['projects']['conversation']>>().toEqualTypeOf<RouteData<'getConversation'>>();
    expectTypeOf<RouteData<'listProjects'>>().toEqualTypeOf<ProjectSummary[]>();
    expectTypeOf<RouteData<'getConversation'>>().toEqualTypeOf<ConversationTurn[]>();
    // The usage is read defensively from the proxy's body: what it keeps of it, without `status`.
    expectTypeOf<RouteData<'getUsage'>>().toEqualTypeOf<UsageBody>();
    expectTypeOf<Resolved<AgentClient['usage']['get']>>().toEqualTypeOf<Omit<UsageBody, 'status'>>();

    // The listings are the routes whose data is an array; an event stream has no RouteData.
    expectTypeOf<ListRouteName>().toEqualTypeOf<
      'listDeploymentConnections' | 'listCodehostConnections' | 'listPlans' | 'listProjects' | 'getConversation'
    >();
    // @ts-expect-error a repository page is not a list of connections
    expectTypeOf<RouteData<'listRepositories'>>().toEqualTypeOf<CodehostConnection[]>();
    // @ts-expect-error generate answers a stream of events, not one JSON body
    expectTypeOf<RouteData<'generate'>>().toBeObject();
  });

  it('reads a listing bare, under a usual key or not at all, and an empty success as what is known', async () => {
    const answers: Record<string, unknown> = {
      '/codehost/connections': [{ id: 1 }],
      '/subscription-plans': { success: true, data: { plans: [{ id: 'pro', name: 'Pro' }, { id: 'nameless' }] } },
      '/projects': { status: true, projects: [{ project_id: 'p1' }] },
      '/deployments/vercel/connections': { success: true, data: { unexpected: true } },
      '/codehost/project/p1/link': '',
      '/codehost/project/p1/push': { success: true, data: null },
      '/codehost/connections/ada/repositories': { success: true, data: { items: [], meta: { total_count: 0 } } },
    };
    const sent: TransportRequest[] = [];
    const transport: AgentTransport = {
      json: async (request) => {
        sent.push(request);
        return answers[request.path];
      },
      stream: () => Promise.reject(new Error('no streams here')),
    };
    const client = createAgentClient({ transport });
    expect(await client.codehost.listConnections()).toEqual([{ id: 1 }]);
    // A plan without a name to show is not listed.
    expect(await client.plans.list()).toEqual([{ id: 'pro', name: 'Pro' }]);
    // The proxy's own list is read field by field: what an entry lacks is null (or an empty time).
    expect(await client.projects.list()).toEqual([
      { project_id: 'p1', name: null, app_url: null, project_status: null, created_at: '', updated_at: '' },
    ]);
    expect(await client.deployments.listConnections('vercel')).toEqual([]);
    expect(await client.codehost.link('p1', { external_user_id: 'ada', repo_owner: 'ada', repo_name: 'site' })).toEqual(
      { project_id: 'p1', codehost_login: '', repo_url: '', branch: '' },
    );
    expect(await client.codehost.push('p1', { external_user_id: 'ada', branch: 'main' })).toEqual({
      repo_url: '',
      codehost_login: '',
      branch: 'main',
      repo_created: false,
    });
    expect(await client.codehost.listRepositories('ada', { page: 2, per_page: 5 })).toEqual({
      items: [],
      meta: { total_count: 0, page: 2, per_page: 5 },
    });
    expect(sent.at(-1)).toMatchObject({ method: 'GET', query: { page: 2, per_page: 5 } });
  });
});
