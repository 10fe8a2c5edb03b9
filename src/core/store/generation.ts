/**
 * One generation's state machine: a mutable draft that events are applied to in O(1), and the immutable
 * snapshot the store publishes from it at most once per frame.
 */
import { AgentApiError, agentApiMessages } from '../wire/errors.js';
import { fileCreatedPath, type AgentEvent } from '../wire/events.js';
import type { GenerationMode } from '../wire/resources.js';
import { createRing, type Ring } from './ring.js';

/**
 * Where a generation is. `recovering` means the stream was cut and the outcome is being recovered by
 * polling the project status; `interrupted` is final: the outcome could not be recovered (no project id
 * yet, the project is gone, or the person stopped waiting).
 */
export type GenerationStatus =
  | 'idle'
  | 'submitting'
  | 'provisioning'
  | 'generating'
  | 'recovering'
  | 'completed'
  | 'credits_exhausted'
  | 'failed'
  | 'interrupted'
  | 'aborted';

/** Statuses during which a generation is still in flight (a second submit is de-duplicated). */
export const runningGenerationStatuses: ReadonlySet<GenerationStatus> = new Set([
  'submitting',
  'provisioning',
  'generating',
  'recovering',
]);

/** Whether a generation is still in flight. */
export function isGenerationRunning(status: GenerationStatus): boolean {
  return runningGenerationStatuses.has(status);
}

/** Whether a generation has ended for good. */
export function isGenerationSettled(status: GenerationStatus): boolean {
  return (
    status === 'completed' ||
    status === 'credits_exhausted' ||
    status === 'failed' ||
    status === 'interrupted' ||
    status === 'aborted'
  );
}

/** A new project or a follow-up on an existing one. */
export type GenerationKind = 'generate' | 'followUp';

/** A file of the generation, listed once however many times it was touched. */
export interface GeneratedFile {
  path: string;
  action: 'created' | 'modified';
  /** How many `file_created` events named this path. */
  updates: number;
}

/** One step of the agent's tool use. */
export interface ToolStep {
  id: number;
  tool: string;
  message: string;
  status: string | undefined;
  at: number;
}

/** Container setup progress (new projects only). */
export interface ContainerState {
  percentage: number;
  message: string | undefined;
  ready: boolean;
}

/** The published, immutable state of one generation. */
export interface GenerationState {
  key: string;
  kind: GenerationKind;
  status: GenerationStatus;
  mode: GenerationMode;
  prompt: string;
  projectId: string | undefined;
  appUrl: string | undefined;
  container: ContainerState;
  /** Files in first-seen order, de-duplicated by path. */
  files: readonly GeneratedFile[];
  /** How many listed files were modified rather than created. */
  modifiedCount: number;
  /** The most recent tool steps (bounded); `toolCount` counts all of them. */
  tools: readonly ToolStep[];
  toolCount: number;
  unknownEventCount: number;
  error: AgentApiError | undefined;
  /** The request was refused before any event (validation, credits, auth, rate limit, network). */
  refused: boolean;
  startedAt: number;
  endedAt: number | undefined;
  eventCount: number;
}

/** The mutable working copy of a generation. Only the store touches it. */
export interface GenerationDraft extends Pick<
  GenerationState,
  | 'key'
  | 'kind'
  | 'status'
  | 'mode'
  | 'prompt'
  | 'projectId'
  | 'appUrl'
  | 'container'
  | 'modifiedCount'
  | 'toolCount'
  | 'unknownEventCount'
  | 'error'
  | 'refused'
  | 'startedAt'
  | 'endedAt'
  | 'eventCount'
> {
  containerDirty: boolean;
  containerSnapshot: ContainerState;
  fileIndex: Map<string, number>;
  files: GeneratedFile[];
  filesDirty: boolean;
  filesSnapshot: readonly GeneratedFile[];
  tools: Ring<ToolStep>;
  toolsDirty: boolean;
  toolsSnapshot: readonly ToolStep[];
  /** Removed by `reset`: late results must not bring it back. */
  removed: boolean;
}

/** What the caller must do after an event was applied. */
export interface AppliedEvent {
  /** The project id is now known and differs from the key: re-key the generation. */
  projectCreated: boolean;
  /** The stream has ended: publish at once. */
  terminal: boolean;
  /** A one-line description for the log. */
  text: string;
}

/** Creates a draft in `submitting` (or any given) status. */
export function createGenerationDraft(init: {
  key: string;
  kind: GenerationKind;
  mode: GenerationMode;
  prompt: string;
  projectId: string | undefined;
  startedAt: number;
  toolLimit: number;
  status?: GenerationStatus;
  appUrl?: string | undefined;
}): GenerationDraft {
  return {
    key: init.key,
    kind: init.kind,
    status: init.status ?? 'submitting',
    mode: init.mode,
    prompt: init.prompt,
    projectId: init.projectId,
    appUrl: init.appUrl,
    container: { percentage: 0, message: undefined, ready: false },
    containerDirty: false,
    containerSnapshot: { percentage: 0, message: undefined, ready: false },
    fileIndex: new Map(),
    files: [],
    filesDirty: false,
    filesSnapshot: [],
    modifiedCount: 0,
    tools: createRing(init.toolLimit),
    toolsDirty: false,
    toolsSnapshot: [],
    toolCount: 0,
    unknownEventCount: 0,
    error: undefined,
    refused: false,
    startedAt: init.startedAt,
    endedAt: undefined,
    eventCount: 0,
    removed: false,
  };
}

const finishedToolStatuses = new Set(['completed', 'complete', 'done', 'success', 'succeeded', 'failed', 'error']);

function advance(draft: GenerationDraft, status: 'provisioning' | 'generating'): void {
  // Events never move a generation backwards or out of an end state.
  if (draft.status === 'submitting' || (draft.status === 'provisioning' && status === 'generating'))
    draft.status = status;
}

function percentageOf(value: unknown): number | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value)) return undefined;
  return Math.min(100, Math.max(0, Math.round(value)));
}

/** Applies one event to a draft in O(1). The switch is exhaustive over the event union. */
export function applyGenerationEvent(draft: GenerationDraft, event: AgentEvent, now: number): AppliedEvent {
  draft.eventCount++;
  switch (event.type) {
    case 'project_created': {
      if (typeof event.app_url === 'string') draft.appUrl = event.app_url;
      const known = typeof event.project_id === 'string' && event.project_id !== '';
      if (known) draft.projectId = event.project_id;
      if (draft.kind === 'generate') advance(draft, 'provisioning');
      return {
        projectCreated: known && draft.key !== event.project_id,
        terminal: false,
        text: `Project ${String(event.project_id)} created`,
      };
    }
    case 'container_progress': {
      const percentage = percentageOf(event.percentage);
      if (percentage !== undefined) draft.container.percentage = percentage;
      if (typeof event.message === 'string') draft.container.message = event.message;
      draft.containerDirty = true;
      advance(draft, 'provisioning');
      return {
        projectCreated: false,
        terminal: false,
        text: `Container ${draft.container.percentage}%${typeof event.message === 'string' ? `: ${event.message}` : ''}`,
      };
    }
    case 'container_ready': {
      draft.container.ready = true;
      draft.container.percentage = 100;
      if (typeof event.message === 'string') draft.container.message = event.message;
      draft.containerDirty = true;
      advance(draft, 'generating');
      return {
        projectCreated: false,
        terminal: false,
        text: `Container ready${typeof event.message === 'string' ? `: ${event.message}` : ''}`,
      };
    }
    case 'file_created': {
      advance(draft, 'generating');
      const path = fileCreatedPath(event);
      if (path === undefined) {
        draft.unknownEventCount++;
        return { projectCreated: false, terminal: false, text: 'A file event without a path' };
      }
      const index = draft.fileIndex.get(path);
      if (index === undefined) {
        const action = event.action === 'modified' ? 'modified' : 'created';
        if (action === 'modified') draft.modifiedCount++;
        draft.fileIndex.set(path, draft.files.length);
        draft.files.push({ path, action, updates: 1 });
      } else {
        const previous = draft.files[index] as GeneratedFile;
        if (previous.action === 'created') draft.modifiedCount++;
        // A new object, so snapshots already published keep what they showed.
        draft.files[index] = { path, action: 'modified', updates: previous.updates + 1 };
      }
      draft.filesDirty = true;
      return {
        projectCreated: false,
        terminal: false,
        text: `${index === undefined ? 'File' : 'File again'}: ${path}`,
      };
    }
    case 'tool_progress': {
      advance(draft, 'generating');
      const tool = typeof event.tool === 'string' && event.tool !== '' ? event.tool : 'tool';
      const message = typeof event.message === 'string' ? event.message : '';
      const status = typeof event.status === 'string' ? event.status : undefined;
      const last = draft.tools.last();
      // A running step that reports again on the same tool is updated, not repeated.
      if (
        last !== undefined &&
        last.tool === tool &&
        last.status !== undefined &&
        !finishedToolStatuses.has(last.status)
      ) {
        draft.tools.replaceLast({ id: last.id, tool, message: message || last.message, status, at: now });
      } else {
        draft.toolCount++;
        draft.tools.push({ id: draft.toolCount, tool, message, status, at: now });
      }
      draft.toolsDirty = true;
      return {
        projectCreated: false,
        terminal: false,
        text: `${tool}${status === undefined ? '' : ` (${status})`}${message === '' ? '' : `: ${message}`}`,
      };
    }
    case 'stream_end': {
      if (typeof event.project_id === 'string' && event.project_id !== '') draft.projectId = event.project_id;
      if (typeof event.app_url === 'string') draft.appUrl = event.app_url;
      draft.status = 'completed';
      draft.endedAt = now;
      return { projectCreated: false, terminal: true, text: 'Generation completed' };
    }
    case 'credits_exhausted': {
      if (typeof event.project_id === 'string' && draft.projectId === undefined) draft.projectId = event.project_id;
      draft.status = 'credits_exhausted';
      draft.error = new AgentApiError('insufficient_credits', event.message ?? agentApiMessages.insufficientCredits);
      draft.endedAt = now;
      return { projectCreated: false, terminal: true, text: `Credits exhausted: ${draft.error.message}` };
    }
    case 'error': {
      if (typeof event.project_id === 'string' && draft.projectId === undefined) draft.projectId = event.project_id;
      draft.status = 'failed';
      draft.error = new AgentApiError('upstream', event.message ?? 'The generation failed.');
      draft.endedAt = now;
      return { projectCreated: false, terminal: true, text: `Error: ${draft.error.message}` };
    }
    case 'unknown': {
      draft.unknownEventCount++;
      return { projectCreated: false, terminal: false, text: `Unknown event ${event.originalType ?? '(no type)'}` };
    }
    default:
      return event satisfies never;
  }
}

/** Builds the immutable snapshot; copies the file and tool lists only when they changed (once per flush). */
export function snapshotGeneration(draft: GenerationDraft, count: { copied: number }): GenerationState {
  if (draft.filesDirty) {
    draft.filesSnapshot = draft.files.slice();
    count.copied += draft.files.length;
    draft.filesDirty = false;
  }
  if (draft.toolsDirty) {
    draft.toolsSnapshot = draft.tools.toArray();
    count.copied += draft.tools.size;
    draft.toolsDirty = false;
  }
  if (draft.containerDirty) {
    draft.containerSnapshot = { ...draft.container };
    draft.containerDirty = false;
  }
  return {
    key: draft.key,
    kind: draft.kind,
    status: draft.status,
    mode: draft.mode,
    prompt: draft.prompt,
    projectId: draft.projectId,
    appUrl: draft.appUrl,
    container: draft.containerSnapshot,
    files: draft.filesSnapshot,
    modifiedCount: draft.modifiedCount,
    tools: draft.toolsSnapshot,
    toolCount: draft.toolCount,
    unknownEventCount: draft.unknownEventCount,
    error: draft.error,
    refused: draft.refused,
    startedAt: draft.startedAt,
    endedAt: draft.endedAt,
    eventCount: draft.eventCount,
  };
}
