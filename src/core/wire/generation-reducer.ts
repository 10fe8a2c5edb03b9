/**
 * The one interpreter of a generation's events. The client folds a stream with it into its
 * `GenerationResult`; the store applies it to the generation it publishes. It touches only the draft it is
 * given (no clock, no I/O), in O(1) per event: drafts are mutable so that a burst of thousands of events
 * never copies the file list; the store publishes immutable snapshots of them at most once per frame.
 */
import { creditsExhaustedError, generationFailedError, type AgentApiError } from './errors.js';
import { fileCreatedPath, type AgentEvent } from './events.js';
import { createRing, type Ring } from './ring.js';

/**
 * Every status of a generation, and what it means. `recovering`: the stream was cut and the outcome is being
 * recovered (event replay, then status polling); `interrupted` is final: it could not be recovered.
 */
const generationStatusTable = {
  idle: { running: false, outcome: false },
  submitting: { running: true, outcome: false },
  provisioning: { running: true, outcome: false },
  generating: { running: true, outcome: false },
  recovering: { running: true, outcome: false },
  completed: { running: false, outcome: true },
  credits_exhausted: { running: false, outcome: true },
  failed: { running: false, outcome: true },
  interrupted: { running: false, outcome: true },
  aborted: { running: false, outcome: true },
} as const satisfies Record<string, { running: boolean; outcome: boolean }>;

/** Where a generation is. */
export type GenerationStatus = keyof typeof generationStatusTable;

/** How a generation ended: the statuses that are outcomes. */
export type GenerationOutcome = {
  [Status in GenerationStatus]: (typeof generationStatusTable)[Status]['outcome'] extends true ? Status : never;
}[GenerationStatus];

/** Every generation status, in the order of the table. */
export const generationStatuses = Object.keys(generationStatusTable) as readonly GenerationStatus[];

/** Statuses during which a generation is still in flight (a second submit is de-duplicated). */
export const runningGenerationStatuses: ReadonlySet<GenerationStatus> = new Set(
  generationStatuses.filter((status) => generationStatusTable[status].running),
);

/** Whether a generation is still in flight. */
export function isGenerationRunning(status: GenerationStatus): boolean {
  return generationStatusTable[status].running;
}

/** Whether a generation has ended for good. */
export function isGenerationSettled(status: GenerationStatus): status is GenerationOutcome {
  return generationStatusTable[status].outcome;
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

/** What the events of one generation have said so far. Only the reducer writes it. */
export interface GenerationDraft {
  kind: GenerationKind;
  status: GenerationStatus;
  projectId: string | undefined;
  appUrl: string | undefined;
  container: ContainerState;
  /** The files by path, in first-seen order (a Map keeps it); `undefined` when no list is kept (the client's fold). */
  files: Map<string, GeneratedFile> | undefined;
  /** How many listed files were modified rather than created. */
  modifiedCount: number;
  /** The most recent tool steps (bounded); `toolCount` counts all of them. */
  tools: Ring<ToolStep>;
  toolCount: number;
  unknownEventCount: number;
  error: AgentApiError | undefined;
  endedAt: number | undefined;
  eventCount: number;
  /** Which lists changed since the store last copied them. */
  containerDirty: boolean;
  filesDirty: boolean;
  toolsDirty: boolean;
}

/** What applying an event did: `ignored` after the end, `project` when it named the project, `ended` on a terminal event. */
export type AppliedEvent = 'ignored' | 'applied' | 'project' | 'ended';

/** Creates a draft in `submitting` (or any given) status. */
export function createGenerationDraft(init: {
  kind: GenerationKind;
  projectId?: string | undefined;
  toolLimit: number;
  /** Whether to keep the file list (default true); the client's fold needs only the outcome. */
  keepFiles?: boolean;
  status?: GenerationStatus;
  appUrl?: string | undefined;
}): GenerationDraft {
  return {
    kind: init.kind,
    status: init.status ?? 'submitting',
    projectId: init.projectId,
    appUrl: init.appUrl,
    container: { percentage: 0, message: undefined, ready: false },
    files: init.keepFiles === false ? undefined : new Map(),
    modifiedCount: 0,
    tools: createRing(init.toolLimit),
    toolCount: 0,
    unknownEventCount: 0,
    error: undefined,
    endedAt: undefined,
    eventCount: 0,
    containerDirty: false,
    filesDirty: false,
    toolsDirty: false,
  };
}

const finishedToolStatuses = new Set(['completed', 'complete', 'done', 'success', 'succeeded', 'failed', 'error']);

function advance(draft: GenerationDraft, status: 'provisioning' | 'generating'): void {
  // Events never move a generation backwards; a replay after a drop brings `recovering` back to live.
  if (
    draft.status === 'submitting' ||
    draft.status === 'recovering' ||
    (draft.status === 'provisioning' && status === 'generating')
  )
    draft.status = status;
}

function percentageOf(value: unknown): number | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value)) return undefined;
  return Math.min(100, Math.max(0, Math.round(value)));
}

function nameProject(draft: GenerationDraft, projectId: unknown, overwrite: boolean): boolean {
  if (typeof projectId !== 'string' || projectId === '' || projectId === draft.projectId) return false;
  if (!overwrite && draft.projectId !== undefined) return false;
  draft.projectId = projectId;
  return true;
}

function addFile(draft: GenerationDraft, path: string, action: 'created' | 'modified'): void {
  const { files } = draft;
  if (files === undefined) return;
  const previous = files.get(path);
  if (previous === undefined) {
    if (action === 'modified') draft.modifiedCount++;
    files.set(path, { path, action, updates: 1 });
  } else {
    if (previous.action === 'created') draft.modifiedCount++;
    // A new object, so snapshots already published keep what they showed; the path keeps its place.
    files.set(path, { path, action: 'modified', updates: previous.updates + 1 });
  }
  draft.filesDirty = true;
}

function addToolStep(draft: GenerationDraft, tool: string, message: string, status: string | undefined, at: number) {
  const last = draft.tools.last();
  // A running step that reports again on the same tool is updated, not repeated.
  if (last !== undefined && last.tool === tool && last.status !== undefined && !finishedToolStatuses.has(last.status)) {
    draft.tools.replaceLast({ id: last.id, tool, message: message || last.message, status, at });
  } else {
    draft.toolCount++;
    draft.tools.push({ id: draft.toolCount, tool, message, status, at });
  }
  draft.toolsDirty = true;
}

/**
 * Applies one event to a draft in O(1); `at` is the time it arrived. Exhaustive over the event union: a
 * new event type fails the type-check here until it is handled. Nothing counts after a terminal event,
 * even if the same network chunk carried more: this is the one place termination is tracked.
 */
export function reduceGenerationEvent(draft: GenerationDraft, event: AgentEvent, at: number): AppliedEvent {
  if (draft.endedAt !== undefined) return 'ignored';
  draft.eventCount++;
  switch (event.type) {
    case 'project_created': {
      if (typeof event.app_url === 'string') draft.appUrl = event.app_url;
      const named = nameProject(draft, event.project_id, true);
      if (draft.kind === 'generate') advance(draft, 'provisioning');
      return named ? 'project' : 'applied';
    }
    case 'container_progress': {
      const percentage = percentageOf(event.percentage);
      if (percentage !== undefined) draft.container.percentage = percentage;
      if (typeof event.message === 'string') draft.container.message = event.message;
      draft.containerDirty = true;
      advance(draft, 'provisioning');
      return 'applied';
    }
    case 'container_ready': {
      draft.container.ready = true;
      draft.container.percentage = 100;
      if (typeof event.message === 'string') draft.container.message = event.message;
      draft.containerDirty = true;
      advance(draft, 'generating');
      return 'applied';
    }
    case 'file_created': {
      advance(draft, 'generating');
      const path = fileCreatedPath(event);
      if (path === undefined) draft.unknownEventCount++;
      else addFile(draft, path, event.action === 'modified' ? 'modified' : 'created');
      return 'applied';
    }
    case 'tool_progress': {
      advance(draft, 'generating');
      const tool = typeof event.tool === 'string' && event.tool !== '' ? event.tool : 'tool';
      const message = typeof event.message === 'string' ? event.message : '';
      addToolStep(draft, tool, message, typeof event.status === 'string' ? event.status : undefined, at);
      return 'applied';
    }
    case 'stream_end': {
      nameProject(draft, event.project_id, true);
      if (typeof event.app_url === 'string') draft.appUrl = event.app_url;
      return end(draft, 'completed', undefined, at);
    }
    case 'credits_exhausted': {
      nameProject(draft, event.project_id, false);
      return end(draft, 'credits_exhausted', creditsExhaustedError(event.message), at);
    }
    case 'error': {
      nameProject(draft, event.project_id, false);
      return end(draft, 'failed', generationFailedError(event.message), at);
    }
    case 'unknown': {
      draft.unknownEventCount++;
      return 'applied';
    }
    default:
      return event satisfies never;
  }
}

function end(
  draft: GenerationDraft,
  status: 'completed' | 'credits_exhausted' | 'failed',
  error: AgentApiError | undefined,
  at: number,
): AppliedEvent {
  draft.status = status;
  draft.error = error;
  draft.endedAt = at;
  return 'ended';
}

/** The outcome the events reported, once a terminal event arrived. */
export function endedOutcome(draft: GenerationDraft): 'completed' | 'credits_exhausted' | 'failed' | undefined {
  if (draft.endedAt === undefined) return undefined;
  return draft.status === 'completed' || draft.status === 'credits_exhausted' || draft.status === 'failed'
    ? draft.status
    : undefined;
}
