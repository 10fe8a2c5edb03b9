/**
 * The code-host slice of the store: starting the install flow, the paginated repositories, and linking and
 * pushing a project. The end user's connection is the `codehostConnection` resource; its status is derived here.
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
import { resourceSpecs, selectResource, type Resource, type ResourcesSlice, type ResourceStatus } from './resources.js';
import { createSliceRunner, isPast, type IntegrationResult, type SliceContext } from './slice-context.js';

/**
 * Where an end user's code-host connection stands: `missing` (the spec's "connection not found"),
 * `expired` (its `expires_at` has passed), `inactive` (the app's installation is not active or the user
 * did not authorize it).
 */
export type CodehostConnectionStatus = 'idle' | 'loading' | 'connected' | 'expired' | 'inactive' | 'missing' | 'error';

/** Where starting the install flow stands; `started` carries a checked http(s) `redirectUrl`. */
export type CodehostStartStatus = 'idle' | 'starting' | 'started' | 'failed';

/** The latest start of the install flow for an end user. */
export interface CodehostStartState {
  status: CodehostStartStatus;
  redirectUrl: string | undefined;
  state: string | undefined;
  error: AgentApiError | undefined;
}

/** The repositories of an end user, cached page by page. */
export interface RepositoryListState {
  status: ResourceStatus;
  /** The page shown (the last one asked for). */
  page: number;
  perPage: number;
  /** Loaded pages by number. */
  pages: Record<number, Repository[]>;
  /** `meta.total_count` of the last answer; null when the API does not know it, undefined before any. */
  totalCount: number | null | undefined;
  error: AgentApiError | undefined;
}

/** Where linking or pushing stands. */
export type RepositoryActionStatus = 'idle' | 'running' | 'succeeded' | 'failed';

/** The latest link of a project to a repository. */
export interface RepositoryLinkState {
  status: RepositoryActionStatus;
  repository: { owner: string; name: string } | undefined;
  result: LinkResult | undefined;
  error: AgentApiError | undefined;
}

/** The latest push of a project. `repository` is undefined for a push to the linked repository. */
export interface RepositoryPushState {
  status: RepositoryActionStatus;
  repository: { owner: string; name: string } | undefined;
  result: PushResult | undefined;
  error: AgentApiError | undefined;
}

/** The body of a start, as the library sends it: name and email may be left to the agency's proxy to fill in. */
export interface StartCodehostInput {
  external_user_id: string;
  external_user_name?: string;
  external_user_email?: string;
  return_url: string;
}

/** State and actions of the code-host slice. */
export interface CodehostSlice {
  /** By external user id. */
  codehostStarts: Record<string, CodehostStartState>;
  /** By external user id. */
  repositoryLists: Record<string, RepositoryListState>;
  /** By project id. */
  repositoryLinks: Record<string, RepositoryLinkState>;
  /** By project id. */
  repositoryPushes: Record<string, RepositoryPushState>;
  /** Starts the install flow; an answer whose redirect_url is not http(s) is a failure, never a redirect. */
  startCodehostConnect(input: StartCodehostInput): Promise<IntegrationResult<StartCodehostConnectResult>>;
  /** Loads one page (page >= 1, perPage 1 to 100, out-of-range values clamped); a new perPage drops the cached pages. */
  loadRepositories(
    externalUserId: string,
    query?: { page?: number; perPage?: number },
  ): Promise<IntegrationResult<RepositoryList>>;
  linkRepository(
    projectId: string,
    externalUserId: string,
    repository: { owner: string; name: string },
  ): Promise<IntegrationResult<LinkResult>>;
  /** Pushes to the given repository (created if missing) or, without one, to the linked repository. */
  pushRepository(
    projectId: string,
    externalUserId: string,
    repository?: { owner: string; name: string; private?: boolean },
  ): Promise<IntegrationResult<PushResult>>;
}

/** The API's repository page size bounds and the default the library asks for. */
export const repositoryPaging = { minPerPage: 1, maxPerPage: 100, defaultPerPage: 30 } as const;

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

function emptyList(perPage: number): RepositoryListState {
  return { status: 'idle', page: 1, perPage, pages: {}, totalCount: undefined, error: undefined };
}

/** Creates the code-host slice. */
export function createCodehostSlice(context: SliceContext<CodehostSlice & ResourcesSlice>): CodehostSlice {
  const { client, get, set } = context;
  const run = createSliceRunner(context.signal);

  function patchStart(externalUserId: string, patch: Partial<CodehostStartState>): void {
    const idle = { status: 'idle', redirectUrl: undefined, state: undefined, error: undefined } as const;
    const previous = get().codehostStarts[externalUserId] ?? idle;
    set({ codehostStarts: { ...get().codehostStarts, [externalUserId]: { ...previous, ...patch } } });
  }

  function patchList(externalUserId: string, patch: Partial<RepositoryListState>): void {
    const previous = get().repositoryLists[externalUserId] ?? emptyList(repositoryPaging.defaultPerPage);
    set({ repositoryLists: { ...get().repositoryLists, [externalUserId]: { ...previous, ...patch } } });
  }

  const idleAction = { status: 'idle', repository: undefined, result: undefined, error: undefined } as const;

  function patchLink(projectId: string, patch: Partial<RepositoryLinkState>): void {
    const previous = get().repositoryLinks[projectId] ?? idleAction;
    set({ repositoryLinks: { ...get().repositoryLinks, [projectId]: { ...previous, ...patch } } });
  }

  function patchPush(projectId: string, patch: Partial<RepositoryPushState>): void {
    const previous = get().repositoryPushes[projectId] ?? idleAction;
    set({ repositoryPushes: { ...get().repositoryPushes, [projectId]: { ...previous, ...patch } } });
  }

  // A "connection not found" from any code-host call is news about the connection itself.
  function noteMissing(externalUserId: string, error: AgentApiError): void {
    const spec = resourceSpecs.codehostConnection(externalUserId);
    if (error.code === 'connection_not_found' && selectResource(get(), spec).data !== null)
      get().putResource(spec, null);
  }

  return {
    codehostStarts: {},
    repositoryLists: {},
    repositoryLinks: {},
    repositoryPushes: {},

    startCodehostConnect(input) {
      const externalUserId = input.external_user_id;
      const record = `start:${externalUserId}`;
      context.log('action', `Start the code-host install flow for ${externalUserId}`);
      return run({
        key: record,
        record,
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
        start: () =>
          patchStart(externalUserId, {
            status: 'starting',
            redirectUrl: undefined,
            state: undefined,
            error: undefined,
          }),
        succeed: (result) =>
          patchStart(externalUserId, { status: 'started', redirectUrl: result.redirect_url, state: result.state }),
        fail: (error) => {
          context.log('error', `Starting the code-host install flow failed (${error.message})`);
          patchStart(externalUserId, { status: 'failed', error });
        },
      });
    },

    loadRepositories(externalUserId, query = {}) {
      const page = clampPage(query.page);
      const current = get().repositoryLists[externalUserId];
      const perPage = clampPerPage(query.perPage ?? current?.perPage);
      const record = `repositories:${externalUserId}:${perPage}:${page}`;
      return run({
        key: `load:${record}`,
        record,
        call: (signal) => client.codehost.listRepositories(externalUserId, { page, per_page: perPage }, { signal }),
        start: () => {
          const list = get().repositoryLists[externalUserId];
          const fresh = list === undefined || list.perPage !== perPage;
          patchList(externalUserId, {
            ...(fresh ? emptyList(perPage) : {}),
            status: 'loading',
            page,
            error: undefined,
          });
        },
        succeed: (data) => {
          const list = get().repositoryLists[externalUserId];
          // A page of an abandoned page size is not worth keeping.
          if (list !== undefined && list.perPage !== perPage) return;
          const items = Array.isArray(data?.items) ? data.items : [];
          const totalCount = data?.meta?.total_count;
          patchList(externalUserId, {
            pages: { ...list?.pages, [page]: items },
            totalCount: typeof totalCount === 'number' ? totalCount : null,
            ...(list === undefined || list.page === page ? { status: 'success' as const, error: undefined } : {}),
          });
        },
        fail: (error) => {
          const list = get().repositoryLists[externalUserId];
          // The loaded pages stay: a failing next page is retried inline, never a reason to lose what is shown.
          if (list === undefined || (list.page === page && list.perPage === perPage))
            patchList(externalUserId, { status: 'error', error });
          noteMissing(externalUserId, error);
        },
      });
    },

    linkRepository(projectId, externalUserId, repository) {
      const record = `link:${projectId}`;
      context.log('action', `Link ${projectId} to ${repository.owner}/${repository.name}`);
      return run({
        key: `${record}:${repository.owner}/${repository.name}`,
        record,
        call: (signal) =>
          client.codehost.link(
            projectId,
            { external_user_id: externalUserId, repo_owner: repository.owner, repo_name: repository.name },
            { signal },
          ),
        start: () => patchLink(projectId, { status: 'running', repository, error: undefined }),
        succeed: (result) => patchLink(projectId, { status: 'succeeded', result }),
        fail: (error) => {
          patchLink(projectId, { status: 'failed', error });
          noteMissing(externalUserId, error);
        },
      });
    },

    pushRepository(projectId, externalUserId, repository) {
      const record = `push:${projectId}`;
      context.log(
        'action',
        repository === undefined
          ? `Push ${projectId} to its linked repository`
          : `Push ${projectId} to ${repository.owner}/${repository.name}`,
      );
      const body: PushInput = { external_user_id: externalUserId };
      if (repository !== undefined) {
        body.repo_owner = repository.owner;
        body.repo_name = repository.name;
        if (repository.private !== undefined) body.private = repository.private;
      }
      return run({
        key: record,
        record,
        call: (signal) => client.codehost.push(projectId, body, { signal }),
        start: () =>
          patchPush(projectId, {
            status: 'running',
            repository: repository === undefined ? undefined : { owner: repository.owner, name: repository.name },
            error: undefined,
          }),
        succeed: (result) => {
          patchPush(projectId, { status: 'succeeded', result });
          // A created repository changes every cached page of the listing: start it over.
          if (result.repo_created === true && get().repositoryLists[externalUserId] !== undefined) {
            patchList(externalUserId, {
              ...emptyList(get().repositoryLists[externalUserId]?.perPage ?? repositoryPaging.defaultPerPage),
            });
          }
        },
        fail: (error) => {
          patchPush(projectId, { status: 'failed', error });
          noteMissing(externalUserId, error);
        },
      });
    },
  };
}
