'use client';
/** The provider's locale-aware formatters, as a hook. */
import { useAgentContext } from './agent-context.js';
import type { AgentFormat } from './agent-format.js';

/** The provider's formatters. */
export function useAgentFormat(): AgentFormat {
  return useAgentContext().format;
}
