'use client';
/** One hook shape for server actions: a mutation of the store, read (the hooks that own it run it). */
import { useStore } from 'zustand';
import { selectMutation, type Mutation, type MutationKey } from '../../core/index.js';
import { useAgentContext } from '../provider/agent-context.js';

/** The mutation of `key` (idle without a key or before its first run). */
export function useMutation<Data, Variables>(key: MutationKey<Data, Variables> | undefined): Mutation<Data, Variables> {
  const { store } = useAgentContext();
  return useStore(store, (state) => selectMutation(state, key));
}
