/**
 * The runs behind generations: one per generate, follow-up or recovery, from the POST (or the resume) to
 * its outcome. A run feeds the generation machine (docs/architecture.md) every event and lifecycle action,
 * then re-keys, persists and asks for a publish; it never writes a status itself. After a drop it recovers
 * the outcome (replay, then polling) and never sends its POST again.
 */
import type { AgentClient, GenerationResult } from '../wire/client.js';
import { AgentApiError, errorFromThrown, streamInterruptedError } from '../wire/errors.js';
import type { AgentEvent } from '../wire/events.js';
import { applyGenerationAction, generationOutcome, type GenerationAction } from '../wire/generation-machine.js';
import { reduceGenerationEvent } from '../wire/generation-reducer.js';
import { isGenerationReporting, isGenerationRunning, isGenerationSettled } from '../wire/generation-transitions.js';
import type { FrameBatcher, PublishTiming } from './frame-batcher.js';
import {
  createStoreGeneration,
  describeGenerationEvent,
  type AgentLogKind,
  type AgentStoreStats,
  type GenerationActionResult,
  type StoreGeneration,
  type StoreGenerationInit,
} from './generation.js';
import type { GenerationRegistry } from './generation-registry.js';
import { describeRecovery, recoverOutcome, type RecoveryMethod } from './generation-recovery.js';
import { savedProjectOf, type ProjectPersistence } from './persistence.js';
import { createStoppedNaming } from './stopped-naming.js';
import { burstClock } from './burst-clock.js';
import type { ProjectPollers } from './project-poller.js';

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
  /** Its POST has gone out: stopping it no longer keeps it from being sent. */
  sent?: boolean;
}

/** What the runs get from the slice (and its batcher's `afterPublish` and `publishThen`). */
export interface GenerationRunsContext extends Pick<FrameBatcher, 'afterPublish' | 'publishThen'> {
  client: AgentClient;
  now(): number;
  toolLimit: number;
  registry: GenerationRegistry;
  pollers: ProjectPollers;
  persistence: ProjectPersistence;
  stats: AgentStoreStats;
  /** Adds a line to the log; `undefined` when nobody listens, so `log?.(…)` does not even build the text's closure. */
  log: ((kind: AgentLogKind, text: () => string, key: string | undefined) => void) | undefined;
  requestPublish(timing: PublishTiming): void;
  isDestroyed(): boolean;
  /** Polls a project the store no longer streams until its build ends (a build stopped, then named). */
  watchUntilEnded(projectId: string): void;
}

/** The runs of one store. */
export interface GenerationRuns {
  /** Sends the POST of a new generation or a follow-up, under its `key`. */
  start(init: Omit<StoreGenerationInit, 'startedAt' | 'toolLimit'>): Promise<GenerationActionResult>;
  /** Recovers the outcome of a generation the store no longer streams (a reload, an opened project). */
  recover(
    generation: StoreGeneration,
    projectId: string,
    replayAfter: number | undefined,
  ): Promise<GenerationActionResult>;
  /** Aborts a streaming run, or stops waiting for a recovering one; returns its project id, if it has one. */
  cancel(key: string | undefined): string | undefined;
  /**
   * Applies a lifecycle action to a generation, publishes what changed and settles its run once the
   * generation has settled; false when the machine ignored it.
   */
  dispatch(generation: StoreGeneration, action: GenerationAction): boolean;
  find(key: string | undefined): Run | undefined;
  /** The run of a project, if one is in flight. */
  ofProject(projectId: string): Run | undefined;
  /** Forgets a generation (a reset): a stream still read on for its name (`createStoppedNaming`) is closed at once. */
  forget(generation: StoreGeneration): void;
  /** Whether a live stream (the POST's or a replay) reports on the project now. */
  isStreaming(projectId: string): boolean;
  persist(generation: StoreGeneration): void;
  readonly size: number;
  destroy(): void;
}

/** Creates the runs of one store. */
export function createGenerationRuns(context: GenerationRunsContext): GenerationRuns {
  const { client, now, registry, pollers, persistence, stats, log, requestPublish, afterPublish } = context;
  const arrivedAt = burstClock(now);
  const runs = new Set<Run>();
  const destroyed = () => context.isDestroyed();
  // Stopped before their project was named: their streams are read on until it is, and no further.
  const naming = createStoppedNaming({
    now,
    isDestroyed: destroyed,
    registry,
    publish: placeAndPublish,
    publishRemoval: () => requestPublish('now'),
    watchUntilEnded: context.watchUntilEnded,
  });

  /** Saves the project on screen as the last one (a build in the background is not what a reload should show). */
  function persist(generation: StoreGeneration): void {
    const saved = generation.removed || generation.key !== registry.currentKey ? undefined : savedProjectOf(generation);
    if (saved !== undefined) persistence.save(saved);
  }

  /** A generation's news: under its project's key, saved, and published at once. */
  function placeAndPublish(generation: StoreGeneration): void {
    registry.keyByProject(generation);
    persist(generation);
    registry.touch(generation);
    requestPublish('now');
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

  function runOf(generation: StoreGeneration): Run | undefined {
    for (const run of runs) if (run.generation === generation) return run;
    return undefined;
  }

  /** Ends a run: stops its recovery and resolves it with what its generation ended as (or `result`, if it did not). */
  function resolveRun(run: Run, result?: GenerationResult): void {
    if (run.phase.name === 'settled') return;
    if (run.phase.name === 'recovering') run.phase.stop();
    run.phase = { name: 'settled' };
    runs.delete(run);
    const { generation } = run;
    const outcome = generationOutcome(generation) ?? result?.outcome ?? 'interrupted';
    const error = outcome === 'completed' ? undefined : (generation.error ?? result?.error);
    const projectId = generation.projectId ?? result?.projectId;
    const appUrl = generation.appUrl ?? result?.appUrl;
    run.resolve({
      outcome,
      key: generation.key,
      ...(projectId === undefined ? {} : { projectId }),
      ...(appUrl === undefined ? {} : { appUrl }),
      ...(error === undefined ? {} : { error }),
    });
  }

  function dispatch(generation: StoreGeneration, action: GenerationAction): boolean {
    const before = generation.status;
    if (!applyGenerationAction(generation, action)) return false;
    if (generation.removed || destroyed()) return true;
    placeAndPublish(generation);
    const { status, error } = generation;
    if (status === before || !isGenerationSettled(status)) return true;
    log?.(
      error === undefined ? 'outcome' : 'error',
      () => `Outcome: ${status}${error === undefined ? '' : ` (${error.message})`}`,
      generation.key,
    );
    const run = runOf(generation);
    if (run !== undefined) resolveRun(run);
    // A poll said it: the poll is fresh. Otherwise the status shown beside the outcome is refreshed.
    if (generation.projectId !== undefined && action.type !== 'poll_result') pollers.refresh(generation.projectId);
    return true;
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
      folded: run.generation,
      // A replay that caught up with the build and then broke leaves it live: back to recovering, by polling. One
      // that reached the end has settled it (the run stops this recovery once the end is published).
      onReplayEnded(error) {
        if (generationOutcome(run.generation) !== undefined) return false;
        dispatch(run.generation, { type: 'dropped', error: error ?? streamInterruptedError('closed'), at: now() });
        return true;
      },
      onFatal: (error) => dispatch(run.generation, { type: 'recovery_failed', error, at: now() }),
      onMethod(method) {
        phase.method = method;
        log?.('action', () => describeRecovery(projectId, method), run.generation.key);
      },
    });
    // A recovery that settled at once (a synchronous answer) has nothing left to stop.
    if (!runs.has(run)) phase.stop();
  }

  /** The stream's call resolved: the machine hears how it closed; a drop with a known project is recovered. */
  function settle(run: Run, result: GenerationResult): void {
    // A stream read on for its project's name has ended, named or not.
    naming.forget(run);
    if (run.phase.name === 'settled') return;
    const { generation } = run;
    if (generation.removed || destroyed()) {
      resolveRun(run, result);
      return;
    }
    const at = now();
    if (result.outcome === 'interrupted') {
      const error = result.error ?? streamInterruptedError('closed');
      log?.('error', () => `The stream was interrupted (${error.message})`, generation.key);
      dispatch(generation, { type: 'dropped', error, at });
    } else if (result.outcome === 'aborted')
      dispatch(generation, {
        type: 'stop_watching',
        error: result.error ?? new AgentApiError('aborted', 'The request was cancelled.'),
        at,
      });
    if (!runs.has(run)) return;
    const projectId = generation.projectId;
    if (isGenerationRunning(generation.status) && projectId !== undefined) {
      // Events without ids (straight from the API, no proxy) cannot be resumed without repeating them.
      const idsKnown = generation.lastEventId > 0 || generation.eventCount === 0;
      startRecovery(run, projectId, idsKnown ? generation.lastEventId : undefined);
      return;
    }
    // An end the events reported may still wait for its publish.
    afterPublish(() => resolveRun(run, result));
  }

  // Out of `onEvent`: a closure there over its event or run would make every call allocate a context for them.
  function logEvent(event: AgentEvent, key: string): void {
    log?.('event', () => describeGenerationEvent(event), key);
  }
  function resolveAfterPublish(run: Run): void {
    afterPublish(() => resolveRun(run));
  }

  function onEvent(run: Run, event: AgentEvent, eventId: number | undefined): void {
    if (run.phase.name === 'settled' || destroyed()) {
      if (naming.has(run)) naming.onEvent(run, event);
      return;
    }
    const { generation } = run;
    const first = generation.eventCount === 0;
    const before = generation.status;
    const at = arrivedAt();
    const applied = reduceGenerationEvent(generation, event, at);
    if (applied === 'ignored') return;
    if (first) generation.firstEventAt = at;
    if (eventId !== undefined) generation.lastEventId = eventId;
    stats.events++;
    if (generation.removed) return;
    const newlyChanged = registry.touch(generation);
    // Most events only add detail (a file, a tool step): they show in the next publish, asked for once, not per event.
    if (applied === 'applied' && !first && generation.status === before) {
      if (log !== undefined) logEvent(event, generation.key);
      if (newlyChanged) requestPublish('frame');
      return;
    }
    registry.keyByProject(generation);
    if (applied !== 'applied' || (first && generation.projectId !== undefined)) persist(generation);
    if (log !== undefined) logEvent(event, generation.key);
    // A new status, a named project or the end publishes with the rest of its slice, the detail in the next frame;
    // a run resolves once its end is published, so whoever awaits it reads a state with the end in it.
    requestPublish(applied !== 'applied' || generation.status !== before ? 'soon' : 'frame');
    if (applied === 'ended') resolveAfterPublish(run);
    if ((applied === 'ended' || first) && generation.projectId !== undefined) pollers.refresh(generation.projectId);
  }

  function start(init: Omit<StoreGenerationInit, 'startedAt' | 'toolLimit'>): Promise<GenerationActionResult> {
    const { kind, key, projectId, prompt, mode } = init;
    const generation = createStoreGeneration({ ...init, startedAt: now(), toolLimit: context.toolLimit });
    applyGenerationAction(generation, { type: 'started' });
    const run = createRun(generation);
    registry.place(generation);
    registry.setCurrent(key);
    log?.('action', () => (kind === 'generate' ? `Generate (${mode})` : `Follow-up on ${String(projectId)}`), key);
    if (destroyed()) {
      stopWatching(run, 'The store was destroyed.');
      return run.promise;
    }
    if (kind === 'followUp') persist(generation);
    // The click shows first, its POST goes after (see FrameBatcher.publishThen). A run stopped by then has settled, and
    // the client sends nothing on an aborted signal.
    context.publishThen(() => {
      run.sent = !run.controller.signal.aborted;
      const streamOptions = {
        signal: run.controller.signal,
        onEvent: (event: AgentEvent, eventId?: number) => onEvent(run, event, eventId),
        folded: generation,
      };
      const call =
        kind === 'generate'
          ? client.generate({ prompt, mode }, streamOptions)
          : client.followUp(projectId as string, { prompt }, streamOptions);
      call.then(
        (result) => settle(run, result),
        (thrown: unknown) => {
          // Refused, after a stop too (its stream read on for a name has ended): nothing was built.
          naming.forget(run);
          const error = errorFromThrown(thrown, run.controller.signal);
          if (error.kind === 'aborted') settle(run, { outcome: 'aborted', error });
          else if (generation.removed || destroyed()) resolveRun(run, { outcome: 'failed', error });
          else dispatch(generation, { type: 'refused', error, at: now() });
        },
      );
    });
    return run.promise;
  }

  function findRun(key: string | undefined): Run | undefined {
    for (const run of runs) if (run.generation.key === key) return run;
    return undefined;
  }

  /**
   * Stops watching a run (the person, or the store's end): the machine settles it at once; a stream is closed, or,
   * when the person stops a sent POST whose project is not named yet, read on until it is (`createStoppedNaming`).
   */
  function stopWatching(run: Run, message: string, readOnToName = false): void {
    log?.('action', () => message, run.generation.key);
    dispatch(run.generation, { type: 'stop_watching', error: new AgentApiError('aborted', message), at: now() });
    resolveRun(run);
    if (readOnToName && run.sent && run.generation.projectId === undefined) naming.add(run);
    else run.controller.abort();
  }

  function cancel(key: string | undefined = registry.currentKey): string | undefined {
    const run = findRun(key);
    if (run === undefined) return;
    // The stream or the recovery alike: the person stopped watching (the build may go on).
    stopWatching(run, 'Stopped watching.', run.phase.name === 'streaming');
    return run.generation.projectId;
  }

  return {
    start,
    recover(generation, projectId, replayAfter) {
      const run = createRun(generation);
      startRecovery(run, projectId, replayAfter);
      return run.promise;
    },
    cancel,
    dispatch,
    find: findRun,
    ofProject(projectId) {
      for (const run of runs)
        if (run.generation.projectId === projectId || run.generation.key === projectId) return run;
      return undefined;
    },
    forget: (generation) => naming.close(generation),
    isStreaming(projectId) {
      for (const run of runs) {
        const { generation } = run;
        const live =
          run.phase.name === 'streaming' || (run.phase.name === 'recovering' && run.phase.method === 'replay');
        if (live && generation.projectId === projectId && isGenerationReporting(generation.status)) return true;
      }
      return false;
    },
    persist,
    get size() {
      return runs.size;
    },
    destroy() {
      for (const run of [...runs]) stopWatching(run, 'The store was destroyed.');
      naming.destroy();
    },
  };
}
