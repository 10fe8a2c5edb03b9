'use client';
/** The state of one generation and the actions that start or refine one, or stop watching it. */
import { useMemo } from 'react';
import { useStore } from 'zustand';
import type {
  FollowUpInput,
  GenerateInput,
  GenerationActionResult,
  GenerationState,
  GenerationStatus,
} from '../../core/index.js';
import { useAgentContext } from '../provider/agent-context.js';

/** What `useGeneration` returns. */
export interface UseGenerationResult {
  /** The generation of that project, or the provider's current one; undefined before any. */
  generation: GenerationState | undefined;
  status: GenerationStatus;
  /**
   * Starts a new project (de-duplicated while one runs). Never rejects: a refusal resolves with outcome
   * `failed` (or `credits_exhausted`) and the error. Call it from an event handler, never an effect.
   */
  generate(input: GenerateInput): Promise<GenerationActionResult>;
  /** Sends a follow-up (de-duplicated per project); never rejects, like `generate`. Call it from an event handler. */
  followUp(projectId: string, input: FollowUpInput): Promise<GenerationActionResult>;
  /** Stops watching this generation's stream or recovery; its project is polled until the build ends. */
  stopWatching(): void;
  /** Forgets this generation. */
  reset(): void;
}

/** Subscribes to the generation of `projectId`, or to the provider's current generation. */
export function useGeneration(projectId?: string): UseGenerationResult {
  const { store } = useAgentContext();
  const generation = useStore(store, (state) => {
    const key = projectId ?? state.currentKey;
    return key === undefined ? undefined : state.generations[key];
  });
  const actions = useMemo(
    () => ({
      generate: (input: GenerateInput) => store.getState().generate(input),
      followUp: (id: string, input: FollowUpInput) => store.getState().followUp(id, input),
      stopWatching: () => store.getState().stopWatching(projectId ?? store.getState().currentKey),
      reset: () => store.getState().reset(projectId ?? store.getState().currentKey),
    }),
    [store, projectId],
  );
  return { generation, status: generation?.status ?? 'idle', ...actions };
}
