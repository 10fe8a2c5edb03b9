/** The one table of Agent API routes, shared by the client, the proxy and the mock. */

/** Every endpoint of the spec, named. */
export type AgentRouteName =
  | 'generate'
  | 'followUp'
  | 'getProject'
  | 'connectDeployment'
  | 'getDeploymentConnection'
  | 'listDeploymentConnections'
  | 'deploy'
  | 'startCodehostConnect'
  | 'getCodehostConnection'
  | 'listCodehostConnections'
  | 'listRepositories'
  | 'linkRepository'
  | 'pushRepository'
  | 'listPlans';

/**
 * Which family a route belongs to: `agent` endpoints answer `{ status: false, message }` on failure and fall
 * under the API's rate limit, `envelope` ones (deployments, code host, plans) answer the envelope, and
 * `proxy` routes are the agency proxy's own.
 */
export type RouteFamily = 'agent' | 'envelope' | 'proxy';

/** The ids allowed in a path (project, provider, external user): no slash, dot or control character. */
export const agentIdPattern = /^[A-Za-z0-9_-]{1,128}$/;

/** The spec's minimum prompt length of generate and follow-up, in characters (code points). */
export const minimumPromptLength = 10;

/** An HTTP method and a path template relative to the base URL, with `{param}` placeholders. */
export interface AgentRoute {
  method: 'GET' | 'POST';
  path: string;
  family: RouteFamily;
  /** Whether the endpoint answers with an SSE stream. */
  stream?: boolean;
}

/** The routes of the spec, with the paths the mock uses where the spec does not show one; an agency may override any path. */
export const agentRoutes: Readonly<Record<AgentRouteName, AgentRoute>> = {
  generate: { family: 'agent', method: 'POST', path: '/agent/generate', stream: true },
  followUp: { family: 'agent', method: 'POST', path: '/agent/generate/{projectId}', stream: true },
  getProject: { family: 'agent', method: 'GET', path: '/agent/project/{projectId}' },
  connectDeployment: { family: 'envelope', method: 'POST', path: '/deployments/{provider}/connections' },
  getDeploymentConnection: {
    family: 'envelope',
    method: 'GET',
    path: '/deployments/{provider}/connections/{externalUserId}',
  },
  listDeploymentConnections: { family: 'envelope', method: 'GET', path: '/deployments/{provider}/connections' },
  deploy: { family: 'envelope', method: 'POST', path: '/deployments/{providerId}/project/{projectId}/deploy' },
  startCodehostConnect: { family: 'envelope', method: 'POST', path: '/codehost/connect/start' },
  getCodehostConnection: { family: 'envelope', method: 'GET', path: '/codehost/connections/{externalUserId}' },
  listCodehostConnections: { family: 'envelope', method: 'GET', path: '/codehost/connections' },
  listRepositories: { family: 'envelope', method: 'GET', path: '/codehost/connections/{externalUserId}/repositories' },
  linkRepository: { family: 'envelope', method: 'POST', path: '/codehost/project/{projectId}/link' },
  pushRepository: { family: 'envelope', method: 'POST', path: '/codehost/project/{projectId}/push' },
  listPlans: { family: 'envelope', method: 'GET', path: '/subscription-plans' },
};

/**
 * The agency proxy's own routes, beside the mirrored API (not in the Agent API; the proxy answers them
 * itself, for the signed-in end user's projects only). Relayed generation events carry an SSE `id:` (1, 2,
 * 3… per generation); `projectEvents` replays the project's latest generation after `Last-Event-ID` or
 * `?after=N`, then follows it live to its terminal event. It answers 204 when nothing is recorded.
 * `getUsage` reports the signed-in end user's quota: `{ status: true, used, limit, resets_at, period }`.
 */
export type ProxyRouteName = 'listProjects' | 'getConversation' | 'projectEvents' | 'getUsage';

/** Paths of the proxy's own routes, relative to the proxy's base path. */
export const proxyRoutes: Readonly<Record<ProxyRouteName, AgentRoute>> = {
  listProjects: { family: 'proxy', method: 'GET', path: '/projects' },
  getConversation: { family: 'proxy', method: 'GET', path: '/projects/{projectId}/conversation' },
  projectEvents: { family: 'proxy', method: 'GET', path: '/projects/{projectId}/events', stream: true },
  getUsage: { family: 'proxy', method: 'GET', path: '/usage' },
};

/** Overrides of route paths, by route name. */
export type AgentPathOverrides = Partial<Record<AgentRouteName | ProxyRouteName, string>>;

/** Fills a path template; every parameter is URI-encoded so an id can never add a path segment. */
export function fillPath(template: string, params: Record<string, string> = {}): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined || value === '') throw new TypeError(`Missing path parameter "${name}" for ${template}.`);
    return encodeURIComponent(value);
  });
}

/** The family of a path outside the table (for the shape of its 404): deployment and code-host paths are envelopes. */
export function familyOfPath(path: string): Exclude<RouteFamily, 'proxy'> {
  return path.startsWith('/deployments/') || path.startsWith('/codehost/') ? 'envelope' : 'agent';
}

/** Whether a prompt is long enough for generate and follow-up (trimmed, counted in code points like the API). */
export function isPromptLongEnough(prompt: string): boolean {
  return [...prompt.trim()].length >= minimumPromptLength;
}

/** A matched route and its decoded parameters. */
export interface RouteMatch {
  name: AgentRouteName;
  route: AgentRoute;
  params: Record<string, string>;
}

/**
 * Finds the route for a method and a path relative to the base URL. Parameters must match `paramPattern`
 * (by default `agentIdPattern`), so encoded slashes, dots and control characters never match.
 */
export function matchRoute(
  method: string,
  path: string,
  options: { routes?: Readonly<Record<AgentRouteName, AgentRoute>>; paramPattern?: RegExp } = {},
): RouteMatch | undefined {
  const routes = options.routes ?? agentRoutes;
  const paramPattern = options.paramPattern ?? agentIdPattern;
  const segments = path.split('/');
  for (const [name, route] of Object.entries(routes) as [AgentRouteName, AgentRoute][]) {
    if (route.method !== method.toUpperCase()) continue;
    const templateSegments = route.path.split('/');
    if (templateSegments.length !== segments.length) continue;
    const params: Record<string, string> = {};
    let matched = true;
    for (let index = 0; index < templateSegments.length && matched; index++) {
      const expected = templateSegments[index] ?? '';
      const actual = segments[index] ?? '';
      const param = /^\{(\w+)\}$/.exec(expected)?.[1];
      if (param === undefined) matched = expected === actual;
      else if (paramPattern.test(actual)) params[param] = actual;
      else matched = false;
    }
    if (matched) return { name, route, params };
  }
  return undefined;
}
