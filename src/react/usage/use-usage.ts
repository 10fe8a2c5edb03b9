'use client';
/** The signed-in end user's quota usage, from the agency proxy; refreshed after each generation. */
import { useEffect, useMemo } from 'react';
import { useStore } from 'zustand';
import {
  generationOutcome,
  type IntegrationResult,
  type QuotaDetails,
  type Usage,
  type UsageState,
} from '../../core/index.js';
import { useAgentContext } from '../provider/agent-context.js';
import { useExternalUser } from '../provider/use-agent-store.js';
import { useAutoLoad, type UseLoadOptions } from '../shared/use-auto-load.js';

/** The quota a usage answer describes, or undefined without one (no limit, or not known yet). */
export function quotaOfUsage(usage: Usage | undefined): QuotaDetails | undefined {
  if (usage === undefined || usage.limit === null || usage.resets_at === null || usage.period === null)
    return undefined;
  return { used: usage.used, limit: usage.limit, resetsAt: usage.resets_at, period: usage.period };
}

/** What `useUsage` returns. */
export interface UseUsageResult extends UsageState {
  reload(): Promise<IntegrationResult<Usage>>;
}

/** The end user's usage (`usage.limit` is null without a quota), by the hooks' load policy and after each generation. */
export function useUsage(options: UseLoadOptions = {}): UseUsageResult {
  const { store } = useAgentContext();
  const userId = useExternalUser()?.id;
  const usage = useStore(store, (state) => state.usage);
  const reload = useMemo(() => () => store.getState().loadUsage(), [store]);
  const enabled = options.enabled ?? true;
  const holding = usage.status === 'idle' ? 'absent' : usage.status === 'error' ? 'failed' : 'held';
  useAutoLoad(userId, holding, enabled, reload);
  // Each generation that ends may have counted: the number of ended ones is the cue to ask again.
  const ended = useStore(
    store,
    (state) =>
      Object.values(state.generations).filter((generation) => generationOutcome(generation) !== undefined).length,
  );
  useEffect(() => {
    if (enabled && userId !== undefined && ended > 0) void reload();
  }, [ended, enabled, userId, reload]);
  return { ...usage, reload };
}
