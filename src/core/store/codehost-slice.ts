/**
 * The code-host slice of the store: the repository pages. The end user's connection is the `codehostConnection`
 * resource and each repository page a `repositories` resource (docs/architecture.md, "Server data: resources");
 * what they say is derived here. Starting the install, linking and pushing are mutations (`mutations.ts`).
 */
import type { AgentApiError } from '../wire/errors.js';
import type { CodehostConnection, Repository, RepositoryList } from '../wire/resources.js';
import {
  clampPerPage,
  repositoryKeyPrefix,
  resourceSpecs,
  selectResource,
  type Resource,
  type ResourcesSlice,
} from './resources.js';
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

/** The code-host slice's action: the repository pages are resources; starting, linking and pushing are mutations. */
export interface CodehostSlice {
  /**
   * Loads one page, the `repositories` resource (page >= 1, perPage 1 to 100, out-of-range values clamped); a load
   * of the page already running is joined. A "connection not found" makes the connection `null`.
   */
  loadRepositories(
    externalUserId: string,
    query?: { page?: number; perPage?: number },
  ): Promise<IntegrationResult<RepositoryList>>;
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
  // A status in any casing; none (absent, null, blank) is not news of an inactive installation.
  const installation = typeof connection.installation_status === 'string' ? connection.installation_status.trim() : '';
  if (connection.user_authorized === false || (installation !== '' && installation.toLowerCase() !== 'active'))
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
  // A count below what is listed is wrong by what is listed.
  return { pages, loaded, totalCount: typeof totalCount === 'number' ? Math.max(totalCount, loaded.length) : null };
}

/**
 * A "connection not found" from any code-host call is news about the connection itself: it is `null` now, unless
 * the connection was answered after that call was sent (`sentAt`).
 */
export function noteCodehostMissing(
  state: ResourcesSlice,
  externalUserId: string,
  error: AgentApiError,
  sentAt: number,
): void {
  const spec = resourceSpecs.codehostConnection(externalUserId);
  if (error.code === 'connection_not_found' && selectResource(state, spec).data !== null)
    state.putResource(spec, null, sentAt);
}

/** Creates the code-host slice. */
export function createCodehostSlice(context: SliceContext<ResourcesSlice>): CodehostSlice {
  return {
    async loadRepositories(externalUserId, query) {
      const sentAt = context.now();
      const result = await context.get().fetchResource(resourceSpecs.repositories(externalUserId, query));
      if (!result.ok) noteCodehostMissing(context.get(), externalUserId, result.error, sentAt);
      return result;
    },
  };
}
