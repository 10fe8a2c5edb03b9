'use client';
/** The signed-in end user's projects from the agency proxy, and opening one. */
import { useEffect, useMemo } from 'react';
import { useStore } from 'zustand';
import type { IntegrationResult, ProjectListState, ProjectSummary } from '../../core/index.js';
import { useAgentContext } from '../provider/agent-context.js';
import { useAutoLoad, type UseLoadOptions } from '../shared/use-auto-load.js';

/** What `useProjects` returns. */
export interface UseProjectsResult extends ProjectListState {
  /** The project the provider shows now, if any. */
  currentProjectId: string | undefined;
  /** Loads (or reloads) the list; one request however many callers. */
  load(): Promise<IntegrationResult<ProjectSummary[]>>;
  /** Makes a project the current one: its status, preview and conversation, ready for a follow-up. */
  open(projectId: string): Promise<IntegrationResult<{ projectId: string }>>;
}

/** The end user's projects (`status` is `unavailable` without the proxy's route), loaded by the hooks' load policy. */
export function useProjects(options: UseLoadOptions = {}): UseProjectsResult {
  const { store } = useAgentContext();
  const list = useStore(store, (state) => state.projectList);
  const currentProjectId = useStore(store, (state) => {
    const key = state.currentKey;
    return key === undefined ? undefined : (state.generations[key]?.projectId ?? undefined);
  });
  const actions = useMemo(
    () => ({
      load: () => store.getState().loadProjects(),
      open: (projectId: string) => store.getState().openProject(projectId),
    }),
    [store],
  );
  const holding = list.status === 'idle' ? 'absent' : list.status === 'error' ? 'failed' : 'held';
  useAutoLoad('projects', holding, options.enabled ?? true, actions.load);
  return { ...list, currentProjectId, ...actions };
}

/**
 * The projects asked again each time the caller mounts, not only when the store holds none: every build
 * since the last answer changes them (the Projects sheet, the empty builder's recent projects).
 */
export function useFreshProjects(): UseProjectsResult {
  const projects = useProjects({ enabled: false });
  const { load } = projects;
  useEffect(() => {
    void load();
  }, [load]);
  return projects;
}
