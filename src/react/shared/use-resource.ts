'use client';
/** One hook shape for server data: a resource of the store, loaded by the hooks' load policy. */
import { useMemo } from 'react';
import { useStore } from 'zustand';
import { selectResource, type IntegrationResult, type Resource, type ResourceSpec } from '../../core/index.js';
import { useAgentContext } from '../provider/agent-context.js';
import { useAutoLoad, type UseLoadOptions } from './use-auto-load.js';

/** What a data hook returns: the resource and its one verb, `refresh` (also the retry after an error). */
export interface UseResourceResult<T> extends Resource<T> {
  /** Loads it again; joins a load of the same resource already running. */
  refresh(): Promise<IntegrationResult<T>>;
}

/** The resource of `spec`, loaded on mount when the store does not hold it (see `UseLoadOptions`). */
export function useResource<T>(spec: ResourceSpec<T>, options: UseLoadOptions = {}): UseResourceResult<T> {
  const { store } = useAgentContext();
  const resource = useStore(store, (state) => selectResource(state, spec));
  // One key is one fetcher: the spec of a key may be a new object on every render.
  const refresh = useMemo(() => () => store.getState().fetchResource(spec), [store, spec.key]); // eslint-disable-line react-hooks/exhaustive-deps
  const { status } = resource;
  useAutoLoad(
    spec.key,
    status === 'idle' ? 'absent' : status === 'error' ? 'failed' : 'held',
    options.enabled ?? true,
    refresh,
  );
  return { ...resource, refresh };
}
