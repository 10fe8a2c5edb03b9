/**
 * Server data as resources (docs/architecture.md, "Server data: resources"): each datum has a key, a fetcher
 * and one entry in `state.resources` with `status`, `data` and `error`. Loads of one key share one request, an
 * answer overtaken by a newer load of its key is dropped, news older than a resource's answer never overwrites it,
 * and a mutation invalidates the keys it changes.
 */
import type { AgentClient } from '../wire/client.js';
import { AgentApiError } from '../wire/errors.js';
import type { ConversationTurn, ProjectSummary, Usage } from '../wire/proxy-resources.js';
import {
  repositoryPaging,
  type CodehostConnection,
  type Deployment,
  type DeploymentConnection,
  type LinkResult,
  type PushResult,
  type RepositoryList,
  type SubscriptionPlan,
} from '../wire/resources.js';
import { withProxyTurns, type ConversationSlice } from './conversation-slice.js';
import { createSliceRunner, type IntegrationResult, type SliceContext } from './slice-context.js';
import type { GenerationState } from './generation.js';

/** Where a resource is: never asked for, first load running, answered, failed (a refresh of held data stays `success`). */
export type ResourceStatus = 'idle' | 'loading' | 'success' | 'error';

/** One server datum as the store holds it; `data` stays while it is refreshed or when a refresh fails. */
export interface Resource<T> {
  status: ResourceStatus;
  data: T | undefined;
  error: AgentApiError | undefined;
  /** When the last answer or failure came (the store's clock). */
  updatedAt: number | undefined;
}

/**
 * How to fetch one resource; `settle` adds to the same store update as the answer or put (it never runs alone), and
 * may change other resources too (`resources`, built from the state's) when the answer tells about them.
 */
export interface ResourceSpec<T, State = object> {
  key: string;
  fetch(client: AgentClient, signal: AbortSignal): Promise<T>;
  settle?(data: T, state: State, when: AnswerTimes): Partial<State>;
}

/** When the request behind an answer was sent (undefined: not known) and when the answer is written. */
export interface AnswerTimes {
  sentAt: number | undefined;
  at: number;
}

/** The repository a project's code goes to, and the latest link or push answer that said where it is. */
export interface LinkedRepository {
  repository: { owner: string; name: string };
  answer: LinkResult | PushResult;
}

/** The state and actions of the resources. */
export interface ResourcesSlice {
  /** By resource key. */
  resources: Record<string, Resource<unknown>>;
  /** Loads a resource; while a load of its key runs, returns that one's promise and sends nothing. */
  fetchResource<T>(spec: ResourceSpec<T>): Promise<IntegrationResult<T>>;
  /** Loads again every held resource whose key starts with `prefix` (after a mutation changed them). */
  invalidate(prefix: string): void;
  /**
   * Writes what a mutation's answer says a resource now is, without a request. With `sentAt` (when that request was
   * sent) it is ordered: dropped when the data held came from a request sent after it, and a load sent after it is
   * not overtaken (its answer is newer news); a load sent before it is.
   */
  putResource<T>(spec: ResourceSpec<T>, data: T, sentAt?: number): void;
}

/** A resource that was never asked for. */
export const idleResource: Resource<never> = {
  status: 'idle',
  data: undefined,
  error: undefined,
  updatedAt: undefined,
};

/** The resource of `spec` in a store state. */
export function selectResource<T>(state: Pick<ResourcesSlice, 'resources'>, spec: ResourceSpec<T>): Resource<T> {
  return (state.resources[spec.key] as Resource<T> | undefined) ?? idleResource;
}

/**
 * The plans in display order. The API sends them ordered; a stable sort on `sort_order` (when every plan
 * has one) only guards against a layer in between that reorders them.
 */
export function plansInDisplayOrder(plans: readonly SubscriptionPlan[]): SubscriptionPlan[] {
  if (!plans.every((plan) => typeof plan.sort_order === 'number')) return [...plans];
  return plans
    .map((plan, index) => ({ plan, index }))
    .sort((a, b) => (a.plan.sort_order as number) - (b.plan.sort_order as number) || a.index - b.index)
    .map(({ plan }) => plan);
}

/** A page size within the API's bounds (1 to 100), from any number. */
export function clampPerPage(value: number | undefined): number {
  if (value === undefined || !Number.isFinite(value)) return repositoryPaging.defaultPerPage;
  return Math.min(repositoryPaging.maxPerPage, Math.max(repositoryPaging.minPerPage, Math.trunc(value)));
}

/** A page number the API accepts (>= 1), from any number. */
export function clampPage(value: number | undefined): number {
  if (value === undefined || !Number.isFinite(value)) return 1;
  return Math.max(1, Math.trunc(value));
}

/**
 * The start of the keys of an end user's repository pages (`repositories:{externalUserId}:`), and of one page
 * size's with `perPage` (`repositories:ada:30:`); a page's key ends with its number.
 */
export function repositoryKeyPrefix(externalUserId: string, perPage?: number): string {
  return `repositories:${externalUserId}:${perPage === undefined ? '' : `${clampPerPage(perPage)}:`}`;
}

// A route the transport does not have (no proxy in front of the API) answers 404: nothing to show, not a failure.
const orNull = <T>(call: Promise<T>): Promise<T | null> =>
  call.catch((error: AgentApiError) => {
    if (error.status === 404) return null;
    throw error;
  });

/**
 * The end user's connection, or `null` when there is none: the listing (which answers 200 for "not
 * connected") does not have it, or a 404 says so (the spec's words or a proxy's; an unknown provider stays an
 * error). The direct lookup's 404 is a red console error in every browser, so the detailed view (expiry,
 * installation status) is asked for only once the listing has the connection.
 */
async function ownConnection<T extends { external_user_id: string }>(
  list: () => Promise<T[]>,
  externalUserId: string,
  lookUp: () => Promise<T>,
): Promise<T | null> {
  try {
    if (!(await list()).some((connection) => connection.external_user_id === externalUserId)) return null;
    return await lookUp();
  } catch (thrown) {
    const error = thrown as AgentApiError;
    if (error.kind === 'not_found' && error.code !== 'provider_not_found') return null;
    throw thrown;
  }
}

type Resources = Record<string, Resource<unknown>>;

/** The account and installation a code-host connection lists repositories through; '' for none. */
const listedThrough = (connection: CodehostConnection | null) =>
  connection === null ? '' : `${String(connection.codehost_login)} ${String(connection.installation_id)}`;

/** The held `deploymentConnection`s of a provider as its listing tells them (one connection, one answer). */
function withListedConnections(
  resources: Resources,
  provider: string,
  connections: DeploymentConnection[],
  at: number,
): Resources {
  const prefix = `deployment-connection:${provider}:`;
  const next = { ...resources };
  for (const [key, resource] of Object.entries(resources)) {
    if (!key.startsWith(prefix) || resource.data === undefined) continue;
    const listed = connections.find((connection) => connection.external_user_id === key.slice(prefix.length));
    // The detailed view may say more than the listing: what the listing says is laid over it.
    const data = listed === undefined ? null : { ...(resource.data as object | null), ...listed };
    next[key] = { status: 'success', data, error: undefined, updatedAt: at };
  }
  return next;
}

// What the API tells only in mutation answers (it has no route to read it back) is put, never loaded.
const toldOnly = (): Promise<never> =>
  Promise.reject(new AgentApiError('validation', 'The API tells this only in the answer of an action.'));

/** The resources of the store, by name. `null` data: the route does not exist behind this transport. */
export const resourceSpecs = {
  plans: {
    key: 'plans',
    fetch: async (client, signal) => plansInDisplayOrder(await client.plans.list({ signal })),
  } satisfies ResourceSpec<SubscriptionPlan[]>,
  usage: { key: 'usage', fetch: (client, signal) => client.usage.get({ signal }) } satisfies ResourceSpec<Usage>,
  projects: {
    key: 'projects',
    fetch: (client, signal) => orNull(client.projects.list({ signal })),
  } satisfies ResourceSpec<ProjectSummary[] | null>,
  /** The proxy's record of a project's turns, merged into `state.conversations` with this browser's own. */
  conversation: (
    projectId: string,
  ): ResourceSpec<ConversationTurn[] | null, ConversationSlice & { generations: Record<string, GenerationState> }> => ({
    key: `conversation:${projectId}`,
    fetch: (client, signal) => orNull(client.projects.conversation(projectId, { signal })),
    settle: (turns, state) => withProxyTurns(state, projectId, turns ?? []),
  }),
  /** The provider's connections; its answer is also each held `deploymentConnection` of the provider's. */
  deploymentConnections: (
    provider: string,
  ): ResourceSpec<DeploymentConnection[], Pick<ResourcesSlice, 'resources'>> => ({
    key: `deployment-connections:${provider}`,
    fetch: (client, signal) => client.deployments.listConnections(provider, { signal }),
    settle: (connections, state, { at }) => ({
      resources: withListedConnections(state.resources, provider, connections, at),
    }),
  }),
  /**
   * The end user's code-host connection. The repository pages are listed through it: an answer with another account
   * or installation than the one held (or none) drops them, so they are listed again through this one.
   */
  codehostConnection: (
    externalUserId: string,
  ): ResourceSpec<CodehostConnection | null, Pick<ResourcesSlice, 'resources'>> => ({
    key: `codehost-connection:${externalUserId}`,
    fetch: (client, signal) =>
      ownConnection(
        () => client.codehost.listConnections({ signal }),
        externalUserId,
        () => client.codehost.getConnection(externalUserId, { signal }),
      ),
    settle: (connection, { resources }) => {
      const held = resources[`codehost-connection:${externalUserId}`]?.data as CodehostConnection | null | undefined;
      if (held === undefined || listedThrough(held) === listedThrough(connection)) return {};
      const pages = repositoryKeyPrefix(externalUserId);
      return { resources: Object.fromEntries(Object.entries(resources).filter(([key]) => !key.startsWith(pages))) };
    },
  }),
  /** The project's live deployment: the latest deploy that succeeded (a failed one leaves it live). */
  deployment: (provider: string, projectId: string): ResourceSpec<Deployment> => ({
    key: `deployment:${provider}:${projectId}`,
    fetch: toldOnly,
  }),
  /** The repository the project is linked to, as the latest link or push answer told it (`linkedAfter` in `mutations.ts`). */
  linkedRepository: (projectId: string): ResourceSpec<LinkedRepository> => ({
    key: `linked-repository:${projectId}`,
    fetch: toldOnly,
  }),
  deploymentConnection: (provider: string, externalUserId: string): ResourceSpec<DeploymentConnection | null> => ({
    key: `deployment-connection:${provider}:${externalUserId}`,
    fetch: (client, signal) =>
      ownConnection(
        () => client.deployments.listConnections(provider, { signal }),
        externalUserId,
        () => client.deployments.getConnection(provider, externalUserId, { signal }),
      ),
  }),
  /** One page of the end user's repositories; page and page size clamped (a page means nothing without its size). */
  repositories: (
    externalUserId: string,
    query: { page?: number; perPage?: number } = {},
  ): ResourceSpec<RepositoryList> => {
    const page = clampPage(query.page);
    const perPage = clampPerPage(query.perPage);
    return {
      key: `${repositoryKeyPrefix(externalUserId, perPage)}${page}`,
      fetch: (client, signal) =>
        client.codehost.listRepositories(externalUserId, { page, per_page: perPage }, { signal }),
    };
  },
  codehostConnections: {
    key: 'codehost-connections',
    fetch: (client, signal) => client.codehost.listConnections({ signal }),
  } satisfies ResourceSpec<CodehostConnection[]>,
};

/** Creates the resources slice; `resources` are the ones an earlier page kept (`publish-records.ts`). */
export function createResourcesSlice<State extends ResourcesSlice>(
  context: SliceContext<State>,
  resources: Record<string, Resource<unknown>> = {},
): ResourcesSlice {
  const { client, get, set, now } = context;
  const run = createSliceRunner(context.signal);
  const held = new Map<string, ResourceSpec<unknown>>();
  // When the latest load of each key was sent: the answer that is written is that load's (older ones are dropped).
  const loadSentAt = new Map<string, number>();
  // When the request behind each key's data was sent: news from a request sent before it is older, never written
  // over it (the server answers requests in the order they come; TanStack Query compares a mutation's start with
  // `dataUpdatedAt` the same way).
  const dataSentAt = new Map<string, number>();
  const isOlder = (key: string, sent: number | undefined) =>
    sent !== undefined && (dataSentAt.get(key) ?? -Infinity) > sent;
  /**
   * Writes an answer (or a put) of `spec` and, in the same update, what its `settle` tells about other resources,
   * each of those ordered like the answer itself.
   */
  const answer = <T>(spec: ResourceSpec<T>, data: T, when: AnswerTimes) => {
    const extra = spec.settle?.(data, get(), when) as Partial<State> | undefined;
    const before = get().resources;
    const told = { ...(extra?.resources ?? before) };
    told[spec.key] = { status: 'success', data, error: undefined, updatedAt: when.at };
    for (const key of new Set([...Object.keys(before), ...Object.keys(told)])) {
      const kept = before[key];
      if (told[key] === kept) continue;
      if (key !== spec.key && kept !== undefined && isOlder(key, when.sentAt)) told[key] = kept;
      else if (told[key] === undefined) {
        dataSentAt.delete(key);
        // Dropped as older news: a load of it sent before this answer's request would bring that news back.
        if (when.sentAt === undefined || (loadSentAt.get(key) ?? Infinity) < when.sentAt) run.overtake(key);
      } else dataSentAt.set(key, when.sentAt ?? when.at);
    }
    set({ ...extra, resources: told } as State);
  };
  const patch = (key: string, next: Partial<Resource<unknown>>) => {
    const resources = get().resources;
    set({ resources: { ...resources, [key]: { ...(resources[key] ?? idleResource), ...next } } } as Partial<State>);
  };
  const load = <T>(spec: ResourceSpec<T>, fresh: boolean) => {
    held.set(spec.key, spec as ResourceSpec<unknown>);
    return run<T>({
      key: spec.key,
      record: spec.key,
      fresh,
      call: (signal) => spec.fetch(client, signal),
      start: () => {
        loadSentAt.set(spec.key, now());
        if (get().resources[spec.key]?.data === undefined) patch(spec.key, { status: 'loading', error: undefined });
      },
      succeed: (data) => answer(spec, data, { sentAt: loadSentAt.get(spec.key), at: now() }),
      fail: (error) => patch(spec.key, { status: 'error', error, updatedAt: now() }),
    });
  };
  return {
    resources,
    fetchResource: (spec) => load(spec, false),
    invalidate(prefix) {
      for (const [key, spec] of held) if (key.startsWith(prefix)) void load(spec, true);
    },
    putResource(spec, data, sent) {
      if (context.signal.aborted || isOlder(spec.key, sent)) return;
      // A load sent before this news answers older news: it is dropped. One sent after it answers newer news.
      if (sent === undefined || (loadSentAt.get(spec.key) ?? -Infinity) <= sent) run.overtake(spec.key);
      answer(spec, data, { sentAt: sent, at: now() });
    },
  };
}
