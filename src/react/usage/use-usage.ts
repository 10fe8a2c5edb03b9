'use client';
/** The signed-in end user's quota usage, from the agency proxy; the store loads it again after each build. */
import { useStore } from 'zustand';
import { resourceSpecs, selectResource, type QuotaDetails, type Usage } from '../../core/index.js';
import { useAgentContext } from '../provider/agent-context.js';
import { useExternalUser } from '../provider/use-agent-store.js';
import type { UseLoadOptions } from '../shared/use-auto-load.js';
import { useResource, type UseResourceResult } from '../shared/use-resource.js';

/** The quota a usage answer describes, or undefined without one (no limit, or not known yet). */
export function quotaOfUsage(usage: Usage | undefined): QuotaDetails | undefined {
  if (usage === undefined || usage.limit === null || usage.resets_at === null || usage.period === null)
    return undefined;
  return { used: usage.used, limit: usage.limit, resetsAt: usage.resets_at, period: usage.period };
}

/** What `useUsage` returns: `data` is the usage (`limit` null without a quota). */
export type UseUsageResult = UseResourceResult<Usage>;

/** The end user's usage, by the hooks' load policy (only with a signed-in end user); fresh after each build. */
export function useUsage(options: UseLoadOptions = {}): UseUsageResult {
  const signedIn = useExternalUser() !== undefined;
  return useResource(resourceSpecs.usage, { enabled: signedIn && (options.enabled ?? true) });
}

/**
 * The end user's quota once it is used up, as far as the store knows (a UsageMeter or useUsage loaded it), else
 * undefined. Every part that would start a build reads it, so none offers one that the quota refuses.
 */
export function useUsedUpQuota(): QuotaDetails | undefined {
  const { store } = useAgentContext();
  const quota = quotaOfUsage(useStore(store, (state) => selectResource(state, resourceSpecs.usage).data));
  return quota !== undefined && quota.used >= quota.limit ? quota : undefined;
}
