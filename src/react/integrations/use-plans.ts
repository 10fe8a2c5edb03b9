'use client';
/** The subscription plans, in display order. */
import { useEffect } from 'react';
import { useStore } from 'zustand';
import type { IntegrationResult, PlansState, SubscriptionPlan } from '../../core/index.js';
import { useAgentContext } from '../provider/agent-context.js';

/** What `usePlans` returns. */
export interface UsePlansResult extends PlansState {
  reload(): Promise<IntegrationResult<SubscriptionPlan[]>>;
}

/** Loads the plans on mount unless they are loaded already. */
export function usePlans(): UsePlansResult {
  const { store } = useAgentContext();
  const plans = useStore(store, (state) => state.plans);
  const needsLoad = plans.status === 'idle';
  useEffect(() => {
    if (needsLoad) void store.getState().loadPlans();
  }, [store, needsLoad]);
  return { ...plans, reload: () => store.getState().loadPlans() };
}
