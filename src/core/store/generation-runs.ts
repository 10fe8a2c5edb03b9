/**
 * The runs behind generations: one per generate, follow-up or recovery, from the POST (or the resume) to
 * its outcome. A run applies the client's reducer to each event, re-keys, persists and asks for a publish;
 * after a drop it recovers the outcome (replay, then polling) and never sends its POST again.
 */
import type { AgentClient, GenerationResult } from '../wire/client.js';
import { AgentApiError, errorFromThrown } from '../wire/errors.js';
import type { AgentEvent } from '../wire/events.js';
import { reduceGenerationEvent, type GenerationKind } from '../wire/generation-reducer.js';
import type { GenerationMode } from '../wire/resources.js';
import { createStoreGeneration, describeGenerationEvent, type StoreGeneration } from './generation.js';
import type { GenerationRegistry } from './generation-registry.js';
import { recoverOutcome, type RecoveryMethod } from './generation-recovery.js';
import type { ProjectPersistence, SavedProject } from './persistence.js';
import type { ProjectPollers } from './project-poller.js';

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

/** Where a run is: streaming its POST, recovering its outcome (replaying events, then polling), or settled. */
type RunPhase =
  { name: 'streaming' } | { name: 'recovering'; method: RecoveryMethod; stop: () => void } | { name: 'settled' };

/** One generation in flight. */
export interface Run {
  generation: StoreGeneration;
  controller: AbortController;
  promise: Promise<GenerationActionResult>;
  resolve: (result: GenerationActionResult) => void;
  phase: RunPhase;
}

/** What the runs get from the slice. */
export interface GenerationRunsContext {
  client: AgentClient;
  now(): number;
  toolLimit: number;
  registry: GenerationRegistry;
  pollers: ProjectPollers;
  persistence: ProjectPersistence;
  stats: AgentStoreStats;
  /** Adds a line to the log; `undefined` when nobody listens, so `log?.(…)` does not even build the text's closure. */
  log: ((kind: AgentLogKind, text: () => string, key: string | undefined) => void) | undefined;
  requestPublish(immediate: boolean): void;
  isDestroyed(): boolean;
}

/** The runs of one store. */
export interface GenerationRuns {
  /** Sends the POST of a new generation or a follow-up, under `key`. */
  start(
    kind: GenerationKind,
    key: string,
    projectId: string | undefined,
    prompt: string,
    mode: GenerationMode,
    appUrl?: string,
  ): Promise<GenerationActionResult>;
  /** Recovers the outcome of a generation the store no longer streams (a reload, an opened project). */
  recover(
    generation: StoreGeneration,
    projectId: string,
    replayAfter: number | undefined,
  ): Promise<GenerationActionResult>;
  /** Aborts a streaming run, or stops waiting for a recovering one. */
  cancel(key: string | undefined): void;
  find(key: string | undefined): Run | undefined;
  /** The run of a project, if one is in flight. */
  ofProject(projectId: string): Run | undefined;
  /** Any run in flight. */
  first(): Run | undefined;
  /** Forgets a run: it no longer blocks new ones, even before its aborted stream has settled. */
  forget(run: Run): void;
  /** Whether a live stream (the POST's or a replay) reports on the project now. */
  isStreaming(projectId: string): boolean;
  persist(generation: StoreGeneration): void;
  readonly size: number;
  destroy(): void;
}

/**
 * The clock read once per burst: the events applied in one task came in one network chunk, so they arrived
 * together, and a clock read for each of them costs as much as the rest of their bookkeeping.
 */
function burstClock(now: () => number): () => number {
  let burstAt: number | undefined;
  const endBurst = () => {
    burstAt = undefined;
  };
  return () => {
    if (burstAt === undefined) {
      burstAt = now();
      queueMicrotask(endBurst);
    }
    return burstAt;
  };
}

/** Creates the runs of one store. */
export function createGenerationRuns(context: GenerationRunsContext): GenerationRuns {
  const { client, now, registry, pollers, persistence, stats, log, requestPublish } = context;
  const arrivedAt = burstClock(now);
  const runs = new Set<Run>();
  const destroyed = () => context.isDestroyed();

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
    if (!generation.removed && !destroyed()) {
      persist(generation);
      if (changed) {
        log?.(
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
    const phase: Extract<RunPhase, { name: 'recovering' }> = {
      name: 'recovering',
      method: replayAfter === undefined ? 'polling' : 'replay',
      stop: () => {},
    };
    run.phase = phase;
    phase.stop = recoverOutcome({
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
        phase.method = method;
        log?.(
          'action',
          () =>
            `Recovering the outcome of ${projectId} by ${method === 'replay' ? 'replaying its events' : 'polling its status'}`,
          run.generation.key,
        );
      },
    });
    // A recovery that settled at once (a synchronous answer) has nothing left to stop.
    if (!runs.has(run)) phase.stop();
  }

  function settle(run: Run, result: GenerationResult): void {
    if (run.phase.name === 'settled') return;
    const { generation } = run;
    generation.projectId ??= result.projectId;
    const projectId = generation.projectId;
    if (result.outcome === 'interrupted' && projectId !== undefined && !generation.removed && !destroyed()) {
      registry.keyByProject(generation);
      generation.status = 'recovering';
      generation.error = result.error;
      persist(generation);
      log?.(
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
    if (run.phase.name === 'settled' || destroyed()) return;
    const { generation } = run;
    const first = generation.eventCount === 0;
    const applied = reduceGenerationEvent(generation, event, arrivedAt());
    if (applied === 'ignored') return;
    if (eventId !== undefined) generation.lastEventId = eventId;
    stats.events++;
    if (generation.removed) return;
    registry.keyByProject(generation);
    if (applied !== 'applied' || (first && generation.projectId !== undefined)) persist(generation);
    log?.('event', () => describeGenerationEvent(event), generation.key);
    registry.touch(generation);
    requestPublish(applied === 'ended');
    if (first && generation.projectId !== undefined) pollers.refresh(generation.projectId);
  }

  function start(
    kind: GenerationKind,
    key: string,
    projectId: string | undefined,
    prompt: string,
    mode: GenerationMode,
    appUrl?: string,
  ): Promise<GenerationActionResult> {
    const generation = createStoreGeneration({
      key,
      kind,
      mode,
      prompt,
      projectId,
      startedAt: now(),
      toolLimit: context.toolLimit,
      appUrl,
    });
    const run = createRun(generation);
    registry.place(generation);
    registry.setCurrent(key);
    log?.('action', () => (kind === 'generate' ? `Generate (${mode})` : `Follow-up on ${String(projectId)}`), key);
    if (destroyed()) {
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
      log?.('action', () => 'Stopped waiting for the outcome', run.generation.key);
      finish(run, {
        outcome: 'interrupted',
        ...(run.generation.projectId === undefined ? {} : { projectId: run.generation.projectId }),
        error: run.generation.error ?? new AgentApiError('aborted', 'Stopped waiting for the outcome.'),
      });
      return;
    }
    log?.('action', () => 'Cancel', run.generation.key);
    run.controller.abort();
  }

  return {
    start,
    recover(generation, projectId, replayAfter) {
      const run = createRun(generation);
      startRecovery(run, projectId, replayAfter);
      return run.promise;
    },
    cancel,
    find: findRun,
    ofProject(projectId) {
      for (const run of runs)
        if (run.generation.projectId === projectId || run.generation.key === projectId) return run;
      return undefined;
    },
    first: () => runs.values().next().value,
    forget: (run) => runs.delete(run),
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
    persist,
    get size() {
      return runs.size;
    },
    destroy() {
      for (const run of [...runs]) {
        if (run.phase.name === 'recovering')
          finish(run, { outcome: 'interrupted', error: new AgentApiError('aborted', 'The store was destroyed.') });
        else run.controller.abort();
      }
    },
  };
}
