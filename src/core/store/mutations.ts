/**
 * Server actions as mutations (docs/architecture.md, "Server actions: mutations"), the counterpart of resources:
 * each action on the end user's behalf has a key and one entry in `state.mutations` with `status`, `data`,
 * `error`, `variables` and its times. Requests of one key and variables share one promise, and an answer
 * overtaken by a newer request of its key is dropped.
 */
import type { AgentApiError } from '../wire/errors.js';
import type {
  Deployment,
  DeploymentConnection,
  LinkResult,
  PushResult,
  StartCodehostConnectResult,
} from '../wire/resources.js';
import { createSliceRunner, type IntegrationResult, type SliceContext } from './slice-context.js';

/** Where a server action is: never asked for, sent, answered, failed (the words of resources). */
export type MutationStatus = 'idle' | 'pending' | 'success' | 'error';

/** The latest run of one server action; `variables` is what it was asked to do (never a secret). */
export interface Mutation<Data, Variables> {
  status: MutationStatus;
  data: Data | undefined;
  error: AgentApiError | undefined;
  variables: Variables | undefined;
  /** When it was sent and when it answered or failed (the store's clock). */
  startedAt: number | undefined;
  endedAt: number | undefined;
}

/** A mutation's key in `state.mutations`, typed with its data and variables. */
export type MutationKey<Data, Variables> = string & { readonly mutation?: [Data, Variables] };

/** The state of the mutations. */
export interface MutationsSlice {
  /** By mutation key (`mutationKeys`). */
  mutations: Record<string, Mutation<unknown, unknown>>;
}

/** A repository by owner and name, as a link or a push names it. */
export interface RepositoryRef {
  owner: string;
  name: string;
  private?: boolean;
}

/** The mutations of the store, by name; a push without a repository goes to the linked one. */
export const mutationKeys = {
  deploy: (provider: string, projectId: string) =>
    `deploy:${provider}:${projectId}` as MutationKey<Deployment, { provider: string; projectId: string }>,
  deploymentConnect: (provider: string, externalUserId: string) =>
    `deployment-connect:${provider}:${externalUserId}` as MutationKey<
      DeploymentConnection,
      { provider: string; externalUserId: string }
    >,
  codehostStart: (externalUserId: string) =>
    `codehost-start:${externalUserId}` as MutationKey<StartCodehostConnectResult, { externalUserId: string }>,
  repositoryLink: (projectId: string) => `repository-link:${projectId}` as MutationKey<LinkResult, RepositoryRef>,
  repositoryPush: (projectId: string) =>
    `repository-push:${projectId}` as MutationKey<PushResult, RepositoryRef | undefined>,
};

/** A mutation that was never run. */
export const idleMutation: Mutation<never, never> = {
  status: 'idle',
  data: undefined,
  error: undefined,
  variables: undefined,
  startedAt: undefined,
  endedAt: undefined,
};

/** The mutation of `key` in a store state (idle without a key). */
export function selectMutation<Data, Variables>(
  state: MutationsSlice,
  key: MutationKey<Data, Variables> | undefined,
): Mutation<Data, Variables> {
  return ((key === undefined ? undefined : state.mutations[key]) ?? idleMutation) as Mutation<Data, Variables>;
}

/** One run of a server action; `onSuccess` and `onError` go just before its record is written. */
export interface MutationRun<Data, Variables> {
  key: MutationKey<Data, Variables>;
  variables: Variables;
  call(signal: AbortSignal): Promise<Data>;
  onSuccess?(data: Data): void;
  onError?(error: AgentApiError): void;
}

/** Creates the one runner of server actions of a slice: it writes `state.mutations` and the log. */
export function createMutationRunner(context: SliceContext<MutationsSlice>) {
  const { get, set, now, log } = context;
  const run = createSliceRunner(context.signal);
  const write = (key: string, next: Partial<Mutation<unknown, unknown>>) => {
    const mutations = get().mutations;
    set({ mutations: { ...mutations, [key]: { ...(mutations[key] ?? idleMutation), ...next } } });
  };
  return <Data, Variables>(mutation: MutationRun<Data, Variables>): Promise<IntegrationResult<Data>> => {
    const { key, variables } = mutation;
    return run<Data>({
      key: `${key} ${JSON.stringify(variables)}`,
      record: key,
      call: mutation.call,
      start: () => {
        log('action', `${key}: pending`);
        write(key, { ...idleMutation, status: 'pending', variables, startedAt: now() });
      },
      succeed: (data) => {
        log('action', `${key}: success`);
        mutation.onSuccess?.(data);
        write(key, { status: 'success', data, endedAt: now() });
      },
      fail: (error) => {
        log('error', `${key}: error (${error.message})`);
        mutation.onError?.(error);
        write(key, { status: 'error', error, endedAt: now() });
      },
    });
  };
}
