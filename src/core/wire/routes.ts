/**
 * The one route contract of agent-embed: every route of the Agent API and of the agency proxy, with its method,
 * path template (its params), body and answer types, and family. The client sends from it, the proxy routes
 * from it and the mock answers from it (docs/architecture.md, "The route contract").
 */
import { agentApiMessages } from './errors.js';
import type { AgentEvent } from './events.js';
import type { ConversationBody, ProjectListBody, UsageBody } from './proxy-resources.js';
import type {
  CodehostConnection,
  ConnectDeploymentInput,
  Deployment,
  DeployInput,
  DeploymentConnection,
  Envelope,
  FollowUpInput,
  GenerateInput,
  LinkRepositoryInput,
  LinkResult,
  Project,
  PushInput,
  PushResult,
  RepositoryList,
  RepositoryListQuery,
  StartCodehostConnectInput,
  StartCodehostConnectResult,
  SubscriptionPlan,
} from './resources.js';

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
 * The agency proxy's own routes, beside the mirrored API (not in the Agent API; the proxy answers them
 * itself, for the signed-in end user's projects only). Relayed generation events carry an SSE `id:` (1, 2,
 * 3… per generation); `projectEvents` replays the project's latest generation after `Last-Event-ID` or
 * `?after=N`, then follows it live to its terminal event. It answers 204 when nothing is recorded.
 * `getUsage` reports the signed-in end user's quota: `{ status: true, used, limit, resets_at, period }`.
 */
export type ProxyRouteName = 'listProjects' | 'getConversation' | 'projectEvents' | 'getUsage';

/** Every route of the contract: the Agent API's and the agency proxy's own. */
export type RouteName = AgentRouteName | ProxyRouteName;

/**
 * Which family a route belongs to: `agent` endpoints answer `{ status: false, message }` on failure and fall
 * under the API's rate limit, `envelope` ones (deployments, code host, plans) answer the envelope, and
 * `proxy` routes are the agency proxy's own.
 */
export type RouteFamily = 'agent' | 'envelope' | 'proxy';

/** Upstream routes that an upstream rate-limits together, so the proxy's budget counts them together. */
export type BudgetFamily = 'agent' | 'deployments' | 'codehost' | 'plans';

/**
 * The ids allowed in a path (project, provider, external user): no slash, dot or control character, and not a name
 * every plain object already has (`constructor`, `__proto__`, `toString`…): ids key the store's records, where such a
 * name would read the object's own machinery instead of a project.
 */
export const agentIdPattern = new RegExp(
  `^(?!(?:${Object.getOwnPropertyNames(Object.prototype).join('|')})$)[A-Za-z0-9_-]{1,128}$`,
);

/** The spec's minimum prompt length of generate and follow-up, in characters (code points). */
export const minimumPromptLength = 10;

/** An HTTP method and a path template relative to the base URL, with `{param}` placeholders. */
export interface AgentRoute {
  method: 'GET' | 'POST';
  path: string;
  family: RouteFamily;
  /** The budget family of an Agent API route; the proxy's own routes never go upstream and have none. */
  budget?: BudgetFamily;
  /** Whether the endpoint answers with an SSE stream. */
  stream?: boolean;
}

const agentTable = {
  generate: { family: 'agent', budget: 'agent', method: 'POST', path: '/agent/generate', stream: true },
  followUp: { family: 'agent', budget: 'agent', method: 'POST', path: '/agent/generate/{projectId}', stream: true },
  getProject: { family: 'agent', budget: 'agent', method: 'GET', path: '/agent/project/{projectId}' },
  connectDeployment: {
    family: 'envelope',
    budget: 'deployments',
    method: 'POST',
    path: '/deployments/{provider}/connections',
  },
  getDeploymentConnection: {
    family: 'envelope',
    budget: 'deployments',
    method: 'GET',
    path: '/deployments/{provider}/connections/{externalUserId}',
  },
  listDeploymentConnections: {
    family: 'envelope',
    budget: 'deployments',
    method: 'GET',
    path: '/deployments/{provider}/connections',
  },
  deploy: {
    family: 'envelope',
    budget: 'deployments',
    method: 'POST',
    path: '/deployments/{providerId}/project/{projectId}/deploy',
  },
  startCodehostConnect: { family: 'envelope', budget: 'codehost', method: 'POST', path: '/codehost/connect/start' },
  getCodehostConnection: {
    family: 'envelope',
    budget: 'codehost',
    method: 'GET',
    path: '/codehost/connections/{externalUserId}',
  },
  listCodehostConnections: { family: 'envelope', budget: 'codehost', method: 'GET', path: '/codehost/connections' },
  listRepositories: {
    family: 'envelope',
    budget: 'codehost',
    method: 'GET',
    path: '/codehost/connections/{externalUserId}/repositories',
  },
  linkRepository: {
    family: 'envelope',
    budget: 'codehost',
    method: 'POST',
    path: '/codehost/project/{projectId}/link',
  },
  pushRepository: {
    family: 'envelope',
    budget: 'codehost',
    method: 'POST',
    path: '/codehost/project/{projectId}/push',
  },
  listPlans: { family: 'envelope', budget: 'plans', method: 'GET', path: '/subscription-plans' },
} as const satisfies Record<AgentRouteName, AgentRoute>;

const proxyTable = {
  listProjects: { family: 'proxy', method: 'GET', path: '/projects' },
  getConversation: { family: 'proxy', method: 'GET', path: '/projects/{projectId}/conversation' },
  projectEvents: { family: 'proxy', method: 'GET', path: '/projects/{projectId}/events', stream: true },
  getUsage: { family: 'proxy', method: 'GET', path: '/usage' },
} as const satisfies Record<ProxyRouteName, AgentRoute>;

/** The Agent API's part of the contract, with the paths the mock uses where the spec shows none; an agency may override any path. */
export const agentRoutes: Readonly<Record<AgentRouteName, AgentRoute>> = agentTable;

/** The proxy's own part of the contract; paths relative to the proxy's base path. */
export const proxyRoutes: Readonly<Record<ProxyRouteName, AgentRoute>> = proxyTable;

/** The whole contract, one row per route: what the client sends, the proxy routes and the mock answers. */
export const routeContract: Readonly<Record<RouteName, AgentRoute>> = { ...agentTable, ...proxyTable };

type ContractTable = typeof agentTable & typeof proxyTable;

type ParamNames<Path extends string> = Path extends `${string}{${infer Name}}${infer Rest}`
  ? Name | ParamNames<Rest>
  : never;

/** The path parameters of a route, from its template (`/agent/project/{projectId}` → `{ projectId: string }`). */
export type RouteParams<Name extends RouteName> = { [Param in ParamNames<ContractTable[Name]['path']>]: string };

/**
 * What each route carries besides its path: its JSON body (`undefined`: none), its query, and its answer as the
 * wire says it (an envelope, the agent object, or for a stream each event's data).
 */
export interface RouteTypes {
  generate: { body: GenerateInput; query: undefined; answer: AgentEvent };
  followUp: { body: FollowUpInput; query: undefined; answer: AgentEvent };
  getProject: { body: undefined; query: undefined; answer: Project };
  connectDeployment: { body: ConnectDeploymentInput; query: undefined; answer: Envelope<DeploymentConnection> };
  getDeploymentConnection: { body: undefined; query: undefined; answer: Envelope<DeploymentConnection> };
  listDeploymentConnections: { body: undefined; query: undefined; answer: Envelope<DeploymentConnection[]> };
  deploy: { body: DeployInput; query: undefined; answer: Envelope<Deployment> };
  startCodehostConnect: {
    body: StartCodehostConnectInput;
    query: undefined;
    answer: Envelope<StartCodehostConnectResult>;
  };
  getCodehostConnection: { body: undefined; query: undefined; answer: Envelope<CodehostConnection> };
  listCodehostConnections: { body: undefined; query: undefined; answer: Envelope<CodehostConnection[]> };
  listRepositories: { body: undefined; query: RepositoryListQuery; answer: Envelope<RepositoryList> };
  linkRepository: { body: LinkRepositoryInput; query: undefined; answer: Envelope<LinkResult> };
  pushRepository: { body: PushInput; query: undefined; answer: Envelope<PushResult> };
  listPlans: { body: undefined; query: undefined; answer: Envelope<SubscriptionPlan[]> };
  listProjects: { body: undefined; query: undefined; answer: ProjectListBody };
  getConversation: { body: undefined; query: undefined; answer: ConversationBody };
  projectEvents: { body: undefined; query: { after?: number }; answer: AgentEvent };
  getUsage: { body: undefined; query: undefined; answer: UsageBody };
}

/** The JSON body a route takes (`undefined`: none). */
export type RouteBody<Name extends RouteName> = RouteTypes[Name]['body'];

/** What a route answers on success (for a stream: each event). */
export type RouteAnswer<Name extends RouteName> = RouteTypes[Name]['answer'];

/** The routes answered with one JSON body (every route but the event streams). */
export type JsonRouteName = {
  [Name in RouteName]: ContractTable[Name] extends { stream: true } ? never : Name;
}[RouteName];

// The array a listing body carries under its key (`projects`, `turns`); never for a body without one.
type ListIn<Body> = { [Key in keyof Body]-?: Body[Key] extends readonly unknown[] ? Body[Key] : never }[keyof Body];

/**
 * What the client resolves a JSON route with, read from its `RouteAnswer`: an envelope's `data`, a listing
 * body's array, else the body itself.
 */
export type RouteData<Name extends JsonRouteName> =
  RouteAnswer<Name> extends Envelope<infer Data>
    ? Data
    : [ListIn<RouteAnswer<Name>>] extends [never]
      ? RouteAnswer<Name>
      : ListIn<RouteAnswer<Name>>;

/** The JSON routes whose data is a listing (the client reads those tolerantly: `RouteData` is an array). */
export type ListRouteName = {
  [Name in JsonRouteName]: RouteData<Name> extends readonly unknown[] ? Name : never;
}[JsonRouteName];

/** Overrides of route paths, by route name. */
export type AgentPathOverrides = Partial<Record<RouteName, string>>;

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

/**
 * Why the API refuses a generate or follow-up prompt (its validation errors for `prompt`), or `undefined` for one it
 * takes. Worded as its (Laravel) validator words them: the spec names the too-short message; a blank prompt is
 * trimmed to nothing and so missing, as Laravel's default middleware makes it.
 */
export function promptErrors(prompt: unknown): string[] | undefined {
  if (prompt === undefined || prompt === null || (typeof prompt === 'string' && prompt.trim() === ''))
    return ['The prompt field is required.'];
  if (typeof prompt !== 'string') return ['The prompt field must be a string.'];
  return isPromptLongEnough(prompt) ? undefined : [agentApiMessages.promptTooShort];
}

/** A matched route and its decoded parameters. */
export interface RouteMatch<Name extends RouteName = AgentRouteName> {
  name: Name;
  route: AgentRoute;
  params: Record<string, string>;
}

/**
 * Finds the route for a method and a path relative to the base URL, in `routes` (default the Agent API's part
 * of the contract; the proxy passes `routeContract`). Parameters must match `paramPattern` (by default
 * `agentIdPattern`), so encoded slashes, dots and control characters never match.
 */
export function matchRoute<Name extends RouteName = AgentRouteName>(
  method: string,
  path: string,
  options: { routes?: Readonly<Record<Name, AgentRoute>>; paramPattern?: RegExp } = {},
): RouteMatch<Name> | undefined {
  const routes = options.routes ?? (agentRoutes as Readonly<Record<Name, AgentRoute>>);
  const paramPattern = options.paramPattern ?? agentIdPattern;
  const segments = path.split('/');
  for (const [name, route] of Object.entries(routes) as [Name, AgentRoute][]) {
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
