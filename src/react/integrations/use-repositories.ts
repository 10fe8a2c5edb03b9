'use client';
/** The signed-in end user's repositories, page by page: one `repositories` resource per page. */
import { useMemo, useState } from 'react';
import { useStore } from 'zustand';
import {
  clampPage,
  clampPerPage,
  idleResource,
  resourceSpecs,
  selectRepositoryPages,
  selectResource,
  type IntegrationResult,
  type RepositoryList,
  type RepositoryPages,
  type Resource,
} from '../../core/index.js';
import { useAgentContext } from '../provider/agent-context.js';
import { unavailableResult } from '../shared/unavailable-result.js';
import { useAutoLoad, type UseLoadOptions } from '../shared/use-auto-load.js';

/** Options of `useRepositories`. */
export interface UseRepositoriesOptions extends UseLoadOptions {
  /** Repositories per page, clamped to 1–100 (default 30). */
  perPage?: number;
}

/**
 * What `useRepositories` returns: the page shown's `status`, `error` and `updatedAt` (a failing next page is an
 * error while `data` keeps the pages loaded), `data` every page of this size the store holds, and the actions.
 */
export interface UseRepositoriesResult extends Resource<RepositoryPages> {
  /** The page shown: the last one asked for (1 until another is). */
  page: number;
  perPage: number;
  /** Pages, when `total_count` is known; undefined when it is null. */
  pageCount: number | undefined;
  /** Whether another page may exist when `total_count` is null (the last loaded page was full). */
  canLoadMore: boolean;
  goToPage(page: number): Promise<IntegrationResult<RepositoryList>>;
  /** Loads the page after the last loaded one (for a null `total_count`). */
  loadMore(): Promise<IntegrationResult<RepositoryList>>;
  /** Loads the page shown again: also the retry of a page that failed, which keeps the others. */
  refresh(): Promise<IntegrationResult<RepositoryList>>;
}

/**
 * The signed-in end user's repositories, page by page; the page shown is loaded by the hooks' load policy, and
 * the pages held are loaded again after a push created a repository. `perPage` is clamped to 1–100.
 */
export function useRepositories(options: UseRepositoriesOptions = {}): UseRepositoriesResult {
  const { store, externalUser } = useAgentContext();
  const userId = externalUser?.id;
  const perPage = clampPerPage(options.perPage);
  const listKey = userId === undefined ? undefined : `${userId}:${perPage}`;
  // The page shown is this hook's; a new end user or page size starts at page 1.
  const [asked, setAsked] = useState({ listKey, page: 1 });
  const page = asked.listKey === listKey ? asked.page : 1;
  const resources = useStore(store, (state) => state.resources);
  const data = useMemo(
    () => (userId === undefined ? undefined : selectRepositoryPages({ resources }, userId, perPage)),
    [resources, userId, perPage],
  );
  const shown =
    userId === undefined
      ? idleResource
      : selectResource({ resources }, resourceSpecs.repositories(userId, { page, perPage }));

  const actions = useMemo(() => {
    const load = (target: number) => {
      if (userId === undefined) return unavailableResult<RepositoryList>('signedOut');
      const next = clampPage(target);
      setAsked((previous) =>
        previous.listKey === listKey && previous.page === next ? previous : { listKey, page: next },
      );
      return store.getState().loadRepositories(userId, { page: next, perPage });
    };
    return {
      goToPage: load,
      loadMore: () => {
        const held = userId === undefined ? undefined : selectRepositoryPages(store.getState(), userId, perPage);
        return load(Math.max(0, ...Object.keys(held?.pages ?? {}).map(Number)) + 1);
      },
      refresh: () => load(page),
    };
  }, [store, userId, perPage, listKey, page]);

  const { status } = shown;
  useAutoLoad(
    listKey,
    status === 'idle' ? 'absent' : status === 'error' ? 'failed' : 'held',
    options.enabled ?? true,
    actions.refresh,
  );

  const lastItems = Object.values(data?.pages ?? {}).at(-1);
  const canLoadMore = data?.totalCount === null && lastItems !== undefined && lastItems.length >= perPage;
  const pageCount =
    typeof data?.totalCount === 'number' ? Math.max(1, Math.ceil(data.totalCount / perPage)) : undefined;
  return { ...shown, data, page, perPage, pageCount, canLoadMore, ...actions };
}
