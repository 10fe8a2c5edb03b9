/**
 * The agent store (zustand vanilla, one per provider): generations keyed by project, shared status
 * pollers, a bounded log, and batched notifications (first event at once, then at most once per frame,
 * the final state at once). Generations run only when an action is called, never on their own.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { AgentClient, GenerationResult } from '../wire/client.js';
import { AgentApiError, agentApiMessages, isAgentApiError } from '../wire/errors.js';
import type { AgentEvent } from '../wire/events.js';
import type { FollowUpInput, GenerateInput, GenerationMode, Project } from '../wire/resources.js';
import {
  applyGenerationEvent,
  createGenerationDraft,
  isGenerationSettled,
  snapshotGeneration,
  type GenerationDraft,
  type GenerationKind,
  type GenerationState,
  type GenerationStatus,
} from './generation.js';
import { createProjectPollers, isTerminalProjectStatus, type ProjectSnapshot } from './project-poller.js';
import { createFrameBatcher, type ScheduleFlush } from './frame-batcher.js';
import {
  createProjectPersistence,
  defaultStorage,
  savedError,
  type AgentStorage,
  type SavedProject,
} from './persistence.js';
import { createRing } from './ring.js';
import { createCodehostSlice, type CodehostSlice } from './codehost-slice.js';
import { createDeploymentsSlice, type DeploymentsSlice } from './deployments-slice.js';
import type { SliceContext } from './slice-context.js';
import { createConversationSlice, recordConversation, type ConversationSlice } from './conversation-slice.js';
import { createPlansSlice, type PlansSlice } from './plans-slice.js';

/** Kinds of log entries. */
export type AgentLogKind = 'action' | 'event' | 'outcome' | 'poll' | 'error';

/** One line of the store's bounded log. */
export interface AgentLogEntry {
  id: number;
  at: number;
  kind: AgentLogKind;
  text: string;
  /** The generation it is about, if any. */
  key: string | undefined;
}

/** What a generation action resolves to: the client's result plus the generation's key in `generations`. */
export interface GenerationActionResult extends GenerationResult {
  key: string;
}

/** State and actions of the store: generations here, deployments, code host and plans in their slices. */
export interface AgentState extends DeploymentsSlice, CodehostSlice, PlansSlice, ConversationSlice {
  /** By project id, or by a temporary `pending:N` key until `project_created` arrives. */
  generations: Record<string, GenerationState>;
  /** The key of this store's latest generation. */
  currentKey: string | undefined;
  /** Status polling results, by project id. */
  projects: Record<string, ProjectSnapshot>;
  /** The newest entries of the log, oldest first (bounded by `logLimit`). */
  log: readonly AgentLogEntry[];
  /**
   * Starts a new project. While a generation of this store is in flight, returns that generation's
   * promise and sends nothing. Never rejects: a refusal resolves with outcome `failed` and the error.
   */
  generate(input: GenerateInput): Promise<GenerationActionResult>;
  /** Sends a follow-up prompt; while one runs for that project, returns its promise and sends nothing. */
  followUp(projectId: string, input: FollowUpInput): Promise<GenerationActionResult>;
  /** Aborts a running generation (default: the current one), or stops waiting for a recovering one. */
  cancel(key?: string): void;
  /** Watches a project's status with the shared poller; returns the unsubscribe function. */
  watchProject(projectId: string): () => void;
  /** Restores the last project persisted in storage and, if its generation had not finished, recovers it. Idempotent. */
  resume(): void;
  /** Empties the stage for a new project: nothing is current any more (nothing is cancelled or forgotten). */
  newProject(): void;
  /** Forgets a generation (default: the current one), cancelling it first if it runs. */
  reset(key?: string): void;
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

/** A zustand vanilla store of `AgentState`, with its client and a few extras. */
export type AgentStore = StoreApi<AgentState> & {
  readonly client: AgentClient;
  getStats(): AgentStoreStats;
  /** Aborts streams, stops pollers and timers; the store publishes nothing afterwards. */
  destroy(): void;
};

/** Options of `createAgentStore`. Everything that touches the world can be injected. */
export interface AgentStoreOptions {
  client: AgentClient;
  /** Log entries kept (default 2000). */
  logLimit?: number;
  /** Tool steps kept per generation (default 200). */
  toolLimit?: number;
  /** Where the last project id is kept; default sessionStorage when available, `null` for none. */
  storage?: AgentStorage | null;
  storageKey?: string;
  /** Schedules a flush for the next frame and returns its cancel (default requestAnimationFrame, else 16 ms). */
  scheduleFlush?: ScheduleFlush;
  setTimeout?: (callback: () => void, ms: number) => unknown;
  clearTimeout?: (handle: unknown) => void;
  now?: () => number;
  /** Whether the page is hidden (default `document.visibilityState`); polling pauses meanwhile. */
  isHidden?: () => boolean;
  onVisibilityChange?: (listener: () => void) => () => void;
  /** Interval between status polls (default 6000 ms: ten a minute, within the API's limit when nothing else runs). */
  pollIntervalMs?: number;
  /** Longest backoff between failed polls (default 30000 ms). */
  maxPollIntervalMs?: number;
}

/** Default key of the persisted last project. */
export const defaultStorageKey = 'agent-embed:last-project';

interface Run {
  draft: GenerationDraft;
  controller: AbortController;
  promise: Promise<GenerationActionResult>;
  resolve: (result: GenerationActionResult) => void;
  stopRecovery: (() => void) | undefined;
  settled: boolean;
  /** A terminal event arrived. */
  ended: boolean;
}

function hasDocument(): boolean {
  return typeof document !== 'undefined' && typeof document.addEventListener === 'function';
}

function toApiError(thrown: unknown): AgentApiError {
  if (isAgentApiError(thrown)) return thrown;
  return new AgentApiError(
    'network',
    thrown instanceof Error ? thrown.message : 'The generation could not be started.',
    { cause: thrown },
  );
}

function outcomeOfProject(project: Project): GenerationResult | undefined {
  const ids = {
    projectId: project.project_id,
    ...(typeof project.app_url === 'string' ? { appUrl: project.app_url } : {}),
  };
  switch (project.project_status) {
    case 'ready':
      return { outcome: 'completed', ...ids };
    case 'failed':
      return { outcome: 'failed', ...ids, error: new AgentApiError('upstream', 'The generation failed.') };
    case 'credits_exhausted':
      return {
        outcome: 'credits_exhausted',
        ...ids,
        error: new AgentApiError('insufficient_credits', agentApiMessages.insufficientCredits),
      };
    default:
      return undefined;
  }
}

/** Creates a store. Create one per provider (never a module singleton). */
export function createAgentStore(options: AgentStoreOptions): AgentStore {
  const { client } = options;
  const now = options.now ?? (() => Date.now());
  const setTimer = options.setTimeout ?? ((callback: () => void, ms: number) => globalThis.setTimeout(callback, ms));
  const clearTimer =
    options.clearTimeout ??
    ((handle: unknown) => globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>));
  const scheduleFlush: ScheduleFlush =
    options.scheduleFlush ??
    ((flush) => {
      if (typeof requestAnimationFrame === 'function' && typeof cancelAnimationFrame === 'function') {
        const id = requestAnimationFrame(() => flush());
        return () => cancelAnimationFrame(id);
      }
      const handle = setTimer(flush, 16);
      return () => clearTimer(handle);
    });
  const isHidden = options.isHidden ?? (() => hasDocument() && document.visibilityState === 'hidden');
  const onVisibilityChange =
    options.onVisibilityChange ??
    ((listener: () => void) => {
      if (!hasDocument()) return () => {};
      document.addEventListener('visibilitychange', listener);
      return () => document.removeEventListener('visibilitychange', listener);
    });
  const persistence = createProjectPersistence(
    options.storage === undefined ? defaultStorage() : options.storage,
    options.storageKey ?? defaultStorageKey,
  );
  const toolLimit = options.toolLimit ?? 200;
  const logRing = createRing<AgentLogEntry>(options.logLimit ?? 2000);

  const stats: AgentStoreStats = { events: 0, flushes: 0, copiedItems: 0 };
  const drafts = new Map<string, GenerationDraft>();
  const runs = new Set<Run>();
  const dirtyDrafts = new Set<GenerationDraft>();
  const removedKeys = new Set<string>();
  const dirtyProjects = new Map<string, ProjectSnapshot>();
  let logDirty = false;
  let currentKey: string | undefined;
  let currentDirty = false;
  let logId = 0;
  let pendingId = 0;
  let resumed = false;
  let destroyed = false;

  function hasPending(): boolean {
    return dirtyDrafts.size > 0 || removedKeys.size > 0 || dirtyProjects.size > 0 || logDirty || currentDirty;
  }

  function publish(): void {
    if (destroyed || !hasPending()) return;
    const previous = store.getState();
    const patch: Partial<AgentState> = {};
    if (dirtyDrafts.size > 0 || removedKeys.size > 0) {
      const generations = { ...previous.generations };
      for (const key of removedKeys) delete generations[key];
      const count = { copied: 0 };
      for (const draft of dirtyDrafts) if (!draft.removed) generations[draft.key] = snapshotGeneration(draft, count);
      stats.copiedItems += count.copied;
      removedKeys.clear();
      dirtyDrafts.clear();
      patch.generations = generations;
    }
    if (dirtyProjects.size > 0) {
      patch.projects = { ...previous.projects, ...Object.fromEntries(dirtyProjects) };
      dirtyProjects.clear();
    }
    if (logDirty) {
      patch.log = logRing.toArray();
      stats.copiedItems += logRing.size;
      logDirty = false;
    }
    if (currentDirty) {
      patch.currentKey = currentKey;
      currentDirty = false;
    }
    stats.flushes++;
    store.setState(patch);
  }

  const batcher = createFrameBatcher({ scheduleFlush, publish, hasPending });
  const requestPublish = (immediate: boolean) => batcher.request(immediate);

  function log(kind: AgentLogKind, text: string, key: string | undefined): void {
    logRing.push({ id: ++logId, at: now(), kind, text, key });
    logDirty = true;
  }

  const pollers = createProjectPollers({
    client,
    pollIntervalMs: options.pollIntervalMs ?? 6000,
    maxPollIntervalMs: options.maxPollIntervalMs ?? 30000,
    setTimeout: setTimer,
    clearTimeout: clearTimer,
    now,
    isHidden,
    onVisibilityChange,
    isStreaming(projectId) {
      for (const run of runs) {
        if (
          run.draft.projectId === projectId &&
          !run.ended &&
          (run.draft.status === 'provisioning' || run.draft.status === 'generating')
        )
          return true;
      }
      return false;
    },
    onSnapshot(snapshot) {
      dirtyProjects.set(snapshot.projectId, snapshot);
      requestPublish(true);
    },
    log(text, isError) {
      log(isError ? 'error' : 'poll', text, undefined);
    },
  });

  function persist(draft: GenerationDraft): void {
    if (draft.projectId === undefined || draft.removed) return;
    const saved: SavedProject = {
      projectId: draft.projectId,
      status: draft.status,
      kind: draft.kind,
      mode: draft.mode,
    };
    if (draft.appUrl !== undefined) saved.appUrl = draft.appUrl;
    if (draft.error !== undefined) {
      saved.errorKind = draft.error.kind;
      saved.errorMessage = draft.error.message;
    }
    persistence.save(saved);
  }

  function setCurrent(key: string | undefined): void {
    if (currentKey === key) return;
    currentKey = key;
    currentDirty = true;
  }

  function place(draft: GenerationDraft): void {
    const previous = drafts.get(draft.key);
    if (previous !== undefined && previous !== draft) previous.removed = true;
    drafts.set(draft.key, draft);
    removedKeys.delete(draft.key);
    dirtyDrafts.add(draft);
  }

  function rekey(draft: GenerationDraft, key: string): void {
    const oldKey = draft.key;
    drafts.delete(oldKey);
    removedKeys.add(oldKey);
    draft.key = key;
    place(draft);
    if (currentKey === oldKey) setCurrent(key);
  }

  function createRun(draft: GenerationDraft): Run {
    let resolve!: (result: GenerationActionResult) => void;
    const promise = new Promise<GenerationActionResult>((done) => {
      resolve = done;
    });
    const run: Run = {
      draft,
      controller: new AbortController(),
      promise,
      resolve,
      stopRecovery: undefined,
      settled: false,
      ended: false,
    };
    runs.add(run);
    return run;
  }

  function finish(run: Run, result: GenerationResult): void {
    if (run.settled) return;
    run.settled = true;
    runs.delete(run);
    run.stopRecovery?.();
    run.stopRecovery = undefined;
    const { draft } = run;
    const status: GenerationStatus = result.outcome;
    const error = result.outcome === 'completed' ? undefined : (result.error ?? draft.error);
    if (draft.projectId === undefined && result.projectId !== undefined) {
      draft.projectId = result.projectId;
      if (draft.key !== result.projectId && !draft.removed) rekey(draft, result.projectId);
    }
    // The events the store applied are the reference; the result only fills a gap.
    draft.appUrl ??= result.appUrl;
    const changed = draft.status !== status || draft.error !== error || draft.endedAt === undefined;
    draft.status = status;
    draft.error = error;
    draft.endedAt ??= now();
    const resolved: GenerationActionResult = { ...result, key: draft.key };
    if (draft.projectId !== undefined) resolved.projectId = draft.projectId;
    if (draft.appUrl !== undefined) resolved.appUrl = draft.appUrl;
    if (!draft.removed && !destroyed) {
      persist(draft);
      if (changed) {
        log(
          error === undefined ? 'outcome' : 'error',
          `Outcome: ${status}${error === undefined ? '' : ` (${error.message})`}`,
          draft.key,
        );
        dirtyDrafts.add(draft);
        requestPublish(true);
      }
      if (draft.projectId !== undefined) pollers.refresh(draft.projectId);
    }
    run.resolve(resolved);
  }

  function startRecovery(run: Run, projectId: string): void {
    log('action', `Recovering the outcome of ${projectId} by polling its status`, run.draft.key);
    run.stopRecovery = pollers.watch(
      projectId,
      {
        onProject(project) {
          if (!isTerminalProjectStatus(project.project_status)) return;
          const outcome = outcomeOfProject(project);
          if (outcome === undefined) return;
          // The status endpoint is fresher than what the cut stream said.
          if (typeof project.app_url === 'string') run.draft.appUrl = project.app_url;
          finish(run, outcome);
        },
        onFatal(error) {
          finish(run, { outcome: 'interrupted', projectId, error });
        },
      },
      { fresh: true },
    );
  }

  function settle(run: Run, result: GenerationResult): void {
    if (run.settled) return;
    const { draft } = run;
    const projectId = draft.projectId ?? result.projectId;
    if (result.outcome === 'interrupted' && projectId !== undefined && !draft.removed && !destroyed) {
      if (draft.projectId === undefined) {
        draft.projectId = projectId;
        if (draft.key !== projectId) rekey(draft, projectId);
      }
      draft.status = 'recovering';
      draft.error = result.error;
      persist(draft);
      log(
        'error',
        `The stream was interrupted${result.error === undefined ? '' : ` (${result.error.message})`}`,
        draft.key,
      );
      dirtyDrafts.add(draft);
      requestPublish(true);
      startRecovery(run, projectId);
      return;
    }
    finish(run, result);
  }

  function onEvent(run: Run, event: AgentEvent): void {
    if (run.settled || destroyed || run.ended) return;
    const { draft } = run;
    const first = draft.eventCount === 0;
    stats.events++;
    const applied = applyGenerationEvent(draft, event, now());
    // Nothing after a terminal event counts, even if the same network chunk carried more.
    if (applied.terminal) run.ended = true;
    if (!draft.removed) {
      if (applied.projectCreated && draft.projectId !== undefined) rekey(draft, draft.projectId);
      if (applied.projectCreated || applied.terminal || (first && draft.projectId !== undefined)) persist(draft);
      log('event', applied.text, draft.key);
      dirtyDrafts.add(draft);
      requestPublish(applied.terminal);
      if (first && draft.projectId !== undefined) pollers.refresh(draft.projectId);
    }
  }

  function start(
    kind: GenerationKind,
    projectId: string | undefined,
    prompt: string,
    mode: GenerationMode,
  ): Promise<GenerationActionResult> {
    const key = projectId ?? `pending:${++pendingId}`;
    const draft = createGenerationDraft({ key, kind, mode, prompt, projectId, startedAt: now(), toolLimit });
    const run = createRun(draft);
    place(draft);
    setCurrent(key);
    log('action', kind === 'generate' ? `Generate (${mode})` : `Follow-up on ${String(projectId)}`, key);
    if (destroyed) {
      finish(run, { outcome: 'aborted', error: new AgentApiError('aborted', 'The store was destroyed.') });
      return run.promise;
    }
    if (kind === 'followUp') persist(draft);
    requestPublish(true);
    const streamOptions = { signal: run.controller.signal, onEvent: (event: AgentEvent) => onEvent(run, event) };
    const call =
      kind === 'generate'
        ? client.generate({ prompt, mode }, streamOptions)
        : client.followUp(projectId as string, { prompt }, streamOptions);
    call.then(
      (result) => settle(run, result),
      (thrown: unknown) => {
        const error = toApiError(thrown);
        // A 400 "not enough credits" before the stream is the same situation as the event during it.
        const outcome =
          error.kind === 'aborted' ? 'aborted' : error.kind === 'insufficient_credits' ? 'credits_exhausted' : 'failed';
        if (outcome !== 'aborted') draft.refused = true;
        finish(run, { outcome, error });
      },
    );
    return run.promise;
  }

  function findRun(key: string | undefined): Run | undefined {
    if (key === undefined) return undefined;
    for (const run of runs) if (run.draft.key === key) return run;
    return undefined;
  }

  function cancel(key: string | undefined = currentKey): void {
    const run = findRun(key);
    if (run === undefined) return;
    if (run.draft.status === 'recovering') {
      log('action', 'Stopped waiting for the outcome', run.draft.key);
      finish(run, {
        outcome: 'interrupted',
        ...(run.draft.projectId === undefined ? {} : { projectId: run.draft.projectId }),
        error: run.draft.error ?? new AgentApiError('aborted', 'Stopped waiting for the outcome.'),
      });
      return;
    }
    log('action', 'Cancel', run.draft.key);
    run.controller.abort();
  }

  const lifetime = new AbortController();
  const logNow = (kind: AgentLogKind, text: string) => {
    log(kind, text, undefined);
    requestPublish(true);
  };
  const conversationOptions = {
    client,
    storage: options.storage === undefined ? defaultStorage() : options.storage,
    storageKey: options.storageKey ?? defaultStorageKey,
  };
  const store = createStore<AgentState>()((set, get) => ({
    ...createIntegrationSlices({ client, set, get, now, signal: lifetime.signal, log: logNow }),
    ...createConversationSlice(get, set, conversationOptions),
    generations: {},
    currentKey: undefined,
    projects: {},
    log: [],
    generate(input) {
      const active = runs.values().next();
      if (!active.done) return active.value.promise;
      return start('generate', undefined, input.prompt, input.mode ?? 'build');
    },
    followUp(projectId, input) {
      for (const run of runs) if (run.draft.projectId === projectId || run.draft.key === projectId) return run.promise;
      return start('followUp', projectId, input.prompt, drafts.get(projectId)?.mode ?? 'build');
    },
    cancel,
    watchProject(projectId) {
      return pollers.watch(projectId);
    },
    resume() {
      if (resumed || destroyed) return;
      resumed = true;
      const saved = persistence.read();
      if (saved === undefined || drafts.has(saved.projectId)) return;
      // `interrupted` is retried too: after a reload the outcome may well be known by now.
      const unfinished = !isGenerationSettled(saved.status) || saved.status === 'interrupted';
      const draft = createGenerationDraft({
        key: saved.projectId,
        kind: saved.kind,
        mode: saved.mode,
        prompt: '',
        projectId: saved.projectId,
        startedAt: now(),
        toolLimit,
        status: unfinished ? 'recovering' : saved.status,
        appUrl: saved.appUrl,
      });
      draft.error = savedError(saved);
      if (!unfinished) draft.endedAt = now();
      place(draft);
      if (currentKey === undefined) setCurrent(draft.key);
      log('action', `Resumed project ${saved.projectId} (${saved.status})`, draft.key);
      requestPublish(true);
      if (unfinished) startRecovery(createRun(draft), saved.projectId);
    },
    newProject() {
      setCurrent(undefined);
      requestPublish(true);
    },
    reset(key = currentKey) {
      if (key === undefined) return;
      const run = findRun(key);
      cancel(key);
      // A reset generation no longer blocks new ones, even before its aborted stream has settled.
      if (run !== undefined) runs.delete(run);
      const draft = drafts.get(key);
      if (draft === undefined) return;
      draft.removed = true;
      drafts.delete(key);
      removedKeys.add(key);
      dirtyDrafts.delete(draft);
      if (draft.projectId !== undefined) persistence.forget(draft.projectId);
      if (currentKey === key) setCurrent(undefined);
      log('action', `Reset ${key}`, undefined);
      requestPublish(true);
    },
  }));

  const stopRecording = recordConversation(store, conversationOptions);

  return Object.assign(store, {
    client,
    getStats: () => ({ ...stats }),
    destroy() {
      if (destroyed) return;
      destroyed = true;
      lifetime.abort();
      stopRecording();
      batcher.stop();
      for (const run of [...runs]) {
        if (run.draft.status === 'recovering')
          finish(run, { outcome: 'interrupted', error: new AgentApiError('aborted', 'The store was destroyed.') });
        else run.controller.abort();
      }
      pollers.stopAll();
    },
  });
}

function createIntegrationSlices(context: SliceContext<AgentState>): DeploymentsSlice & CodehostSlice & PlansSlice {
  return { ...createDeploymentsSlice(context), ...createCodehostSlice(context), ...createPlansSlice(context) };
}
