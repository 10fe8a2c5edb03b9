/**
 * The generations slice: generations keyed by project, the shared status pollers, and the runs behind them.
 * It applies the client's reducer to each event and adds only re-keying, persistence and publishing
 * (through the store's frame batcher). Generations run only when an action is called, never on their own.
 */
import type { AgentClient } from '../wire/client.js';
import type { AgentApiError } from '../wire/errors.js';
import { adoptedStatusOf, applyGenerationAction, generationOutcome, isRecovering } from '../wire/generation-machine.js';
import type { AdoptedStatus, GenerationStatus } from '../wire/generation-transitions.js';
import {
  afterGenerationOf,
  firstEventIdOfGeneration,
  generationOfEventId,
  type ProjectSummary,
} from '../wire/proxy-resources.js';
import type { FollowUpInput, GenerateInput } from '../wire/resources.js';
import {
  createStoreGeneration,
  type AgentLogKind,
  type AgentStoreStats,
  type GenerationActionResult,
  type GenerationState,
} from './generation.js';
import { createGenerationRegistry, type GenerationsPatch } from './generation-registry.js';
import { createGenerationRuns } from './generation-runs.js';

export type { AgentLogKind, AgentStoreStats, GenerationActionResult } from './generation.js';
import { createProjectPersistence, savedError } from './persistence.js';
import type { FrameBatcher, PublishTiming } from './frame-batcher.js';
import type { Platform } from './platform.js';
import { createProjectPollers, isTerminalProjectStatus, type ProjectSnapshot } from './project-poller.js';

/** Generations, polled projects and their actions. */
export interface GenerationsSlice {
  /** By project id, or by a temporary `pending:N` key until `project_created` arrives. */
  generations: Record<string, GenerationState>;
  /** The key of this store's latest generation. */
  currentKey: string | undefined;
  /** Status polling results, by project id. */
  projects: Record<string, ProjectSnapshot>;
  /**
   * Starts a new project. While the current generation is in flight (a double click, a second call), returns its
   * promise and sends nothing; a build of another project running in the background does not hold a new one. Never
   * rejects: a refusal resolves with outcome `failed` and the error.
   */
  generate(input: GenerateInput): Promise<GenerationActionResult>;
  /** Sends a follow-up prompt; while one runs for that project, returns its promise and sends nothing. */
  followUp(projectId: string, input: FollowUpInput): Promise<GenerationActionResult>;
  /**
   * Stops watching a generation (default: the current one): its stream or its recovery is closed (the API has
   * no cancel, so the build may go on) and its project is polled until it ends, which settles the generation.
   */
  stopWatching(key?: string): void;
  /**
   * Tries a generation that ended badly again (default: the current one): an interrupted one is looked for again
   * (no new request); a failed or out-of-credits one sends its prompt once more, a new request from this call.
   * `undefined` when there is nothing to try again (running, completed, stopped, or no prompt).
   */
  retry(key?: string): Promise<GenerationActionResult> | undefined;
  /** Watches a project's status with the shared poller; returns the unsubscribe function. */
  watchProject(projectId: string): () => void;
  /** Restores the last project persisted in storage and, if its generation had not finished, recovers it. Idempotent. */
  resume(): void;
  /** Empties the stage for a new project: nothing is current any more (nothing is cancelled or forgotten). */
  newProject(): void;
  /** Forgets a generation (default: the current one), cancelling it first if it runs. */
  reset(key?: string): void;
}

/** What the slice gets from the store (and its batcher's `afterPublish` and `publishThen`). */
export interface GenerationsContext extends Pick<FrameBatcher, 'afterPublish' | 'publishThen'> {
  client: AgentClient;
  platform: Platform;
  toolLimit: number;
  pollIntervalMs: number;
  maxPollIntervalMs: number;
  storageKey: string;
  stats: AgentStoreStats;
  /** Adds a line to the log; `undefined` when nobody listens, so no text is formatted. */
  log: ((kind: AgentLogKind, text: string, key: string | undefined) => void) | undefined;
  /** Asks the store's batcher to publish: at once, soon, or with the next frame. */
  requestPublish(timing: PublishTiming): void;
}

/** The slice and what the store needs to publish it. */
export interface GenerationsController {
  slice: GenerationsSlice;
  hasPending(): boolean;
  /** The changed part of the slice since the last call, as a state patch. */
  takePatch(previous: Pick<GenerationsSlice, 'generations' | 'projects'>): GenerationsPatch;
  isRunning(): boolean;
  /**
   * Makes a project the current one: a generation keyed by its id, settled and ready for a follow-up (or
   * recovered through its events when the proxy saw it building), persisted as the last project.
   */
  open(projectId: string, summary: ProjectSummary | undefined): void;
  /**
   * Polls a project the store no longer streams until its build ends (a stopped build, a change whose answer was
   * lost); `onFirstAnswer` hears whether the first answer found it ended already.
   */
  watchUntilEnded(projectId: string, onFirstAnswer?: (ended: boolean) => void): void;
  destroy(): void;
}

/** How a generation this browser saved before a reload is taken up again. */
function adoptedStatusOfSaved(status: GenerationStatus): AdoptedStatus {
  switch (status) {
    case 'idle':
      return 'unknown';
    case 'submitting':
    case 'provisioning':
    case 'generating':
    case 'recovering':
      return 'building';
    case 'completed':
      return 'ready';
    case 'aborted':
      return 'stopped';
    case 'failed':
    case 'credits_exhausted':
    case 'interrupted':
      return status;
    default:
      return status satisfies never;
  }
}

/**
 * The `after` of a replay of the generation a saved id was noted in, from its first event (0, the latest generation,
 * without an id). A follow-up saved before its first event holds the last id of the build before it (`afterGenerationOf`):
 * its replay is then the generation after that build.
 */
function replayStartOf(savedId: number): number {
  return savedId > 0 ? firstEventIdOfGeneration(generationOfEventId(savedId + 1)) - 1 : 0;
}

/** Creates the generations slice of one store. */
export function createGenerationsSlice(context: GenerationsContext): GenerationsController {
  const { client, platform, stats, requestPublish, afterPublish, publishThen } = context;
  const { now } = platform;
  const persistence = createProjectPersistence(platform.storage, context.storageKey);
  const registry = createGenerationRegistry();
  let pendingId = 0;
  let resumed = false;
  let destroyed = false;

  const { log: logLine } = context;
  const log =
    logLine === undefined
      ? undefined
      : (kind: AgentLogKind, text: () => string, key: string | undefined) => logLine(kind, text(), key);

  const pollers = createProjectPollers({
    client,
    pollIntervalMs: context.pollIntervalMs,
    maxPollIntervalMs: context.maxPollIntervalMs,
    setTimeout: platform.setTimeout,
    clearTimeout: platform.clearTimeout,
    now,
    isHidden: platform.isHidden,
    onVisibilityChange: platform.onVisibilityChange,
    isStreaming: (projectId) => runs.isStreaming(projectId),
    // A status answer, or a poll starting (a stream's first event or end refreshes it), publishes once the running
    // code has ended, as a stream's new status does: never in the middle of a slice, and one commit per frame.
    onSnapshot(snapshot) {
      registry.setProject(snapshot);
      requestPublish('soon');
    },
    onProject(projectId, project) {
      const generation = registry.get(projectId);
      if (generation === undefined) return;
      const { project_status, app_url } = project;
      const applied = runs.dispatch(generation, { type: 'poll_result', project_status, app_url, at: now() });
      // A change whose answer was lost, found building, is recovered as a dropped stream is: from its first event.
      if (applied && isRecovering(generation) && runs.find(generation.key) === undefined)
        void runs.recover(generation, projectId, generation.lastEventId);
    },
    log(text, isError) {
      context.log?.(isError ? 'error' : 'poll', text, undefined);
    },
  });

  const runs = createGenerationRuns({
    client,
    now,
    toolLimit: context.toolLimit,
    registry,
    pollers,
    persistence,
    stats,
    log,
    requestPublish,
    afterPublish,
    publishThen,
    isDestroyed: () => destroyed,
    watchUntilEnded,
  });

  /** A generation for a project the store did not start (a reload, an opened project), recovered if unfinished. */
  function adopt(init: {
    projectId: string;
    kind: 'generate' | 'followUp';
    mode: 'build' | 'design';
    as: AdoptedStatus;
    appUrl: string | undefined;
    name?: string | undefined;
    error?: AgentApiError | undefined;
    /** The saved project's last event id (`SavedProject.lastEventId`), if it has one. */
    lastEventId?: number | undefined;
  }) {
    const generation = createStoreGeneration({
      key: init.projectId,
      kind: init.kind,
      mode: init.mode,
      prompt: '',
      projectId: init.projectId,
      startedAt: now(),
      toolLimit: context.toolLimit,
      lastEventId: init.lastEventId,
    });
    generation.name = init.name;
    applyGenerationAction(generation, {
      type: 'adopted',
      as: init.as,
      app_url: init.appUrl,
      error: init.error,
      at: now(),
    });
    // After a reload the outcome of an interrupted generation may well be known by now: look again.
    applyGenerationAction(generation, { type: 'retry' });
    registry.place(generation);
    // A fresh generation replayed from its first event, so the whole file list, steps and progress come back.
    if (isRecovering(generation)) {
      generation.lastEventId = replayStartOf(generation.lastEventId);
      void runs.recover(generation, init.projectId, generation.lastEventId);
    }
    // One the person stopped watching before the reload is watched by polling until it ends, as it was then.
    else if (init.as === 'stopped') watchUntilEnded(init.projectId);
    return generation;
  }

  /** Polls a project the store no longer streams until its build ends; each answer reaches its generation. */
  function watchUntilEnded(projectId: string, onFirstAnswer?: (ended: boolean) => void): void {
    let answered = false;
    const stop = pollers.watch(
      projectId,
      {
        onProject(project) {
          const ended = isTerminalProjectStatus(project.project_status);
          if (!answered) {
            answered = true;
            onFirstAnswer?.(ended);
          }
          if (ended) stop();
        },
      },
      { fresh: true },
    );
  }

  const slice: GenerationsSlice = {
    generations: {},
    currentKey: undefined,
    projects: {},
    generate(input) {
      // The screen's generation in flight is this click's twin (a double click, a second call): it sends nothing. A
      // build of another project, left in the background when the person opened this one, does not hold a new one.
      const active = runs.find(registry.currentKey);
      if (active !== undefined) return active.promise;
      const key = `pending:${++pendingId}`;
      return runs.start({
        kind: 'generate',
        key,
        projectId: undefined,
        prompt: input.prompt,
        mode: input.mode ?? 'build',
      });
    },
    followUp(projectId, input) {
      const active = runs.ofProject(projectId);
      if (active !== undefined) return active.promise;
      // The app built before stays where it is (and on screen) while the follow-up changes it; a replay of the
      // follow-up asks for the generation after that build's, never that build again.
      const previous = registry.get(projectId);
      return runs.start({
        kind: 'followUp',
        key: projectId,
        projectId,
        prompt: input.prompt,
        mode: previous?.mode ?? 'build',
        appUrl: previous?.appUrl,
        lastEventId: afterGenerationOf(previous?.lastEventId ?? 0),
      });
    },
    stopWatching(key = registry.currentKey) {
      const projectId = runs.cancel(key);
      // Followed by polling until the build ends: each answer reaches the generation (see `onProject` above).
      if (projectId !== undefined) watchUntilEnded(projectId);
    },
    retry(key = registry.currentKey) {
      const generation = registry.get(key as string);
      if (!generation) return;
      const { projectId, prompt } = generation;
      // The machine says whether the outcome can be looked for again (an interrupted generation, not a running one).
      if (projectId !== undefined && runs.dispatch(generation, { type: 'retry' }))
        return runs.recover(generation, projectId, generation.lastEventId || undefined);
      const outcome = generationOutcome(generation);
      if ((outcome !== 'failed' && outcome !== 'credits_exhausted') || !prompt) return;
      return generation.kind === 'followUp' && projectId !== undefined
        ? slice.followUp(projectId, { prompt })
        : slice.generate({ prompt, mode: generation.mode });
    },
    watchProject(projectId) {
      return pollers.watch(projectId);
    },
    resume() {
      if (resumed || destroyed) return;
      resumed = true;
      const saved = persistence.read();
      if (saved === undefined || registry.get(saved.projectId) !== undefined) return;
      const generation = adopt({
        projectId: saved.projectId,
        kind: saved.kind,
        mode: saved.mode,
        as: adoptedStatusOfSaved(saved.status),
        appUrl: saved.appUrl,
        error: savedError(saved),
        lastEventId: saved.lastEventId,
      });
      if (registry.currentKey === undefined) registry.setCurrent(generation.key);
      log?.('action', () => `Resumed project ${saved.projectId} (${saved.status})`, generation.key);
      requestPublish('now');
    },
    newProject() {
      registry.setCurrent(undefined);
      requestPublish('now');
    },
    reset(key = registry.currentKey) {
      if (key === undefined) return;
      // A run in flight settles at once and no longer blocks new ones.
      runs.cancel(key);
      const generation = registry.remove(key);
      if (generation === undefined) return;
      // Stopped before it was named (just now, or earlier), its stream would be read on for the name: closed now, not
      // at its next event, which may be the proxy's idle deadline away; nothing of it reaches the store again.
      runs.forget(generation);
      if (generation.projectId !== undefined) persistence.forget(generation.projectId);
      if (registry.currentKey === key) registry.setCurrent(undefined);
      log?.('action', () => `Reset ${key}`, undefined);
      requestPublish('now');
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
    open(projectId, summary) {
      const running = runs.ofProject(projectId);
      const existing = registry.get(projectId);
      if (running === undefined && (existing === undefined || summary !== undefined)) {
        adopt({
          projectId,
          kind: 'followUp',
          mode: existing?.mode ?? 'build',
          as: adoptedStatusOf(summary?.project_status),
          appUrl: summary?.app_url ?? existing?.appUrl,
          name: summary?.name ?? undefined,
        });
      }
      registry.setCurrent(running?.generation.key ?? projectId);
      const generation = running?.generation ?? registry.get(projectId);
      if (generation !== undefined) runs.persist(generation);
      requestPublish('now');
      pollers.refresh(projectId);
    },
    watchUntilEnded,
    destroy() {
      if (destroyed) return;
      destroyed = true;
      runs.destroy();
      pollers.stopAll();
    },
  };
}
