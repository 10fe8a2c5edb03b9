/**
 * Server actions as mutations (docs/architecture.md, "Server actions: mutations"), the counterpart of resources:
 * each action on the end user's behalf (connect a provider, deploy, start the code-host install, link, push) has
 * a key and one entry in `state.mutations` with `status`, `data`, `error`, `variables` and its times. Requests of
 * one key and variables share one promise, and an answer overtaken by a newer request of its key is dropped.
 */
import { AgentApiError } from '../wire/errors.js';
import { parseHttpUrl } from '../wire/safe-url.js';
import type {
  Deployment,
  DeploymentConnection,
  LinkResult,
  PushInput,
  PushResult,
  StartCodehostConnectInput,
  StartCodehostConnectResult,
} from '../wire/resources.js';
import { noteCodehostMissing } from './codehost-slice.js';
import {
  repositoryKeyPrefix,
  resourceSpecs,
  selectResource,
  type LinkedRepository,
  type ResourcesSlice,
} from './resources.js';
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

/** A repository by owner and name, as a link or a push names it. */
export interface RepositoryRef {
  owner: string;
  name: string;
  private?: boolean;
}

/** The body of a start, as the library sends it: name and email may be left to the agency's proxy to fill in. */
export interface StartCodehostInput {
  external_user_id: string;
  external_user_name?: string;
  external_user_email?: string;
  return_url: string;
}

type Target = { provider: string; projectId: string };
type Account = { provider: string; externalUserId: string };

/** The keys of the store's mutations, by name; a push's variables are undefined for the linked repository. */
export const mutationKeys = {
  deploy: (provider: string, projectId: string) => `deploy:${provider}:${projectId}` as MutationKey<Deployment, Target>,
  deploymentConnect: (provider: string, externalUserId: string) =>
    `deployment-connect:${provider}:${externalUserId}` as MutationKey<DeploymentConnection, Account>,
  codehostStart: (externalUserId: string) =>
    `codehost-start:${externalUserId}` as MutationKey<StartCodehostConnectResult, { externalUserId: string }>,
  repositoryLink: (projectId: string) => `repository-link:${projectId}` as MutationKey<LinkResult, RepositoryRef>,
  repositoryPush: (projectId: string) =>
    `repository-push:${projectId}` as MutationKey<PushResult, RepositoryRef | undefined>,
};

/** The mutations and the actions that run them; actions never reject, and never send twice while one runs. */
export interface MutationsSlice {
  /** By mutation key (`mutationKeys`). */
  mutations: Record<string, Mutation<unknown, unknown>>;
  /** Stores a provider token for an end user; the token is sent and forgotten (the connection is a resource). */
  connectDeployment(
    provider: string,
    externalUserId: string,
    token: string,
  ): Promise<IntegrationResult<DeploymentConnection>>;
  /** Deploys a project. */
  deploy(provider: string, projectId: string, externalUserId?: string): Promise<IntegrationResult<Deployment>>;
  /** Starts the install flow; an answer whose redirect_url is not http(s) is a failure, never a redirect. */
  startCodehostConnect(input: StartCodehostInput): Promise<IntegrationResult<StartCodehostConnectResult>>;
  /** Links a project to an existing repository. */
  linkRepository(
    projectId: string,
    externalUserId: string,
    repository: RepositoryRef,
  ): Promise<IntegrationResult<LinkResult>>;
  /** Pushes to the given repository (created if missing) or, without one, to the linked repository. */
  pushRepository(
    projectId: string,
    externalUserId: string,
    repository?: RepositoryRef,
  ): Promise<IntegrationResult<PushResult>>;
}

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
  state: Pick<MutationsSlice, 'mutations'>,
  key: MutationKey<Data, Variables> | undefined,
): Mutation<Data, Variables> {
  return ((key === undefined ? undefined : state.mutations[key]) ?? idleMutation) as Mutation<Data, Variables>;
}

/** A copy of the error with every occurrence of the secret masked, in case a server echoes the token. */
function withoutSecret(error: AgentApiError, secret: string): AgentApiError {
  const mask = (text: string) => text.split(secret).join('•••');
  const fieldErrors = Object.entries(error.fieldErrors ?? {});
  const texts = [error.message, ...fieldErrors.flatMap(([, messages]) => messages)];
  if (secret === '' || !texts.some((text) => text.includes(secret))) return error;
  const options: ConstructorParameters<typeof AgentApiError>[2] = { code: error.code };
  if (error.status !== undefined) options.status = error.status;
  if (error.retryAfterMs !== undefined) options.retryAfterMs = error.retryAfterMs;
  if (error.fieldErrors !== undefined)
    options.fieldErrors = Object.fromEntries(fieldErrors.map(([field, messages]) => [field, messages.map(mask)]));
  return new AgentApiError(error.kind, mask(error.message), options);
}

/**
 * One run of a server action; `onSuccess` and `onError` go just before its record is written, with when the request
 * was sent (what they put into resources is ordered by it).
 */
interface MutationRun<Data, Variables> {
  key: MutationKey<Data, Variables>;
  variables: Variables;
  call(signal: AbortSignal): Promise<Data>;
  onSuccess?(data: Data, sentAt: number): void;
  onError?(error: AgentApiError, sentAt: number): void;
}

/**
 * The repository a project is linked to after a link or push answered (the API tells it in no other way): a link
 * links the repository it named; a push to the linked repository (none named) keeps it, with the answer's address
 * and branch; a push by name links that repository only when nothing was linked (the API links an unlinked project).
 */
function linkedAfter(
  linked: LinkedRepository | undefined,
  action: 'link' | 'push',
  repository: RepositoryRef | undefined,
  answer: LinkResult | PushResult,
): LinkedRepository | undefined {
  const toLinked =
    repository === undefined ||
    (linked?.repository.owner === repository.owner && linked.repository.name === repository.name);
  if (toLinked) return linked === undefined ? undefined : { ...linked, answer };
  if (action === 'push' && linked !== undefined) return linked;
  return { repository: { owner: repository.owner, name: repository.name }, answer };
}

/** Creates the mutations slice: one runner writes every action's record and the log. */
export function createMutationsSlice(
  context: SliceContext<MutationsSlice & ResourcesSlice>,
  mutations: MutationsSlice['mutations'],
): MutationsSlice {
  const { client, get, set, now, log } = context;
  const run = createSliceRunner(context.signal);
  const write = (key: string, next: Partial<Mutation<unknown, unknown>>) =>
    set({ mutations: { ...get().mutations, [key]: { ...(get().mutations[key] ?? idleMutation), ...next } } });
  const mutate = <Data, Variables>(mutation: MutationRun<Data, Variables>) => {
    const { key, variables } = mutation;
    let sentAt = 0;
    return run<Data>({
      key: `${key} ${JSON.stringify(variables)}`,
      record: key,
      call: mutation.call,
      start: () => {
        log('action', `${key}: pending`);
        sentAt = now();
        write(key, { ...idleMutation, status: 'pending', variables, startedAt: sentAt });
      },
      succeed: (data) => {
        log('action', `${key}: success`);
        mutation.onSuccess?.(data, sentAt);
        write(key, { status: 'success', data, endedAt: now() });
      },
      fail: (error) => {
        log('error', `${key}: error (${error.message})`);
        mutation.onError?.(error, sentAt);
        write(key, { status: 'error', error, endedAt: now() });
      },
    });
  };
  const connection = resourceSpecs.deploymentConnection;
  /** Puts the project's linked repository as a link's or push's answer tells it. */
  const noteLinked = (
    projectId: string,
    action: 'link' | 'push',
    repository: RepositoryRef | undefined,
    answer: LinkResult | PushResult,
    sentAt: number,
  ) => {
    const spec = resourceSpecs.linkedRepository(projectId);
    const linked = linkedAfter(selectResource(get(), spec).data, action, repository, answer);
    if (linked !== undefined) get().putResource(spec, linked, sentAt);
  };

  return {
    mutations,

    connectDeployment: (provider, externalUserId, token) =>
      mutate({
        key: mutationKeys.deploymentConnect(provider, externalUserId),
        variables: { provider, externalUserId },
        call: async (signal) => {
          try {
            return await client.deployments.connect(provider, { external_user_id: externalUserId, token }, { signal });
          } catch (thrown) {
            throw thrown instanceof AgentApiError ? withoutSecret(thrown, token) : thrown;
          }
        },
        onSuccess: (data, sentAt) => {
          get().putResource(connection(provider, externalUserId), data, sentAt);
          get().invalidate(`deployment-connections:${provider}`);
        },
      }),

    deploy: (provider, projectId, externalUserId) =>
      mutate({
        key: mutationKeys.deploy(provider, projectId),
        variables: { provider, projectId },
        call: (signal) =>
          client.deployments.deploy(
            provider,
            projectId,
            externalUserId === undefined ? {} : { external_user_id: externalUserId },
            { signal },
          ),
        // The deployment is live; deploying used the connection (and may have linked the project to it): the
        // listing, whose answer is also the end user's connection, says so now.
        onSuccess: (deployment, sentAt) => {
          get().putResource(resourceSpecs.deployment(provider, projectId), deployment, sentAt);
          get().invalidate(`deployment-connections:${provider}`);
        },
        // The deploy answer is news about the connection: the connection and the listing both hear it.
        onError: (error, sentAt) => {
          if (error.code !== 'connection_not_found') return;
          if (externalUserId !== undefined) get().putResource(connection(provider, externalUserId), null, sentAt);
          get().invalidate(`deployment-connections:${provider}`);
        },
      }),

    startCodehostConnect: (input) =>
      mutate({
        key: mutationKeys.codehostStart(input.external_user_id),
        variables: { externalUserId: input.external_user_id },
        call: async (signal) => {
          // Name and email may be absent: the agency's proxy fills them from its session, or the API says which is missing.
          const result = await client.codehost.startConnect(input as StartCodehostConnectInput, { signal });
          if (parseHttpUrl(result.redirect_url) !== undefined) return result;
          throw new AgentApiError(
            'protocol',
            'The code host answered with an installation address that is not a web address.',
          );
        },
      }),

    linkRepository: (projectId, externalUserId, { owner, name }) =>
      mutate({
        key: mutationKeys.repositoryLink(projectId),
        variables: { owner, name },
        call: (signal) =>
          client.codehost.link(
            projectId,
            { external_user_id: externalUserId, repo_owner: owner, repo_name: name },
            { signal },
          ),
        onSuccess: (answer, sentAt) => noteLinked(projectId, 'link', { owner, name }, answer, sentAt),
        onError: (error, sentAt) => noteCodehostMissing(get(), externalUserId, error, sentAt),
      }),

    pushRepository(projectId, externalUserId, repository) {
      const body: PushInput = { external_user_id: externalUserId };
      if (repository !== undefined) Object.assign(body, { repo_owner: repository.owner, repo_name: repository.name });
      if (repository?.private !== undefined) body.private = repository.private;
      return mutate({
        key: mutationKeys.repositoryPush(projectId),
        variables: repository,
        call: (signal) => client.codehost.push(projectId, body, { signal }),
        // A created repository changes the listing's pages: each one shown is loaded again (and kept meanwhile).
        onSuccess: (result, sentAt) => {
          noteLinked(projectId, 'push', repository, result, sentAt);
          if (result.repo_created === true) get().invalidate(repositoryKeyPrefix(externalUserId));
        },
        onError: (error, sentAt) => noteCodehostMissing(get(), externalUserId, error, sentAt),
      });
    },
  };
}
