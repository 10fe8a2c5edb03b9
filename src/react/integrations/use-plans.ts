'use client';
/** The subscription plans, in display order. */
import { resourceSpecs, type SubscriptionPlan } from '../../core/index.js';
import type { UseLoadOptions } from '../shared/use-auto-load.js';
import { useResource, type UseResourceResult } from '../shared/use-resource.js';

/** What `usePlans` returns: `data` is the plans in display order. */
export type UsePlansResult = UseResourceResult<SubscriptionPlan[]>;

/** The plans, loaded by the hooks' load policy (once for the whole provider: they rarely change). */
export function usePlans(options: UseLoadOptions = {}): UsePlansResult {
  return useResource(resourceSpecs.plans, options);
}
