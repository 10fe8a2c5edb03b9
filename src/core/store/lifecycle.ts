/**
 * Typed milestones of what the end user does, for the agency's analytics: read off the store's state as it
 * changes (never a second interpretation of the events), with timings, no tokens and no prompt text unless
 * the agency opts in.
 */
import { generationOutcome } from '../wire/generation-machine.js';
import type { GenerationOutcome } from '../wire/generation-transitions.js';
import type { CodehostConnection, Deployment, GenerationMode, PushResult } from '../wire/resources.js';
import type { AgentState } from './agent-store.js';
import { codehostConnectionStatus } from './codehost-slice.js';
import type { Mutation } from './mutations.js';
import type { Resource } from './resources.js';
import type { GenerationState } from './generation.js';

/** A generation's identity across its key change (`pending:N` becomes the project id). */
interface GenerationFacts {
  kind: GenerationState['kind'];
  mode: GenerationMode;
  projectId: string | undefined;
  /** Only with `includePrompt`. */
  prompt?: string;
}

/**
 * One milestone of the end user's journey. `at` is the store's clock (ms since the epoch). `generation_started` is the
 * person's request leaving; one refused before it started (a 422, a 429, no credits) ends at once, `refused`, with
 * no `first_event`. A generation whose outcome changes tells its `generation_ended` again with the new one: one that
 * ended and then runs again (a change whose answer was lost, found building; an interrupted build looked for again),
 * or one the person stopped watching (`aborted`) that a status poll then finds ready or failed.
 */
export type AgentLifecycleEvent =
  | ({ type: 'generation_started'; at: number } & GenerationFacts)
  | ({ type: 'first_event'; at: number; msSinceStart: number } & GenerationFacts)
  | ({
      type: 'generation_ended';
      at: number;
      outcome: GenerationOutcome;
      /** Refused before it started: nothing was built (and the agency's proxy gave the quota back). */
      refused: boolean;
      durationMs: number;
      filesCreated: number;
      steps: number;
    } & GenerationFacts)
  | { type: 'deployed'; at: number; provider: string; projectId: string; url: string | null }
  | { type: 'pushed'; at: number; projectId: string; repoCreated: boolean }
  | { type: 'codehost_connected'; at: number }
  | { type: 'deployment_connected'; at: number; provider: string };

/** Options of `observeLifecycle`. */
export interface LifecycleOptions {
  /** Put the prompt text in generation milestones (default false: prompts are the end user's words). */
  includePrompt?: boolean;
  now?: () => number;
}

type Facts = { provider: string; projectId: string };

const identityOf = (generation: GenerationState) => `${generation.kind}|${generation.startedAt}`;

/**
 * Calls `onEvent` for each milestone as the state moves on; returns the unsubscribe. Generations already in the store
 * when it subscribes (resumed after a reload, or watched by an earlier observer of the same store) are followed from
 * where they are: their start is not told again, their end is told once.
 */
export function observeLifecycle(
  store: { getState(): AgentState; subscribe(listener: (state: AgentState, previous: AgentState) => void): () => void },
  onEvent: (event: AgentLifecycleEvent) => void,
  options: LifecycleOptions = {},
): () => void {
  const now = options.now ?? Date.now;
  // Generations of this store, by identity, and the milestones already told for each (the outcome last told).
  const seen = new Map<string, { firstEvent: boolean; outcome: GenerationOutcome | undefined }>();
  for (const generation of Object.values(store.getState().generations))
    seen.set(identityOf(generation), {
      firstEvent: generation.eventCount > 0,
      outcome: generationOutcome(generation),
    });
  const facts = (generation: GenerationState): GenerationFacts => ({
    kind: generation.kind,
    mode: generation.mode,
    projectId: generation.projectId,
    ...(options.includePrompt === true ? { prompt: generation.prompt } : {}),
  });
  const emit = (event: AgentLifecycleEvent) => {
    try {
      onEvent(event);
    } catch {
      // An analytics callback must never break the builder.
    }
  };
  const onGenerations = (generations: AgentState['generations']) => {
    for (const generation of Object.values(generations)) {
      const id = identityOf(generation);
      let told = seen.get(id);
      if (told === undefined) {
        // Only generations that start here: an opened project or another tab's build is not this user's action.
        if (generation.status !== 'submitting') continue;
        told = { firstEvent: false, outcome: undefined };
        seen.set(id, told);
        emit({ type: 'generation_started', at: generation.startedAt, ...facts(generation) });
      }
      if (!told.firstEvent && generation.eventCount > 0) {
        told.firstEvent = true;
        // When it arrived, not when this observer saw it published (a frame or more later, maybe after the end).
        const at = generation.firstEventAt ?? now();
        emit({ type: 'first_event', at, msSinceStart: at - generation.startedAt, ...facts(generation) });
      }
      const outcome = generationOutcome(generation);
      // Running again (a change lost on the network found building, an interrupted build looked for again), or ended
      // another way (stopped watching, then found ready): its new end is told too.
      if (outcome !== told.outcome) {
        told.outcome = outcome;
        if (outcome === undefined) continue;
        const at = generation.endedAt ?? now();
        const ended = { type: 'generation_ended', at, outcome, durationMs: at - generation.startedAt } as const;
        emit({
          ...ended,
          refused: generation.refused,
          filesCreated: generation.fileCount - generation.modifiedCount,
          steps: generation.toolCount,
          ...facts(generation),
        });
      }
    }
  };
  return store.subscribe((state, previous) => {
    if (state.generations !== previous.generations) onGenerations(state.generations);
    if (state.resources !== previous.resources)
      for (const [key, resource] of Object.entries(state.resources)) {
        const held = previous.resources[key];
        if (!key.startsWith('codehost-connection:') || held === undefined || held === resource) continue;
        const before = codehostConnectionStatus(held as Resource<CodehostConnection | null>);
        // Connected while the page is open (the popup flow, or a check after the install): not a page load.
        if (
          codehostConnectionStatus(resource as Resource<CodehostConnection | null>) === 'connected' &&
          before !== 'connected' &&
          before !== 'idle' &&
          before !== 'loading'
        )
          emit({ type: 'codehost_connected', at: now() });
      }
    if (state.mutations !== previous.mutations)
      for (const [key, mutation] of Object.entries(state.mutations)) {
        if (mutation.status !== 'success' || previous.mutations[key]?.status !== 'pending') continue;
        const kind = key.slice(0, key.indexOf(':'));
        // A deploy's and a connect's variables name the provider; a push's name the repository, its key the project.
        const { variables, data } = mutation as Mutation<Deployment & PushResult, Facts>;
        const { provider, projectId = key.slice(kind.length + 1) } = variables ?? ({} as Facts);
        if (kind === 'deploy') emit({ type: 'deployed', at: now(), provider, projectId, url: data?.url ?? null });
        if (kind === 'repository-push')
          emit({ type: 'pushed', at: now(), projectId, repoCreated: data?.repo_created === true });
        if (kind === 'deployment-connect') emit({ type: 'deployment_connected', at: now(), provider });
      }
  });
}
