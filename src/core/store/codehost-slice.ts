/**
 * The code-host slice of the store: starting the install flow, the repository pages, and linking and pushing a
 * project. The end user's connection is the `codehostConnection` resource and each repository page a
 * `repositories` resource (docs/architecture.md, "Server data: resources"); what they say is derived here.
 */
import { AgentApiError } from '../wire/errors.js';
import { parseHttpUrl } from '../wire/safe-url.js';
import type {
  CodehostConnection,
  LinkResult,
  PushInput,
  PushResult,
  Repository,
  RepositoryList,
  StartCodehostConnectInput,
  StartCodehostConnectResult,
} from '../wire/resources.js';
import {
  clampPerPage,
  repositoryKeyPrefix,
  resourceSpecs,
  selectResource,
  type Resource,
  type ResourcesSlice,
} from './resources.js';
import { createMutationRunner, mutationKeys, type MutationsSlice, type RepositoryRef } from './mutations.js';
import { isPast, type IntegrationResult, type SliceContext } from './slice-context.js';

/**
 * Where an end user's code-host connection stands: `missing` (the spec's "connection not found"),
 * `expired` (its `expires_at` has passed), `inactive` (the app's installation is not active or the user
 * did not authorize it).
 */
export type CodehostConnectionStatus = 'idle' | 'loading' | 'connected' | 'expired' | 'inactive' | 'missing' | 'error';

/** The repository pages of one page size that the store holds for an end user. */
export interface RepositoryPages {
  /** Loaded pages by number. */
  pages: Record<number, Repository[]>;
  /** Every loaded repository, in page order, without duplicates. */
  loaded: Repository[];
  /** `meta.total_count` of the newest answer; null when the API does not know it. */
  totalCount: number | null;
}

/** The body of a start, as the library sends it: name and email may be left to the agency's proxy to fill in. */
export interface StartCodehostInput {
  external_user_id: string;
  external_user_name?: string;
  external_user_email?: string;
  return_url: string;
}

/** Actions of the code-host slice; starting, linking and pushing are mutations (`mutationKeys`). */
export interface CodehostSlice {
  /** Starts the install flow; an answer whose redirect_url is not http(s) is a failure, never a redirect. */
  startCodehostConnect(input: StartCodehostInput): Promise<IntegrationResult<StartCodehostConnectResult>>;
  /**
   * Loads one page, the `repositories` resource (page >= 1, perPage 1 to 100, out-of-range values clamped); a load
   * of the page already running is joined. A "connection not found" makes the connection `null`.
   */
  loadRepositories(
    externalUserId: string,
    query?: { page?: number; perPage?: number },
  ): Promise<IntegrationResult<RepositoryList>>;
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

/** Whether a repository is private: the reference types `private` as a string. */
export function isPrivateRepository(repository: Pick<Repository, 'private'>): boolean {
  const value = repository.private;
  if (typeof value === 'boolean') return value;
  return ['true', '1', 'private', 'yes'].includes(String(value).trim().toLowerCase());
}

/** Where the `codehostConnection` resource says the end user's connection stood when it was last answered. */
export function codehostConnectionStatus(resource: Resource<CodehostConnection | null>): CodehostConnectionStatus {
  const connection = resource.data;
  if (connection === null) return 'missing';
  if (connection === undefined) return resource.status === 'success' ? 'missing' : resource.status;
  if (isPast(connection.expires_at, resource.updatedAt ?? 0)) return 'expired';
  const installation = connection.installation_status;
  if (connection.user_authorized === false || (installation !== undefined && installation !== 'active'))
    return 'inactive';
  return 'connected';
}

/** The pages of `perPage` (default 30) repositories the store holds for an end user; undefined before any answered. */
export function selectRepositoryPages(
  state: Pick<ResourcesSlice, 'resources'>,
  externalUserId: string,
  perPage?: number,
): RepositoryPages | undefined {
  const prefix = repositoryKeyPrefix(externalUserId, clampPerPage(perPage));
  const pages: Record<number, Repository[]> = {};
  let newest: RepositoryList | undefined;
  let newestAt = -Infinity;
  for (const [key, resource] of Object.entries(state.resources)) {
    const data = resource.data as RepositoryList | undefined;
    if (!key.startsWith(prefix) || data === undefined) continue;
    pages[Number(key.slice(prefix.length))] = data.items;
    if ((resource.updatedAt ?? 0) >= newestAt) [newest, newestAt] = [data, resource.updatedAt ?? 0];
  }
  if (newest === undefined) return undefined;
  const seen = new Set<string>();
  // Integer keys iterate in ascending order: the pages come in page order.
  const loaded = Object.values(pages)
    .flat()
    .filter((repository) => !seen.has(repository.id) && seen.add(repository.id));
  const totalCount = newest.meta?.total_count;
  return { pages, loaded, totalCount: typeof totalCount === 'number' ? totalCount : null };
}

/** Creates the code-host slice. */
export function createCodehostSlice(
  context: SliceContext<CodehostSlice & ResourcesSlice & MutationsSlice>,
): CodehostSlice {
  const { client, get } = context;
  const mutate = createMutationRunner(context);

  // A "connection not found" from any code-host call is news about the connection itself.
  function noteMissing(externalUserId: string, error: AgentApiError): void {
    const spec = resourceSpecs.codehostConnection(externalUserId);
    if (error.code === 'connection_not_found' && selectResource(get(), spec).data !== null)
      get().putResource(spec, null);
  }

  return {
    startCodehostConnect: (input) =>
      mutate({
        key: mutationKeys.codehostStart(input.external_user_id),
        variables: { externalUserId: input.external_user_id },
        call: async (signal) => {
          // Name and email may be absent: the agency's proxy fills them from its session, or the API says which is missing.
          const result = await client.codehost.startConnect(input as StartCodehostConnectInput, { signal });
          if (parseHttpUrl(result.redirect_url) === undefined)
            throw new AgentApiError(
              'protocol',
              'The code host answered with an installation address that is not a web address.',
            );
          return result;
        },
      }),

    async loadRepositories(externalUserId, query) {
      const result = await get().fetchResource(resourceSpecs.repositories(externalUserId, query));
      if (!result.ok) noteMissing(externalUserId, result.error);
      return result;
    },

    linkRepository: (projectId, externalUserId, repository) =>
      mutate({
        key: mutationKeys.repositoryLink(projectId),
        variables: { owner: repository.owner, name: repository.name },
        call: (signal) =>
          client.codehost.link(
            projectId,
            { external_user_id: externalUserId, repo_owner: repository.owner, repo_name: repository.name },
            { signal },
          ),
        onError: (error) => noteMissing(externalUserId, error),
      }),

    pushRepository(projectId, externalUserId, repository) {
      const body: PushInput = { external_user_id: externalUserId };
      if (repository !== undefined) {
        body.repo_owner = repository.owner;
        body.repo_name = repository.name;
        if (repository.private !== undefined) body.private = repository.private;
      }
      return mutate({
        key: mutationKeys.repositoryPush(projectId),
        variables: repository,
        call: (signal) => client.codehost.push(projectId, body, { signal }),
        // A created repository changes the listing's pages: each one shown is loaded again (and kept meanwhile).
        onSuccess: (result) => {
          if (result.repo_created === true) get().invalidate(repositoryKeyPrefix(externalUserId));
        },
        onError: (error) => noteMissing(externalUserId, error),
      });
    },
  };
}
