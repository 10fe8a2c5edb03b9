/**
 * Server data as resources (docs/architecture.md, "Server data: resources"): each datum has a key, a fetcher
 * and one entry in `state.resources` with `status`, `data` and `error`. Loads of one key share one request, an
 * answer overtaken by a newer load of its key is dropped, and a mutation invalidates the keys it changes.
 */
import type { AgentClient } from '../wire/client.js';
import type { AgentApiError } from '../wire/errors.js';
import type { ConversationTurn, ProjectSummary, Usage } from '../wire/proxy-resources.js';
import {
  repositoryPaging,
  type CodehostConnection,
  type DeploymentConnection,
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

/** How to fetch one resource; `settle` adds to the same store update as the answer (it never runs alone). */
export interface ResourceSpec<T, State = object> {
  key: string;
  fetch(client: AgentClient, signal: AbortSignal): Promise<T>;
  settle?(data: T, state: State): Partial<State>;
}

/** The state and actions of the resources. */
export interface ResourcesSlice {
  /** By resource key. */
  resources: Record<string, Resource<unknown>>;
  /** Loads a resource; while a load of its key runs, returns that one's promise and sends nothing. */
  fetchResource<T>(spec: ResourceSpec<T>): Promise<IntegrationResult<T>>;
  /** Loads again every held resource whose key starts with `prefix` (after a mutation changed them). */
  invalidate(prefix: string): void;
  /** Writes what a mutation's answer says a resource now is (no request; a load running for it is overtaken). */
  putResource<T>(spec: ResourceSpec<T>, data: T): void;
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
  deploymentConnections: (provider: string): ResourceSpec<DeploymentConnection[]> => ({
    key: `deployment-connections:${provider}`,
    fetch: (client, signal) => client.deployments.listConnections(provider, { signal }),
  }),
  codehostConnection: (externalUserId: string): ResourceSpec<CodehostConnection | null> => ({
    key: `codehost-connection:${externalUserId}`,
    fetch: (client, signal) =>
      ownConnection(
        () => client.codehost.listConnections({ signal }),
        externalUserId,
        () => client.codehost.getConnection(externalUserId, { signal }),
      ),
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

/** Creates the resources slice. */
export function createResourcesSlice<State extends ResourcesSlice>(context: SliceContext<State>): ResourcesSlice {
  const { client, get, set, now } = context;
  const run = createSliceRunner(context.signal);
  const held = new Map<string, ResourceSpec<unknown>>();
  const patch = (key: string, next: Partial<Resource<unknown>>, extra?: Partial<State>) => {
    const resources = get().resources;
    set({ ...extra, resources: { ...resources, [key]: { ...(resources[key] ?? idleResource), ...next } } } as State);
  };
  const load = <T>(spec: ResourceSpec<T>, fresh: boolean) => {
    held.set(spec.key, spec as ResourceSpec<unknown>);
    return run<T>({
      key: spec.key,
      record: spec.key,
      fresh,
      call: (signal) => spec.fetch(client, signal),
      start: () => {
        if (get().resources[spec.key]?.data === undefined) patch(spec.key, { status: 'loading', error: undefined });
      },
      succeed: (data) =>
        patch(
          spec.key,
          { status: 'success', data, error: undefined, updatedAt: now() },
          spec.settle?.(data, get()) as Partial<State> | undefined,
        ),
      fail: (error) => patch(spec.key, { status: 'error', error, updatedAt: now() }),
    });
  };
  return {
    resources: {},
    fetchResource: (spec) => load(spec, false),
    invalidate(prefix) {
      for (const [key, spec] of held) if (key.startsWith(prefix)) void load(spec, true);
    },
    putResource(spec, data) {
      if (context.signal.aborted) return;
      // A put is news newer than any load running: their answers are dropped.
      run.overtake(spec.key);
      patch(spec.key, { status: 'success', data, error: undefined, updatedAt: now() });
    },
  };
}
