'use client';
/** The provider's context: the store, the client, merged labels, formatters and the signed-in end user. */
import { createContext, useContext } from 'react';
import type { AgentClient, AgentStore } from '../../core/index.js';
import type { AgentLabels } from './labels.js';
import type { AgentFormat } from './agent-format.js';

/** The end user of the agency's product, as the agency knows them. */
export interface ExternalUser {
  id: string;
  name?: string;
  email?: string;
}

/** What `AgentProvider` gives its descendants. */
export interface AgentContextValue {
  store: AgentStore;
  client: AgentClient;
  labels: AgentLabels;
  format: AgentFormat;
  externalUser: ExternalUser | undefined;
  /** Whether alerts show the API's own message in a closed "Details" disclosure (`AgentProvider`'s `errorDetails`). */
  errorDetails: boolean;
}

/** The context itself; use the hooks rather than reading it directly. */
export const AgentContext = createContext<AgentContextValue | null>(null);

/** The provider's value; throws a clear error outside `<AgentProvider>`. */
export function useAgentContext(): AgentContextValue {
  const value = useContext(AgentContext);
  if (value === null) throw new Error('agent-embed: this component or hook must be used inside <AgentProvider>.');
  return value;
}
