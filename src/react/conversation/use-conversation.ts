'use client';
/** A project's conversation: the prompts sent and their outcomes. */
import { useEffect } from 'react';
import { useStore } from 'zustand';
import type { ConversationEntry } from '../../core/index.js';
import { useAgentContext } from '../provider/agent-context.js';

const none: readonly ConversationEntry[] = [];

/**
 * The turns of `projectId` (or of the provider's current generation), oldest first. Loads the proxy's record
 * once per project when the proxy offers it.
 */
export function useConversation(projectId?: string): readonly ConversationEntry[] {
  const { store } = useAgentContext();
  const owner = useStore(store, (state) => {
    if (projectId !== undefined) return projectId;
    const key = state.currentKey;
    return key === undefined ? undefined : (state.generations[key]?.projectId ?? key);
  });
  const isProject = owner !== undefined && !owner.startsWith('pending:');
  useEffect(() => {
    if (isProject && owner !== undefined) void store.getState().loadConversation(owner);
  }, [store, owner, isProject]);
  return useStore(store, (state) => (owner === undefined ? none : (state.conversations[owner] ?? none)));
}
