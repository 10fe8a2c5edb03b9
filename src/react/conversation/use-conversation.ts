'use client';
/** A project's conversation: the prompts sent and their outcomes. */
import { useEffect } from 'react';
import { useStore } from 'zustand';
import type { ConversationEntry } from '../../core/index.js';
import { useAgentContext } from '../provider/agent-context.js';
import type { UseLoadOptions } from '../shared/use-auto-load.js';

const none: readonly ConversationEntry[] = [];

/**
 * The turns of `projectId` (or of the provider's current generation), oldest first. The proxy's record is
 * loaded by the hooks' load policy: once per project for the whole provider, when the proxy offers it (the
 * store records every turn sent from this browser itself).
 */
export function useConversation(projectId?: string, options: UseLoadOptions = {}): readonly ConversationEntry[] {
  const enabled = options.enabled ?? true;
  const { store } = useAgentContext();
  const owner = useStore(store, (state) => {
    if (projectId !== undefined) return projectId;
    const key = state.currentKey;
    return key === undefined ? undefined : (state.generations[key]?.projectId ?? key);
  });
  const isProject = owner !== undefined && !owner.startsWith('pending:');
  useEffect(() => {
    // The store asks once per project, however many hooks mount: a held record is never fetched again.
    if (enabled && isProject && owner !== undefined) void store.getState().loadConversation(owner);
  }, [store, owner, isProject, enabled]);
  return useStore(store, (state) => (owner === undefined ? none : (state.conversations[owner] ?? none)));
}
