/**
 * The one interpreter of a generation's events. The client folds a stream with it into its
 * `GenerationResult`; the store applies it to the generation it publishes. It touches only the draft it is
 * given (no clock, no I/O), in O(1) per event: drafts are mutable so that a burst of thousands of events
 * never copies the file list; the store publishes immutable snapshots of them at most once per frame.
 */
import { creditsExhaustedError, generationFailedError, type AgentApiError } from './errors.js';
import { fileCreatedPath, type AgentEvent } from './events.js';
import { transitionRows, type GenerationStatus, type TransitionRow } from './generation-transitions.js';
import { createFileList, type FileList } from './file-list.js';
import { createRing, type Ring } from './ring.js';
import { agentIdPattern } from './routes.js';

export {
  generationStatuses,
  isGenerationRunning,
  isGenerationSettled,
  runningGenerationStatuses,
  type GenerationOutcome,
  type GenerationStatus,
} from './generation-transitions.js';

/** A new project or a follow-up on an existing one. */
export type GenerationKind = 'generate' | 'followUp';

export type { FileList, GeneratedFile } from './file-list.js';

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

/** What the events and the lifecycle of one generation have said so far. Only the machine writes it. */
export interface GenerationDraft {
  kind: GenerationKind;
  status: GenerationStatus;
  projectId: string | undefined;
  appUrl: string | undefined;
  container: ContainerState;
  /** The files by path, in first-seen order; `undefined` when no list is kept (the client's fold). */
  files: FileList | undefined;
  /**
   * How many files were seen (distinct paths); 0 when no list is kept. Past the list's memory, a path it did not
   * keep counts as a new file each time it comes.
   */
  fileCount: number;
  /** What the file list may still hold, in characters: each path it keeps costs its length and `fileEntryChars`. */
  fileMemory: number;
  /** How many listed files were modified rather than created. */
  modifiedCount: number;
  /** The most recent tool steps (bounded); `toolCount` counts all of them. */
  tools: Ring<ToolStep>;
  toolCount: number;
  unknownEventCount: number;
  error: AgentApiError | undefined;
  /** The request was refused before any event (validation, credits, auth, rate limit, network). */
  refused: boolean;
  /** When the generation settled; `undefined` while it is idle or running. */
  endedAt: number | undefined;
  eventCount: number;
  /** Which lists changed since the store last copied them. */
  containerDirty: boolean;
  filesDirty: boolean;
  toolsDirty: boolean;
}

/**
 * The file list's memory (characters), so that what an upstream sends cannot grow it without bound: a real build's
 * 13,000 files take under 1.5 M; past it, new paths are counted, not kept (the proxy's recorder holds one per stream).
 */
export const defaultFileMemoryChars = 8 * 1024 * 1024;
/** What a kept file costs beyond its path (its map entry and its object), in characters of the file memory. */
export const fileEntryChars = 64;

/** What applying an event did: `ignored` (its status takes no events), `project` when it named the project, `ended` on a terminal event. */
export type AppliedEvent = 'ignored' | 'applied' | 'project' | 'ended';

/** Creates an `idle` draft; the `started` or `adopted` action moves it on (see `applyGenerationAction`). */
export function createGenerationDraft(init: {
  kind: GenerationKind;
  projectId?: string | undefined;
  toolLimit: number;
  /** Whether to keep the file list and its counts (default true); the client's fold needs only the outcome. */
  keepFiles?: boolean;
  /** The file list's memory in characters (default `defaultFileMemoryChars`). */
  fileMemoryChars?: number;
  appUrl?: string | undefined;
}): GenerationDraft {
  return {
    kind: init.kind,
    status: 'idle',
    projectId: init.projectId,
    appUrl: init.appUrl,
    container: { percentage: 0, message: undefined, ready: false },
    files: init.keepFiles === false ? undefined : createFileList(),
    fileCount: 0,
    fileMemory: init.fileMemoryChars ?? defaultFileMemoryChars,
    modifiedCount: 0,
    tools: createRing(init.toolLimit),
    toolCount: 0,
    unknownEventCount: 0,
    error: undefined,
    refused: false,
    endedAt: undefined,
    eventCount: 0,
    containerDirty: false,
    filesDirty: false,
    toolsDirty: false,
  };
}

/** Whether a tool step's status says it finished (a switch: the status is a fresh string, not worth hashing). */
function isFinishedToolStatus(status: string): boolean {
  switch (status) {
    case 'completed':
    case 'complete':
    case 'done':
    case 'success':
    case 'succeeded':
    case 'failed':
    case 'error':
      return true;
    default:
      return false;
  }
}

function percentageOf(value: unknown): number | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value)) return undefined;
  return Math.min(100, Math.max(0, Math.round(value)));
}

function nameProject(draft: GenerationDraft, projectId: unknown, overwrite: boolean): boolean {
  // Only an id that can name a project in a path and key its records: `..` would change a request's route.
  if (typeof projectId !== 'string' || !agentIdPattern.test(projectId) || projectId === draft.projectId) return false;
  if (!overwrite && draft.projectId !== undefined) return false;
  draft.projectId = projectId;
  return true;
}

function addFile(draft: GenerationDraft, path: string, action: 'created' | 'modified'): void {
  const { files } = draft;
  if (files === undefined) return;
  const cost = path.length + fileEntryChars;
  // Past its memory the list keeps no more paths (only a broken or hostile upstream sends that many): counted only.
  const added = files.add(path, action, cost <= draft.fileMemory);
  if (typeof added === 'object') {
    if (added.action === 'created') draft.modifiedCount++;
  } else {
    if (action === 'modified') draft.modifiedCount++;
    draft.fileCount++;
    if (!added) return;
    draft.fileMemory -= cost;
  }
  draft.filesDirty = true;
}

function addToolStep(draft: GenerationDraft, tool: string, message: string, status: string | undefined, at: number) {
  const last = draft.tools.last();
  // A running step that reports again on the same tool is updated, not repeated: it is one step.
  if (last !== undefined && last.tool === tool && last.status !== undefined && !isFinishedToolStatus(last.status)) {
    draft.tools.replaceLast({ id: last.id, tool, message: message || last.message, status, at });
  } else {
    draft.toolCount++;
    draft.tools.push({ id: draft.toolCount, tool, message, status, at });
  }
  draft.toolsDirty = true;
}

/** Moves the draft to the table's next status; false (and nothing changes) where the table ignores the event. */
function enter(draft: GenerationDraft, next: GenerationStatus | null): boolean {
  if (next === null) return false;
  draft.status = next;
  draft.eventCount++;
  return true;
}

/**
 * The one fold of the event union: applies one event to a draft in O(1); `at` is the time it arrived. The next
 * status comes from the transition table; an event the table ignores in the draft's status (after the end,
 * before the start) changes nothing, even if the same network chunk carried it. Exhaustive: a new event type
 * fails the type-check here, and in the table, until it is handled.
 */
export function reduceGenerationEvent(draft: GenerationDraft, event: AgentEvent, at: number): AppliedEvent {
  const row: TransitionRow = transitionRows[draft.status];
  switch (event.type) {
    case 'project_created': {
      if (!enter(draft, row.project_created)) return 'ignored';
      if (typeof event.app_url === 'string') draft.appUrl = event.app_url;
      return nameProject(draft, event.project_id, true) ? 'project' : 'applied';
    }
    case 'container_progress': {
      if (!enter(draft, row.container_progress)) return 'ignored';
      const percentage = percentageOf(event.percentage);
      if (percentage !== undefined) draft.container.percentage = percentage;
      if (typeof event.message === 'string') draft.container.message = event.message;
      draft.containerDirty = true;
      return 'applied';
    }
    case 'container_ready': {
      if (!enter(draft, row.container_ready)) return 'ignored';
      draft.container.ready = true;
      draft.container.percentage = 100;
      if (typeof event.message === 'string') draft.container.message = event.message;
      draft.containerDirty = true;
      return 'applied';
    }
    case 'file_created': {
      if (!enter(draft, row.file_created)) return 'ignored';
      // A draft without a file list (the client's fold) only follows the outcome: no detail to keep.
      if (draft.files === undefined) return 'applied';
      const path = fileCreatedPath(event);
      if (path === undefined) draft.unknownEventCount++;
      else addFile(draft, path, event.action === 'modified' ? 'modified' : 'created');
      return 'applied';
    }
    case 'tool_progress': {
      if (!enter(draft, row.tool_progress)) return 'ignored';
      if (draft.files === undefined) return 'applied';
      const tool = typeof event.tool === 'string' && event.tool !== '' ? event.tool : 'tool';
      const message = typeof event.message === 'string' ? event.message : '';
      addToolStep(draft, tool, message, typeof event.status === 'string' ? event.status : undefined, at);
      return 'applied';
    }
    case 'stream_end': {
      if (!enter(draft, row.stream_end)) return 'ignored';
      nameProject(draft, event.project_id, true);
      if (typeof event.app_url === 'string') draft.appUrl = event.app_url;
      return end(draft, undefined, at);
    }
    case 'credits_exhausted': {
      if (!enter(draft, row.credits_exhausted)) return 'ignored';
      nameProject(draft, event.project_id, false);
      return end(draft, creditsExhaustedError(event.message), at);
    }
    case 'error': {
      if (!enter(draft, row.error)) return 'ignored';
      nameProject(draft, event.project_id, false);
      return end(draft, generationFailedError(event.message), at);
    }
    case 'unknown': {
      if (!enter(draft, row.unknown)) return 'ignored';
      draft.unknownEventCount++;
      return 'applied';
    }
    default:
      return event satisfies never;
  }
}

function end(draft: GenerationDraft, error: AgentApiError | undefined, at: number): AppliedEvent {
  draft.error = error;
  draft.endedAt = at;
  return 'ended';
}

/** The outcome the events reported, once a terminal event arrived. */
export function endedOutcome(draft: GenerationDraft): 'completed' | 'credits_exhausted' | 'failed' | undefined {
  switch (draft.status) {
    case 'completed':
    case 'credits_exhausted':
    case 'failed':
      return draft.refused ? undefined : draft.status;
    default:
      return undefined;
  }
}
