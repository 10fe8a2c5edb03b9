'use client';
/** The signed-in end user's repositories, page by page. */
import { useEffect, useMemo } from 'react';
import { useStore } from 'zustand';
import {
  clampPerPage,
  type IntegrationResult,
  type Repository,
  type RepositoryList,
  type RepositoryListState,
} from '../../core/index.js';
import { useAgentContext } from '../provider/agent-context.js';

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
  goToPage(page: number): Promise<IntegrationResult<RepositoryList>> | undefined;
  /** Loads the page after the last loaded one (for a null `total_count`). */
  loadMore(): Promise<IntegrationResult<RepositoryList>> | undefined;
  reload(): Promise<IntegrationResult<RepositoryList>> | undefined;
}

function loadedPages(list: RepositoryListState | undefined): number[] {
  return list === undefined
    ? []
    : Object.keys(list.pages)
        .map(Number)
        .sort((a, b) => a - b);
}

/** Loads the first page on mount (and again after the cache was dropped); `perPage` is clamped to 1–100. */
export function useRepositories(options: { perPage?: number; enabled?: boolean } = {}): UseRepositoriesResult {
  const { store, externalUser } = useAgentContext();
  const userId = externalUser?.id;
  const perPage = clampPerPage(options.perPage);
  const enabled = options.enabled ?? true;
  const list = useStore(store, (state) => (userId === undefined ? undefined : state.repositoryLists[userId]));
  const needsLoad =
    userId !== undefined &&
    enabled &&
    (list === undefined ||
      list.perPage !== perPage ||
      (list.status === 'idle' && Object.keys(list.pages).length === 0));

  useEffect(() => {
    if (needsLoad && userId !== undefined) void store.getState().loadRepositories(userId, { page: 1, perPage });
  }, [store, userId, perPage, needsLoad]);

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
      userId === undefined ? undefined : store.getState().loadRepositories(userId, { page, perPage });
    return {
      goToPage: load,
      loadMore: () =>
        load(
          (loadedPages(userId === undefined ? undefined : store.getState().repositoryLists[userId]).at(-1) ?? 0) + 1,
        ),
      reload: () => load(userId === undefined ? 1 : (store.getState().repositoryLists[userId]?.page ?? 1)),
    };
  }, [store, userId, perPage]);

  return { list, perPage, pageCount, loaded, canLoadMore, ...actions };
}
