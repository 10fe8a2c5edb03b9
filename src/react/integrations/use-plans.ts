'use client';
/** The subscription plans, in display order. */
import { useMemo } from 'react';
import { useStore } from 'zustand';
import type { IntegrationResult, PlansState, SubscriptionPlan } from '../../core/index.js';
import { useAgentContext } from '../provider/agent-context.js';
import { useAutoLoad, type UseLoadOptions } from '../shared/use-auto-load.js';

/** What `usePlans` returns. */
export interface UsePlansResult extends PlansState {
  reload(): Promise<IntegrationResult<SubscriptionPlan[]>>;
}

/** The plans, loaded by the hooks' load policy (once for the whole provider: they rarely change). */
export function usePlans(options: UseLoadOptions = {}): UsePlansResult {
  const { store } = useAgentContext();
  const plans = useStore(store, (state) => state.plans);
  const reload = useMemo(() => () => store.getState().loadPlans(), [store]);
  const holding = plans.status === 'idle' ? 'absent' : plans.status === 'error' ? 'failed' : 'held';
  useAutoLoad('plans', holding, options.enabled ?? true, reload);
  return { ...plans, reload };
}
