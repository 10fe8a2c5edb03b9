'use client';
/** A project's polled status, shared with every other watcher of the same project. */
import { useEffect } from 'react';
import { useStore } from 'zustand';
import type { ProjectSnapshot } from '../../core/index.js';
import { useAgentContext } from '../provider/agent-context.js';

/** Watches the project's status while mounted (one shared poller per project); undefined id watches nothing. */
export function useProject(projectId: string | undefined): ProjectSnapshot | undefined {
  const { store } = useAgentContext();
  useEffect(() => (projectId === undefined ? undefined : store.getState().watchProject(projectId)), [store, projectId]);
  return useStore(store, (state) => (projectId === undefined ? undefined : state.projects[projectId]));
}
