/**
 * The generations slice: generations keyed by project, the shared status pollers, and the runs behind them.
 * It applies the client's reducer to each event and adds only re-keying, persistence and publishing
 * (through the store's frame batcher). Generations run only when an action is called, never on their own.
 */
import type { AgentClient, GenerationResult } from '../wire/client.js';
import { AgentApiError, errorFromThrown } from '../wire/errors.js';
import type { AgentEvent } from '../wire/events.js';
import { isGenerationSettled, reduceGenerationEvent, type GenerationKind } from '../wire/generation-reducer.js';
import type { FollowUpInput, GenerateInput, GenerationMode } from '../wire/resources.js';
import {
  createStoreGeneration,
  describeGenerationEvent,
  type GenerationState,
  type StoreGeneration,
} from './generation.js';
import { createGenerationRegistry, type GenerationsPatch } from './generation-registry.js';
import { createProjectPersistence, savedError, type SavedProject } from './persistence.js';
import type { Platform } from './platform.js';
import { recoverOutcome, type RecoveryMethod } from './generation-recovery.js';
import { createProjectPollers, type ProjectSnapshot } from './project-poller.js';

/** Kinds of log entries. */
export type AgentLogKind = 'action' | 'event' | 'outcome' | 'poll' | 'error';

/** What a generation action resolves to: the client's result plus the generation's key in `generations`. */
export interface GenerationActionResult extends GenerationResult {
  key: string;
}

/** Generations, polled projects and their actions. */
export interface GenerationsSlice {
  /** By project id, or by a temporary `pending:N` key until `project_created` arrives. */
  generations: Record<string, GenerationState>;
  /** The key of this store's latest generation. */
  currentKey: string | undefined;
  /** Status polling results, by project id. */
  projects: Record<string, ProjectSnapshot>;
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

/** What the slice gets from the store. */
export interface GenerationsContext {
  client: AgentClient;
  platform: Platform;
  toolLimit: number;
  pollIntervalMs: number;
  maxPollIntervalMs: number;
  storageKey: string;
  stats: AgentStoreStats;
  /** Adds a line to the log; `undefined` when nobody listens, so no text is formatted. */
  log: ((kind: AgentLogKind, text: string, key: string | undefined) => void) | undefined;
  /** Asks the store's batcher to publish: at once, or with the next frame. */
  requestPublish(immediate: boolean): void;
}

/** The slice and what the store needs to publish it. */
export interface GenerationsController {
  slice: GenerationsSlice;
  hasPending(): boolean;
  /** The changed part of the slice since the last call, as a state patch. */
  takePatch(previous: Pick<GenerationsSlice, 'generations' | 'projects'>): GenerationsPatch;
  isRunning(): boolean;
  destroy(): void;
}

/** Where a run is: streaming its POST, recovering its outcome (replaying events, then polling), or settled. */
type RunPhase =
  { name: 'streaming' } | { name: 'recovering'; method: RecoveryMethod; stop: () => void } | { name: 'settled' };

interface Run {
  generation: StoreGeneration;
  controller: AbortController;
  promise: Promise<GenerationActionResult>;
  resolve: (result: GenerationActionResult) => void;
  phase: RunPhase;
}

/** Creates the generations slice of one store. */
export function createGenerationsSlice(context: GenerationsContext): GenerationsController {
  const { client, platform, stats, requestPublish } = context;
  const { now } = platform;
  const persistence = createProjectPersistence(platform.storage, context.storageKey);
  const registry = createGenerationRegistry();
  const runs = new Set<Run>();
  let pendingId = 0;
  let resumed = false;
  let destroyed = false;

  const log = (kind: AgentLogKind, text: () => string, key: string | undefined) => context.log?.(kind, text(), key);

  const pollers = createProjectPollers({
    client,
    pollIntervalMs: context.pollIntervalMs,
    maxPollIntervalMs: context.maxPollIntervalMs,
    setTimeout: platform.setTimeout,
    clearTimeout: platform.clearTimeout,
    now,
    isHidden: platform.isHidden,
    onVisibilityChange: platform.onVisibilityChange,
    isStreaming(projectId) {
      for (const run of runs) {
        const { generation } = run;
        const live =
          run.phase.name === 'streaming' || (run.phase.name === 'recovering' && run.phase.method === 'replay');
        if (
          live &&
          generation.projectId === projectId &&
          generation.endedAt === undefined &&
          (generation.status === 'provisioning' || generation.status === 'generating')
        )
          return true;
      }
      return false;
    },
    onSnapshot(snapshot) {
      registry.setProject(snapshot);
      requestPublish(true);
    },
    log(text, isError) {
      context.log?.(isError ? 'error' : 'poll', text, undefined);
    },
  });

  function persist(generation: StoreGeneration): void {
    if (generation.projectId === undefined || generation.removed) return;
    const saved: SavedProject = {
      projectId: generation.projectId,
      status: generation.status,
      kind: generation.kind,
      mode: generation.mode,
    };
    if (generation.appUrl !== undefined) saved.appUrl = generation.appUrl;
    if (generation.error !== undefined) {
      saved.errorKind = generation.error.kind;
      saved.errorCode = generation.error.code;
      saved.errorMessage = generation.error.message;
    }
    persistence.save(saved);
  }

  function createRun(generation: StoreGeneration): Run {
    let resolve!: (result: GenerationActionResult) => void;
    const promise = new Promise<GenerationActionResult>((done) => {
      resolve = done;
    });
    const run: Run = { generation, controller: new AbortController(), promise, resolve, phase: { name: 'streaming' } };
    runs.add(run);
    return run;
  }

  function finish(run: Run, result: GenerationResult): void {
    if (run.phase.name === 'settled') return;
    if (run.phase.name === 'recovering') run.phase.stop();
    run.phase = { name: 'settled' };
    runs.delete(run);
    const { generation } = run;
    const status = result.outcome;
    const error = status === 'completed' ? undefined : (result.error ?? generation.error);
    generation.projectId ??= result.projectId;
    registry.keyByProject(generation);
    // The events the store applied are the reference; the result only fills a gap.
    generation.appUrl ??= result.appUrl;
    const changed = generation.status !== status || generation.error !== error || generation.endedAt === undefined;
    generation.status = status;
    generation.error = error;
    generation.endedAt ??= now();
    const resolved: GenerationActionResult = { ...result, key: generation.key };
    if (generation.projectId !== undefined) resolved.projectId = generation.projectId;
    if (generation.appUrl !== undefined) resolved.appUrl = generation.appUrl;
    if (!generation.removed && !destroyed) {
      persist(generation);
      if (changed) {
        log(
          error === undefined ? 'outcome' : 'error',
          () => `Outcome: ${status}${error === undefined ? '' : ` (${error.message})`}`,
          generation.key,
        );
        registry.touch(generation);
        requestPublish(true);
      }
      if (generation.projectId !== undefined) pollers.refresh(generation.projectId);
    }
    run.resolve(resolved);
  }

  /** Recovers the outcome: replays events after `replayAfter` through the proxy, then polls the status. */
  function startRecovery(run: Run, projectId: string, replayAfter: number | undefined): void {
    const stop = recoverOutcome({
      client,
      pollers,
      projectId,
      replayAfter,
      onEvent: (event, eventId) => onEvent(run, event, eventId),
      onOutcome(result, project) {
        // The status endpoint is fresher than what the cut stream said.
        if (typeof project?.app_url === 'string') run.generation.appUrl = project.app_url;
        finish(run, result);
      },
      onFatal: (error) => finish(run, { outcome: 'interrupted', projectId, error }),
      onMethod(method) {
        if (run.phase.name !== 'recovering') return;
        run.phase = { ...run.phase, method };
        log(
          'action',
          () =>
            `Recovering the outcome of ${projectId} by ${method === 'replay' ? 'replaying its events' : 'polling its status'}`,
          run.generation.key,
        );
      },
    });
    if (run.phase.name === 'settled') stop();
    else run.phase = { name: 'recovering', method: replayAfter === undefined ? 'polling' : 'replay', stop };
  }

  function settle(run: Run, result: GenerationResult): void {
    if (run.phase.name === 'settled') return;
    const { generation } = run;
    generation.projectId ??= result.projectId;
    const projectId = generation.projectId;
    if (result.outcome === 'interrupted' && projectId !== undefined && !generation.removed && !destroyed) {
      registry.keyByProject(generation);
      generation.status = 'recovering';
      generation.error = result.error;
      persist(generation);
      log(
        'error',
        () => `The stream was interrupted${result.error === undefined ? '' : ` (${result.error.message})`}`,
        generation.key,
      );
      registry.touch(generation);
      requestPublish(true);
      // Events without ids (straight from the API, no proxy) cannot be resumed without repeating them.
      const idsKnown = generation.lastEventId > 0 || generation.eventCount === 0;
      startRecovery(run, projectId, idsKnown ? generation.lastEventId : undefined);
      return;
    }
    finish(run, result);
  }

  function onEvent(run: Run, event: AgentEvent, eventId: number | undefined): void {
    if (run.phase.name === 'settled' || destroyed) return;
    const { generation } = run;
    const first = generation.eventCount === 0;
    const applied = reduceGenerationEvent(generation, event, now());
    if (applied === 'ignored') return;
    if (eventId !== undefined) generation.lastEventId = eventId;
    stats.events++;
    if (generation.removed) return;
    registry.keyByProject(generation);
    if (applied !== 'applied' || (first && generation.projectId !== undefined)) persist(generation);
    log('event', () => describeGenerationEvent(event), generation.key);
    registry.touch(generation);
    requestPublish(applied === 'ended');
    if (first && generation.projectId !== undefined) pollers.refresh(generation.projectId);
  }

  function start(
    kind: GenerationKind,
    projectId: string | undefined,
    prompt: string,
    mode: GenerationMode,
  ): Promise<GenerationActionResult> {
    const key = projectId ?? `pending:${++pendingId}`;
    const generation = createStoreGeneration({
      key,
      kind,
      mode,
      prompt,
      projectId,
      startedAt: now(),
      toolLimit: context.toolLimit,
    });
    const run = createRun(generation);
    registry.place(generation);
    registry.setCurrent(key);
    log('action', () => (kind === 'generate' ? `Generate (${mode})` : `Follow-up on ${String(projectId)}`), key);
    if (destroyed) {
      finish(run, { outcome: 'aborted', error: new AgentApiError('aborted', 'The store was destroyed.') });
      return run.promise;
    }
    if (kind === 'followUp') persist(generation);
    requestPublish(true);
    const streamOptions = {
      signal: run.controller.signal,
      onEvent: (event: AgentEvent, eventId?: number) => onEvent(run, event, eventId),
    };
    const call =
      kind === 'generate'
        ? client.generate({ prompt, mode }, streamOptions)
        : client.followUp(projectId as string, { prompt }, streamOptions);
    call.then(
      (result) => settle(run, result),
      (thrown: unknown) => {
        const error = errorFromThrown(thrown, run.controller.signal);
        // A 400 "not enough credits" before the stream is the same situation as the event during it.
        const outcome =
          error.kind === 'aborted' ? 'aborted' : error.kind === 'insufficient_credits' ? 'credits_exhausted' : 'failed';
        if (outcome !== 'aborted') generation.refused = true;
        finish(run, { outcome, error });
      },
    );
    return run.promise;
  }

  function findRun(key: string | undefined): Run | undefined {
    if (key === undefined) return undefined;
    for (const run of runs) if (run.generation.key === key) return run;
    return undefined;
  }

  function cancel(key: string | undefined = registry.currentKey): void {
    const run = findRun(key);
    if (run === undefined) return;
    if (run.phase.name === 'recovering') {
      log('action', () => 'Stopped waiting for the outcome', run.generation.key);
      finish(run, {
        outcome: 'interrupted',
        ...(run.generation.projectId === undefined ? {} : { projectId: run.generation.projectId }),
        error: run.generation.error ?? new AgentApiError('aborted', 'Stopped waiting for the outcome.'),
      });
      return;
    }
    log('action', () => 'Cancel', run.generation.key);
    run.controller.abort();
  }

  const slice: GenerationsSlice = {
    generations: {},
    currentKey: undefined,
    projects: {},
    generate(input) {
      const active = runs.values().next();
      if (!active.done) return active.value.promise;
      return start('generate', undefined, input.prompt, input.mode ?? 'build');
    },
    followUp(projectId, input) {
      for (const run of runs)
        if (run.generation.projectId === projectId || run.generation.key === projectId) return run.promise;
      return start('followUp', projectId, input.prompt, registry.get(projectId)?.mode ?? 'build');
    },
    cancel,
    watchProject(projectId) {
      return pollers.watch(projectId);
    },
    resume() {
      if (resumed || destroyed) return;
      resumed = true;
      const saved = persistence.read();
      if (saved === undefined || registry.get(saved.projectId) !== undefined) return;
      // `interrupted` is retried too: after a reload the outcome may well be known by now.
      const unfinished = !isGenerationSettled(saved.status) || saved.status === 'interrupted';
      const generation = createStoreGeneration({
        key: saved.projectId,
        kind: saved.kind,
        mode: saved.mode,
        prompt: '',
        projectId: saved.projectId,
        startedAt: now(),
        toolLimit: context.toolLimit,
        status: unfinished ? 'recovering' : saved.status,
        appUrl: saved.appUrl,
      });
      generation.error = savedError(saved);
      if (!unfinished) generation.endedAt = now();
      registry.place(generation);
      if (registry.currentKey === undefined) registry.setCurrent(generation.key);
      log('action', () => `Resumed project ${saved.projectId} (${saved.status})`, generation.key);
      requestPublish(true);
      // A fresh generation replayed from the first event, so the whole file list, steps and progress come back.
      if (unfinished) startRecovery(createRun(generation), saved.projectId, 0);
    },
    reset(key = registry.currentKey) {
      if (key === undefined) return;
      const run = findRun(key);
      cancel(key);
      // A reset generation no longer blocks new ones, even before its aborted stream has settled.
      if (run !== undefined) runs.delete(run);
      const generation = registry.remove(key);
      if (generation === undefined) return;
      if (generation.projectId !== undefined) persistence.forget(generation.projectId);
      if (registry.currentKey === key) registry.setCurrent(undefined);
      log('action', () => `Reset ${key}`, undefined);
      requestPublish(true);
    },
  };

  return {
    slice,
    hasPending: registry.hasPending,
    takePatch(previous) {
      const count = { copied: 0 };
      const patch = registry.takePatch(previous, count);
      stats.copiedItems += count.copied;
      return patch;
    },
    isRunning: () => runs.size > 0,
    destroy() {
      if (destroyed) return;
      destroyed = true;
      for (const run of [...runs]) {
        if (run.phase.name === 'recovering')
          finish(run, { outcome: 'interrupted', error: new AgentApiError('aborted', 'The store was destroyed.') });
        else run.controller.abort();
      }
      pollers.stopAll();
    },
  };
}
