/** The plans slice of the store: the subscription plans, in display order. */
import type { AgentApiError } from '../wire/errors.js';
import type { SubscriptionPlan } from '../wire/resources.js';
import type { ListStatus } from './slice-context.js';
import { createSliceRunner, type IntegrationResult, type SliceContext } from './slice-context.js';

/** The subscription plans. */
export interface PlansState {
  status: ListStatus;
  plans: SubscriptionPlan[];
  error: AgentApiError | undefined;
}

/** State and actions of the plans slice. */
export interface PlansSlice {
  plans: PlansState;
  /** Loads the plans (one request however many callers). */
  loadPlans(): Promise<IntegrationResult<SubscriptionPlan[]>>;
}

/**
 * The plans in display order. The API sends them ordered; a stable sort on `sort_order` (when every plan
 * has one) only guards against a layer in between that reorders them.
 */
export function plansInDisplayOrder(plans: readonly SubscriptionPlan[]): SubscriptionPlan[] {
  if (!plans.every((plan) => typeof plan.sort_order === 'number')) return [...plans];
  return plans
    .map((plan, index) => ({ plan, index }))
    .sort((a, b) => (a.plan.sort_order as number) - (b.plan.sort_order as number) || a.index - b.index)
    .map(({ plan }) => plan);
}

/** Creates the plans slice. */
export function createPlansSlice(context: SliceContext<PlansSlice>): PlansSlice {
  const { client, get, set } = context;
  const run = createSliceRunner(context.signal);
  const patch = (next: Partial<PlansState>) => set({ plans: { ...get().plans, ...next } });
  return {
    plans: { status: 'idle', plans: [], error: undefined },
    loadPlans: () =>
      run({
        key: 'load:plans',
        record: 'plans',
        call: (signal) => client.plans.list({ signal }),
        start: () => patch({ status: 'loading' }),
        succeed: (plans) => patch({ status: 'loaded', plans: plansInDisplayOrder(plans), error: undefined }),
        fail: (error) => patch({ status: 'error', error }),
      }),
  };
}
