'use client';
/** A project's conversation: the prompts sent and their outcomes. */
import { useStore } from 'zustand';
import { resourceSpecs, type ConversationEntry } from '../../core/index.js';
import { useAgentContext } from '../provider/agent-context.js';
import type { UseLoadOptions } from '../shared/use-auto-load.js';
import { useResource, type UseResourceResult } from '../shared/use-resource.js';

const none: readonly ConversationEntry[] = [];

/**
 * What `useConversation` returns: `data` is the turns, oldest first (this browser's own at once, merged with
 * the proxy's record once loaded); `status` and `error` are those of loading the proxy's record.
 */
export type UseConversationResult = Omit<UseResourceResult<unknown>, 'data'> & { data: readonly ConversationEntry[] };

/**
 * The turns of `projectId` (or of the provider's current generation). The proxy's record is loaded by the
 * hooks' load policy, once per project for the whole provider, and again by the store after each build;
 * a failed load is retried with `refresh` (a proxy without the route is not a failure).
 */
export function useConversation(projectId?: string, options: UseLoadOptions = {}): UseConversationResult {
  const { store } = useAgentContext();
  const owner = useStore(store, (state) => {
    if (projectId !== undefined) return projectId;
    const key = state.currentKey;
    return key === undefined ? undefined : (state.generations[key]?.projectId ?? key);
  });
  const isProject = owner !== undefined && !owner.startsWith('pending:');
  const record = useResource(resourceSpecs.conversation(isProject ? owner : ''), {
    enabled: isProject && (options.enabled ?? true),
  });
  const data = useStore(store, (state) => (owner === undefined ? none : (state.conversations[owner] ?? none)));
  return { ...record, data };
}
