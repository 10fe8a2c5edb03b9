'use client';
/** Headless access to the provider's store, client and end user. */
import { useStore } from 'zustand';
import type { AgentClient, AgentState, AgentStore } from '../../core/index.js';
import { useAgentContext, type ExternalUser } from './agent-context.js';

/**
 * Selects from the provider's store; re-renders when the selected value changes (by `Object.is`).
 * Return existing values from the selector, not new objects or arrays, or it re-renders on every change.
 */
export function useAgentStore<Selected>(selector: (state: AgentState) => Selected): Selected {
  return useStore(useAgentContext().store, selector);
}

/** The provider's store itself (for `getState()` in event handlers). */
export function useAgentStoreApi(): AgentStore {
  return useAgentContext().store;
}

/** The provider's typed client, for calls the store does not cover. */
export function useAgentClient(): AgentClient {
  return useAgentContext().client;
}

/** The end user given to the provider, if any. */
export function useExternalUser(): ExternalUser | undefined {
  return useAgentContext().externalUser;
}
