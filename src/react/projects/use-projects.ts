'use client';
/** The signed-in end user's projects from the agency proxy, and opening one. */
import { useEffect, useMemo } from 'react';
import { useStore } from 'zustand';
import { resourceSpecs, type IntegrationResult, type ProjectSummary } from '../../core/index.js';
import { useAgentContext } from '../provider/agent-context.js';
import type { UseLoadOptions } from '../shared/use-auto-load.js';
import { useResource, type UseResourceResult } from '../shared/use-resource.js';

/** What `useProjects` returns: `data` is the projects, newest first, or null without the proxy's route. */
export interface UseProjectsResult extends UseResourceResult<ProjectSummary[] | null> {
  /** The project the provider shows now, if any. */
  currentProjectId: string | undefined;
  /** Makes a project the current one: its status, preview and conversation, ready for a follow-up. */
  open(projectId: string): Promise<IntegrationResult<{ projectId: string }>>;
}

/** The end user's projects, loaded by the hooks' load policy; the store loads them again after each build. */
export function useProjects(options: UseLoadOptions = {}): UseProjectsResult {
  const { store } = useAgentContext();
  const projects = useResource(resourceSpecs.projects, options);
  const currentProjectId = useStore(store, (state) => {
    const key = state.currentKey;
    return key === undefined ? undefined : (state.generations[key]?.projectId ?? undefined);
  });
  const open = useMemo(() => (projectId: string) => store.getState().openProject(projectId), [store]);
  return { ...projects, currentProjectId, open };
}

/**
 * The projects asked again each time the caller mounts, not only when the store holds none: a build in
 * another tab or device since the last answer changes them (the Projects sheet, the empty builder's list).
 */
export function useFreshProjects(): UseProjectsResult {
  const projects = useProjects({ enabled: false });
  const { refresh } = projects;
  useEffect(() => {
    void refresh();
  }, [refresh]);
  return projects;
}
