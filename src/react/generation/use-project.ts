'use client';
/** A project's polled status, shared with every other watcher of the same project. */
import { useEffect } from 'react';
import { useStore } from 'zustand';
import type { ProjectSnapshot } from '../../core/index.js';
import { useAgentContext } from '../provider/agent-context.js';
import type { UseLoadOptions } from '../shared/use-auto-load.js';

/**
 * The project's status, watched while mounted: a status changes on the server, so instead of one load it is
 * polled by the one shared poller of the project (paused while the tab is hidden, stopped once settled).
 * `enabled: false` only reads what other watchers polled; an undefined id watches nothing.
 */
export function useProject(projectId: string | undefined, options: UseLoadOptions = {}): ProjectSnapshot | undefined {
  const { store } = useAgentContext();
  const enabled = options.enabled ?? true;
  useEffect(
    () => (projectId === undefined || !enabled ? undefined : store.getState().watchProject(projectId)),
    [store, projectId, enabled],
  );
  return useStore(store, (state) => (projectId === undefined ? undefined : state.projects[projectId]));
}
