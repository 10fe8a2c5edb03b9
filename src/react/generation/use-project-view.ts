'use client';
/** The one view of a project that every component reads, so no two parts of the screen disagree. */
import { useEffect, useMemo } from 'react';
import { useStore } from 'zustand';
import { selectProjectView, type ProjectView } from '../../core/index.js';
import { useAgentContext } from '../provider/agent-context.js';

/** Options of `useProjectView`. */
export interface UseProjectViewOptions {
  /**
   * Also poll the project's status while mounted (the shared poller): `true`, or `'alone'` only when this
   * store has no generation of the project (a component given a project id on its own). Default: read only.
   */
  watch?: boolean | 'alone';
}

/**
 * The view of `projectId`'s latest generation merged with its status poll (or of the provider's current
 * generation).
 */
export function useProjectView(projectId?: string, options: UseProjectViewOptions = {}): ProjectView {
  const option = options.watch ?? false;
  const { store } = useAgentContext();
  const key = useStore(store, (state) => projectId ?? state.currentKey);
  const generation = useStore(store, (state) => (key === undefined ? undefined : state.generations[key]));
  const watchedId = generation?.projectId ?? (generation === undefined ? key : undefined);
  const watch = option === true || (option === 'alone' && generation === undefined);
  const snapshot = useStore(store, (state) => (watchedId === undefined ? undefined : state.projects[watchedId]));
  useEffect(
    () => (!watch || watchedId === undefined ? undefined : store.getState().watchProject(watchedId)),
    [store, watchedId, watch],
  );
  return useMemo(
    () =>
      selectProjectView(
        {
          generations: key !== undefined && generation !== undefined ? { [key]: generation } : {},
          currentKey: key,
          projects: watchedId !== undefined && snapshot !== undefined ? { [watchedId]: snapshot } : {},
        },
        key,
      ),
    [key, generation, watchedId, snapshot],
  );
}
