'use client';
/** The signed-in end user's repositories, page by page. */
import { useMemo } from 'react';
import { useStore } from 'zustand';
import {
  clampPerPage,
  type IntegrationResult,
  type Repository,
  type RepositoryList,
  type RepositoryListState,
} from '../../core/index.js';
import { useAgentContext } from '../provider/agent-context.js';
import { unavailableResult } from '../shared/unavailable-result.js';
import { useAutoLoad, type Holding, type UseLoadOptions } from '../shared/use-auto-load.js';

/** Options of `useRepositories`. */
export interface UseRepositoriesOptions extends UseLoadOptions {
  /** Repositories per page, clamped to 1–100 (default 30). */
  perPage?: number;
}

/** What `useRepositories` returns. */
export interface UseRepositoriesResult {
  list: RepositoryListState | undefined;
  perPage: number;
  /** Pages, when `total_count` is known; undefined when it is null. */
  pageCount: number | undefined;
  /** Every loaded repository, in page order, without duplicates. */
  loaded: Repository[];
  /** Whether another page may exist when `total_count` is null (the last loaded page was full). */
  canLoadMore: boolean;
  goToPage(page: number): Promise<IntegrationResult<RepositoryList>>;
  /** Loads the page after the last loaded one (for a null `total_count`). */
  loadMore(): Promise<IntegrationResult<RepositoryList>>;
  /** Loads the current page again. */
  refresh(): Promise<IntegrationResult<RepositoryList>>;
}

function loadedPages(list: RepositoryListState | undefined): number[] {
  return list === undefined
    ? []
    : Object.keys(list.pages)
        .map(Number)
        .sort((a, b) => a - b);
}

function holdingOf(list: RepositoryListState | undefined, perPage: number): Holding {
  // A list of another page size, or one the store started over (a push created a repository), is not held.
  if (list === undefined || list.perPage !== perPage) return 'absent';
  if (list.status === 'idle' && Object.keys(list.pages).length === 0) return 'absent';
  return list.status === 'error' ? 'failed' : 'held';
}

/**
 * The signed-in end user's repositories, page by page; the first page is loaded by the hooks' load policy
 * (again after the store started the listing over). `perPage` is clamped to 1–100.
 */
export function useRepositories(options: UseRepositoriesOptions = {}): UseRepositoriesResult {
  const { store, externalUser } = useAgentContext();
  const userId = externalUser?.id;
  const perPage = clampPerPage(options.perPage);
  const list = useStore(store, (state) => (userId === undefined ? undefined : state.repositoryLists[userId]));

  const loaded = useMemo(() => {
    const seen = new Set<string>();
    const items: Repository[] = [];
    for (const page of loadedPages(list)) {
      for (const repository of list?.pages[page] ?? []) {
        if (seen.has(repository.id)) continue;
        seen.add(repository.id);
        items.push(repository);
      }
    }
    return items;
  }, [list]);

  const pages = loadedPages(list);
  const lastPage = pages.at(-1);
  const lastItems = lastPage === undefined ? undefined : list?.pages[lastPage];
  const canLoadMore = list?.totalCount === null && lastItems !== undefined && lastItems.length >= perPage;
  const pageCount =
    typeof list?.totalCount === 'number' ? Math.max(1, Math.ceil(list.totalCount / perPage)) : undefined;

  const actions = useMemo(() => {
    const load = (page: number) =>
      userId === undefined
        ? unavailableResult<RepositoryList>('signedOut')
        : store.getState().loadRepositories(userId, { page, perPage });
    return {
      goToPage: load,
      loadMore: () =>
        load(
          (loadedPages(userId === undefined ? undefined : store.getState().repositoryLists[userId]).at(-1) ?? 0) + 1,
        ),
      refresh: () => load(userId === undefined ? 1 : (store.getState().repositoryLists[userId]?.page ?? 1)),
    };
  }, [store, userId, perPage]);
  const holding = holdingOf(list, perPage);
  useAutoLoad(userId === undefined ? undefined : `${userId}:${perPage}`, holding, options.enabled ?? true, () =>
    holding === 'failed' ? actions.refresh() : actions.goToPage(1),
  );

  return { list, perPage, pageCount, loaded, canLoadMore, ...actions };
}
