/**
 * A generation as the store keeps it: the reducer's draft plus what the store adds (its key, the prompt,
 * timing, the last event id applied), and the immutable snapshot published from it at most once per frame.
 */
import type { GenerationResult } from '../wire/client.js';
import type { AgentApiError } from '../wire/errors.js';
import type { AgentEvent } from '../wire/events.js';
import {
  createGenerationDraft,
  type ContainerState,
  type GeneratedFile,
  type GenerationDraft,
  type GenerationKind,
  type GenerationStatus,
  type ToolStep,
} from '../wire/generation-reducer.js';
import type { GenerationMode } from '../wire/resources.js';

/** Kinds of log entries. */
export type AgentLogKind = 'action' | 'event' | 'outcome' | 'poll' | 'error';

/** What a generation action resolves to: the client's result plus the generation's key in `generations`. */
export interface GenerationActionResult extends GenerationResult {
  key: string;
}

/** Work counters, for tests and diagnostics. */
export interface AgentStoreStats {
  /** Events applied. */
  events: number;
  /** States published (each is one store notification). */
  flushes: number;
  /** List items copied into published snapshots: the only per-flush work that grows with list sizes. */
  copiedItems: number;
}

/** The published, immutable state of one generation. */
export interface GenerationState {
  key: string;
  kind: GenerationKind;
  status: GenerationStatus;
  mode: GenerationMode;
  prompt: string;
  projectId: string | undefined;
  /** The project's name, when known (an opened project's summary). */
  name: string | undefined;
  appUrl: string | undefined;
  container: ContainerState;
  /** Files in first-seen order, de-duplicated by path. */
  files: readonly GeneratedFile[];
  /** How many files are listed (`files.length`); see `generationCounts`. */
  fileCount: number;
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
  /** When its first event arrived (the store's clock); `undefined` before one. */
  firstEventAt: number | undefined;
  endedAt: number | undefined;
  eventCount: number;
}

/** The store's working copy of a generation. Only the store touches it. */
export interface StoreGeneration extends GenerationDraft {
  key: string;
  mode: GenerationMode;
  prompt: string;
  name: string | undefined;
  startedAt: number;
  firstEventAt: number | undefined;
  /** The SSE id of the last event applied (the proxy numbers them 1, 2, 3… per generation); 0 before any. */
  lastEventId: number;
  /** Removed by `reset`: late results must not bring it back. */
  removed: boolean;
  containerSnapshot: ContainerState;
  filesSnapshot: readonly GeneratedFile[];
  toolsSnapshot: readonly ToolStep[];
}

/** What a store generation starts from. */
export interface StoreGenerationInit {
  key: string;
  kind: GenerationKind;
  mode: GenerationMode;
  prompt: string;
  projectId: string | undefined;
  startedAt: number;
  toolLimit: number;
  appUrl?: string | undefined;
  /**
   * The events route's id before the generation's first event, where the build before it is known
   * (`afterGenerationOf`): a drop before any event, or a change whose answer was lost, is replayed from there. A
   * generation adopted after a reload starts with the one it saved (`SavedProject.lastEventId`).
   */
  lastEventId?: number | undefined;
}

/** Creates the store's generation, `idle` until the machine's `started` or `adopted` action. */
export function createStoreGeneration(init: StoreGenerationInit): StoreGeneration {
  const draft = createGenerationDraft(init);
  return {
    kind: draft.kind,
    status: draft.status,
    projectId: draft.projectId,
    appUrl: draft.appUrl,
    container: draft.container,
    files: draft.files,
    fileCount: draft.fileCount,
    fileMemory: draft.fileMemory,
    modifiedCount: draft.modifiedCount,
    tools: draft.tools,
    toolCount: draft.toolCount,
    unknownEventCount: draft.unknownEventCount,
    error: draft.error,
    refused: draft.refused,
    endedAt: draft.endedAt,
    eventCount: draft.eventCount,
    containerDirty: draft.containerDirty,
    filesDirty: draft.filesDirty,
    toolsDirty: draft.toolsDirty,
    key: init.key,
    mode: init.mode,
    prompt: init.prompt,
    name: undefined,
    startedAt: init.startedAt,
    firstEventAt: undefined,
    lastEventId: init.lastEventId ?? 0,
    removed: false,
    containerSnapshot: { ...draft.container },
    filesSnapshot: [],
    toolsSnapshot: [],
  };
}

/** Builds the immutable snapshot; copies the file and tool lists only when they changed (once per flush). */
export function snapshotGeneration(generation: StoreGeneration, count: { copied: number }): GenerationState {
  if (generation.filesDirty) {
    generation.filesSnapshot = generation.files === undefined ? [] : generation.files.toArray();
    count.copied += generation.filesSnapshot.length;
    generation.filesDirty = false;
  }
  if (generation.toolsDirty) {
    generation.toolsSnapshot = generation.tools.toArray();
    count.copied += generation.tools.size;
    generation.toolsDirty = false;
  }
  if (generation.containerDirty) {
    generation.containerSnapshot = { ...generation.container };
    generation.containerDirty = false;
  }
  return {
    key: generation.key,
    kind: generation.kind,
    status: generation.status,
    mode: generation.mode,
    prompt: generation.prompt,
    projectId: generation.projectId,
    name: generation.name,
    appUrl: generation.appUrl,
    container: generation.containerSnapshot,
    files: generation.filesSnapshot,
    fileCount: generation.fileCount,
    modifiedCount: generation.modifiedCount,
    tools: generation.toolsSnapshot,
    toolCount: generation.toolCount,
    unknownEventCount: generation.unknownEventCount,
    error: generation.error,
    refused: generation.refused,
    startedAt: generation.startedAt,
    firstEventAt: generation.firstEventAt,
    endedAt: generation.endedAt,
    eventCount: generation.eventCount,
  };
}

/** One line about an event, for `onLog`. */
export function describeGenerationEvent(event: AgentEvent): string {
  switch (event.type) {
    case 'project_created':
      return `Project ${String(event.project_id)} created`;
    case 'container_progress':
      return `Container ${String(event.percentage)}%${typeof event.message === 'string' ? `: ${event.message}` : ''}`;
    case 'container_ready':
      return `Container ready${typeof event.message === 'string' ? `: ${event.message}` : ''}`;
    case 'file_created':
      return `File: ${String(event.path ?? event.file_path ?? event.filename ?? event.file?.path)}`;
    case 'tool_progress':
      return `${String(event.tool ?? 'tool')}${event.status === undefined ? '' : ` (${event.status})`}${event.message ? `: ${event.message}` : ''}`;
    case 'stream_end':
      return 'Generation completed';
    case 'credits_exhausted':
      return `Credits exhausted${event.message === undefined ? '' : `: ${event.message}`}`;
    case 'error':
      return `Error${event.message === undefined ? '' : `: ${event.message}`}`;
    case 'unknown':
      return `Unknown event ${event.originalType ?? '(no type)'}`;
    default:
      return event satisfies never;
  }
}
