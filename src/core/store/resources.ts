/**
 * Server data as resources (docs/architecture.md, "Server data: resources"): each datum has a key, a fetcher
 * and one entry in `state.resources` with `status`, `data` and `error`. Loads of one key share one request, an
 * answer overtaken by a newer load of its key is dropped, and a mutation invalidates the keys it changes.
 */
import type { AgentClient } from '../wire/client.js';
import type { AgentApiError } from '../wire/errors.js';
import type { ConversationTurn, ProjectSummary, Usage } from '../wire/proxy-resources.js';
import type { CodehostConnection, DeploymentConnection, SubscriptionPlan } from '../wire/resources.js';
import { withProxyTurns, type ConversationSlice } from './conversation-slice.js';
import { createSliceRunner, type IntegrationResult, type SliceContext } from './slice-context.js';

/** Where a resource is: never asked for, first load running, answered, failed (a refresh of held data stays `success`). */
export type ResourceStatus = 'idle' | 'loading' | 'success' | 'error';

/** One server datum as the store holds it; `data` stays while it is refreshed or when a refresh fails. */
export interface Resource<T> {
  status: ResourceStatus;
  data: T | undefined;
  error: AgentApiError | undefined;
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
}

/** A resource that was never asked for. */
export const idleResource: Resource<never> = { status: 'idle', data: undefined, error: undefined };

/** The resource of `spec` in a store state. */
export function selectResource<T>(state: ResourcesSlice, spec: ResourceSpec<T>): Resource<T> {
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

// A route the transport does not have (no proxy in front of the API) answers 404: nothing to show, not a failure.
const orNull = <T>(call: Promise<T>): Promise<T | null> =>
  call.catch((error: AgentApiError) => {
    if (error.status === 404) return null;
    throw error;
  });

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
  conversation: (projectId: string): ResourceSpec<ConversationTurn[] | null, ConversationSlice> => ({
    key: `conversation:${projectId}`,
    fetch: (client, signal) => orNull(client.projects.conversation(projectId, { signal })),
    settle: (turns, state) => withProxyTurns(state, projectId, turns ?? []),
  }),
  deploymentConnections: (provider: string): ResourceSpec<DeploymentConnection[]> => ({
    key: `deployment-connections:${provider}`,
    fetch: (client, signal) => client.deployments.listConnections(provider, { signal }),
  }),
  codehostConnections: {
    key: 'codehost-connections',
    fetch: (client, signal) => client.codehost.listConnections({ signal }),
  } satisfies ResourceSpec<CodehostConnection[]>,
};

/** Creates the resources slice. */
export function createResourcesSlice<State extends ResourcesSlice>(context: SliceContext<State>): ResourcesSlice {
  const { client, get, set } = context;
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
        const current = get().resources[spec.key];
        if (current?.data === undefined) patch(spec.key, { status: 'loading', error: undefined });
      },
      succeed: (data) =>
        patch(
          spec.key,
          { status: 'success', data, error: undefined },
          spec.settle?.(data, get()) as Partial<State> | undefined,
        ),
      fail: (error) => patch(spec.key, { status: 'error', error }),
    });
  };
  return {
    resources: {},
    fetchResource: (spec) => load(spec, false),
    invalidate(prefix) {
      for (const [key, spec] of held) if (key.startsWith(prefix)) void load(spec, true);
    },
  };
}
