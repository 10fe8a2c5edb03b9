/**
 * A generation as one state machine: one union of actions (the stream's events and the lifecycle around
 * them), one table of transitions (`generationTransitions`), one function that applies an action
 * (`applyGenerationAction`), and the selectors everything else reads instead of comparing statuses. The
 * browser's store, the client's fold, the agency proxy's recorder and the mock all run this code, so a
 * count or an outcome means the same thing everywhere. See docs/architecture.md.
 */
import { creditsExhaustedError, generationFailedError, streamInterruptedError, type AgentApiError } from './errors.js';
import type { AgentEvent } from './events.js';
import {
  createGenerationDraft,
  reduceGenerationEvent,
  type GenerationDraft,
  type GenerationKind,
} from './generation-reducer.js';
import {
  isGenerationRunning,
  isGenerationSettled,
  transitionRows,
  type AdoptedStatus,
  type GenerationActionCase,
  type GenerationOutcome,
  type GenerationStatus,
  type PolledStatus,
} from './generation-transitions.js';
import type { ConversationTurnOutcome } from './proxy-resources.js';
import type { KnownProjectStatus } from './resources.js';

/** Everything that can happen to a generation; `at` is the time it happened (the caller's clock). */
export type GenerationAction =
  /** The generate or follow-up POST was sent. */
  | { type: 'started' }
  /** One event of the stream (or of its replay). */
  | { type: 'event'; event: AgentEvent; at: number }
  /** The POST was refused before any event (validation, credits, auth, rate limit, network). */
  | { type: 'refused'; error: AgentApiError; at: number }
  /** The stream closed without a terminal event. */
  | { type: 'dropped'; error: AgentApiError | undefined; at: number }
  /** The person stopped watching the stream (or waiting for the recovery); the build may go on. */
  | { type: 'stop_watching'; error: AgentApiError; at: number }
  /** A status poll answered. */
  | { type: 'poll_result'; project_status: string | null | undefined; app_url?: string | null; at: number }
  /** The recovery cannot learn the outcome (the project is gone, access refused). */
  | { type: 'recovery_failed'; error: AgentApiError; at: number }
  /** Look for the outcome of an interrupted generation again. */
  | { type: 'retry' }
  /** A store took up a generation it did not start, known as `as`. */
  | { type: 'adopted'; as: AdoptedStatus; app_url?: string | undefined; error?: AgentApiError | undefined; at: number };

/** What a poll's `project_status` means for a generation. */
export function polledStatusOf(projectStatus: string | null | undefined): PolledStatus {
  return projectStatus === 'ready' || projectStatus === 'failed' || projectStatus === 'credits_exhausted'
    ? projectStatus
    : 'building';
}

/** How a project the proxy or a poll describes is adopted. */
export function adoptedStatusOf(projectStatus: string | null | undefined): AdoptedStatus {
  if (projectStatus === 'provisioning' || projectStatus === 'generating') return 'building';
  const polled = polledStatusOf(projectStatus);
  return polled === 'building' ? 'unknown' : polled;
}

/** The project status a generation shows (the mock answers its status endpoint with it). */
export function projectStatusOf(generation: Pick<GenerationDraft, 'status' | 'kind'>): KnownProjectStatus | undefined {
  const { status } = generation;
  switch (status) {
    case 'submitting':
    case 'provisioning':
      // A follow-up skips the container: it is generating from its first moment.
      return generation.kind === 'followUp' ? 'generating' : 'provisioning';
    case 'generating':
    case 'recovering':
      return 'generating';
    case 'completed':
      return 'ready';
    case 'failed':
    case 'credits_exhausted':
      return status;
    case 'idle':
    case 'interrupted':
    case 'aborted':
      return undefined;
    default:
      return status satisfies never;
  }
}

/** The column of the transition table an action falls in. */
export function generationActionCase(
  draft: Pick<GenerationDraft, 'projectId' | 'refused' | 'error'>,
  action: GenerationAction,
): GenerationActionCase {
  switch (action.type) {
    case 'started':
    case 'stop_watching':
    case 'recovery_failed':
    case 'retry':
      return action.type;
    case 'event':
      return action.event.type;
    case 'refused':
      return action.error.kind === 'insufficient_credits' ? 'refused_credits' : 'refused';
    case 'dropped':
      return draft.projectId === undefined ? 'dropped_unnamed' : 'dropped';
    case 'poll_result': {
      const polled = polledStatusOf(action.project_status);
      return polled === 'building' && mayHaveStarted(draft) ? 'poll_building_after_loss' : `poll_${polled}`;
    }
    case 'adopted':
      return `adopted_${action.as}`;
    default:
      return action satisfies never;
  }
}

function settle(draft: GenerationDraft, at: number): void {
  draft.endedAt ??= at;
}

/** Why a generation that ended badly did, when the action that ended it does not say. */
function errorOf(status: GenerationStatus): AgentApiError | undefined {
  if (status === 'failed') return generationFailedError();
  if (status === 'credits_exhausted') return creditsExhaustedError();
  if (status === 'interrupted') return streamInterruptedError('closed');
  return undefined;
}

/**
 * Applies one action: the next status comes from the table, then the action's data lands. Returns false, and
 * changes nothing, where the table ignores the action in the draft's status. No clock, no I/O.
 */
export function applyGenerationAction(draft: GenerationDraft, action: GenerationAction): boolean {
  if (action.type === 'event') return reduceGenerationEvent(draft, action.event, action.at) !== 'ignored';
  const next = transitionRows[draft.status][generationActionCase(draft, action)];
  if (next === null) return false;
  const before = draft.status;
  draft.status = next;
  switch (action.type) {
    case 'started':
    case 'retry':
      draft.endedAt = undefined;
      break;
    case 'refused':
      draft.refused = true;
      draft.error = action.error;
      settle(draft, action.at);
      break;
    case 'dropped':
    case 'stop_watching':
    case 'recovery_failed':
      // Why the stream was lost stays the reason when it drops again or the person stops waiting.
      draft.error =
        before === 'recovering' && action.type !== 'recovery_failed' && draft.error !== undefined
          ? draft.error
          : action.error;
      if (!isGenerationRunning(next)) settle(draft, action.at);
      break;
    case 'poll_result': {
      if (typeof action.app_url === 'string') draft.appUrl = action.app_url;
      if (isGenerationRunning(next)) {
        // Not refused after all; why its answer was lost stays the reason, as a dropped stream's does.
        draft.refused = false;
        draft.endedAt = undefined;
        break;
      }
      draft.error = errorOf(next);
      settle(draft, action.at);
      break;
    }
    case 'adopted':
      if (action.app_url !== undefined) draft.appUrl = action.app_url;
      draft.error = action.error ?? errorOf(next);
      if (isGenerationSettled(next)) settle(draft, action.at);
      break;
    default:
      return action satisfies never;
  }
  return true;
}

/** The facts of a generation the selectors read: a draft, the store's generation or its published state. */
export type GenerationFacts = Pick<
  GenerationDraft,
  'kind' | 'status' | 'projectId' | 'appUrl' | 'refused' | 'fileCount' | 'modifiedCount' | 'toolCount'
>;

/** How the generation ended, once it has. */
export function generationOutcome(
  generation: Pick<GenerationFacts, 'status'> | undefined,
): GenerationOutcome | undefined {
  return generation !== undefined && isGenerationSettled(generation.status) ? generation.status : undefined;
}

/** The project is ready: it can be deployed, linked and pushed. */
export function isDeployable(generation: Pick<GenerationFacts, 'status' | 'projectId'> | undefined): boolean {
  return generationOutcome(generation) === 'completed' && generation?.projectId !== undefined;
}

/** There is an app to preview: the finished one, or while a follow-up changes it, the one built before. */
export function isPreviewable(generation: Pick<GenerationFacts, 'status' | 'kind'> | undefined): boolean {
  return generationOutcome(generation) === 'completed' || generation?.kind === 'followUp';
}

/** A stream or a recovery is in flight: a second generation of this project would be de-duplicated. */
export function isGenerationBusy(generation: Pick<GenerationFacts, 'status'> | undefined): boolean {
  return generation !== undefined && isGenerationRunning(generation.status);
}

/** The stream was lost and the outcome is being looked for (a replay, then status polls). */
export function isRecovering(generation: Pick<GenerationFacts, 'status'> | undefined): boolean {
  return generation?.status === 'recovering';
}

/** The generation ran out of credits (during the stream, or refused for want of them). */
export function isOutOfCredits(generation: Pick<GenerationFacts, 'status'> | undefined): boolean {
  return generationOutcome(generation) === 'credits_exhausted';
}

/**
 * A generate or follow-up whose POST failed on the network before any answer: refused as far as this page knows, yet
 * the server may have received it and be building (a refusal with a status was one). Nothing sends it again; the store
 * asks for the project list (and a follow-up's conversation) again a little later, where such a build shows up.
 */
export function mayHaveStarted(generation: Pick<GenerationDraft, 'refused' | 'error'> | undefined): boolean {
  return generation?.refused === true && generation.error?.kind === 'network' && generation.error.status === undefined;
}

/** The counts of a generation, defined once: distinct files created and modified, and distinct tool steps. */
export interface GenerationCounts {
  filesCreated: number;
  filesModified: number;
  steps: number;
}

/** The counts of a generation (see `GenerationCounts`). */
export function generationCounts(
  generation: Pick<GenerationFacts, 'fileCount' | 'modifiedCount' | 'toolCount'>,
): GenerationCounts {
  return {
    filesCreated: generation.fileCount - generation.modifiedCount,
    filesModified: generation.modifiedCount,
    steps: generation.toolCount,
  };
}

/** A draft the proxy's recorder and the mock fold a relayed stream into: its list of files, no tool steps kept. */
export function createRecordingDraft(kind: GenerationKind, projectId: string | undefined): GenerationDraft {
  const draft = createGenerationDraft({ kind, projectId, toolLimit: 1 });
  applyGenerationAction(draft, { type: 'started' });
  return draft;
}

/**
 * A conversation turn's outcome as the proxy records it: `null` while the stream runs; a stream lost on the
 * way is `interrupted` (until a status poll says how it ended, see `settleTurnOutcome`).
 */
export function turnOutcomeOf(draft: GenerationDraft): ConversationTurnOutcome | null {
  const counts = generationCounts(draft);
  const outcome = { files_created: counts.filesCreated, files_modified: counts.filesModified, steps: counts.steps };
  const message = draft.error?.message;
  switch (draft.status) {
    case 'idle':
    case 'submitting':
    case 'provisioning':
    case 'generating':
      return null;
    case 'completed':
      return { status: 'completed', ...outcome };
    case 'credits_exhausted':
    case 'failed':
      return { status: draft.status, ...outcome, ...(message === undefined ? {} : { message }) };
    case 'recovering':
    case 'interrupted':
    case 'aborted':
      return { status: 'interrupted', ...outcome, ...(message === undefined ? {} : { message }) };
    default:
      return draft.status satisfies never;
  }
}

/**
 * The outcome of a recorded turn once a status poll has answered: an `interrupted` turn whose build went on
 * and ended is recorded as what it ended as (its counts stay those of the events relayed). `undefined` when
 * the poll changes nothing.
 */
export function settleTurnOutcome(
  outcome: ConversationTurnOutcome,
  projectStatus: string | null | undefined,
  at: number,
): ConversationTurnOutcome | undefined {
  const draft = createGenerationDraft({ kind: 'followUp', toolLimit: 1 });
  const as = outcome.status === 'completed' ? 'ready' : outcome.status;
  applyGenerationAction(draft, { type: 'adopted', as, at });
  if (!applyGenerationAction(draft, { type: 'poll_result', project_status: projectStatus, at })) return undefined;
  const settled = turnOutcomeOf(draft);
  if (settled === null || settled.status === outcome.status) return undefined;
  const { status, message } = settled;
  return {
    status,
    files_created: outcome.files_created,
    files_modified: outcome.files_modified,
    steps: outcome.steps,
    ...(message === undefined ? {} : { message }),
  };
}
