'use client';
/** The provider's merged labels. */
import { useAgentContext } from './agent-context.js';
import type { AgentLabels } from './labels.js';

/** Every component text, with the provider's overrides applied. */
export function useAgentLabels(): AgentLabels {
  return useAgentContext().labels;
}
