/**
 * The agent store (zustand vanilla, one per provider): it composes the slices (generations, resources,
 * mutations, code host, the project list) and owns the frame batcher that publishes the generations slice
 * (first event at once, then at most once per frame, the final state at once).
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { AgentClient } from '../wire/client.js';
import { createCodehostSlice, type CodehostSlice } from './codehost-slice.js';
import { createFrameBatcher } from './frame-batcher.js';
import {
  createGenerationsSlice,
  type AgentLogKind,
  type AgentStoreStats,
  type GenerationsSlice,
} from './generations-slice.js';
import { resolvePlatform, type PlatformOptions } from './platform.js';
import { createConversationRecorder, readSaved, type ConversationSlice } from './conversation-slice.js';
import { generationOutcome, mayHaveStarted } from '../wire/generation-machine.js';
import { createProjectListSlice, type ProjectListSlice } from './project-list-slice.js';
import { createResourcesSlice, resourceSpecs, selectResource, type ResourcesSlice } from './resources.js';
import { withProjectStatus } from './project-rows.js';
import { createMutationsSlice, type MutationsSlice } from './mutations.js';
import { readPublishRecords, writePublishRecords } from './publish-records.js';
import type { SliceContext } from './slice-context.js';

export type { AgentLogKind, AgentStoreStats, GenerationActionResult } from './generations-slice.js';

/** One line of the store's log, handed to `onLog`. */
export interface AgentLogEntry {
  id: number;
  at: number;
  kind: AgentLogKind;
  text: string;
  /** The generation it is about, if any. */
  key: string | undefined;
}

/** State and actions of the store, one slice per family; server data lives in `resources`, server actions in `mutations`. */
export interface AgentState
  extends GenerationsSlice, ResourcesSlice, MutationsSlice, CodehostSlice, ProjectListSlice, ConversationSlice {}

/** A zustand vanilla store of `AgentState`, with its client and a few extras. */
export type AgentStore = StoreApi<AgentState> & {
  readonly client: AgentClient;
  getStats(): AgentStoreStats;
  /** Aborts streams, stops pollers and timers; the store publishes nothing afterwards. */
  destroy(): void;
};

/** Options of `createAgentStore`. Everything that touches the world can be injected (see `PlatformOptions`). */
export interface AgentStoreOptions extends PlatformOptions {
  client: AgentClient;
  /** Called with each log line (actions, events, outcomes, polls, errors); never holds a secret. */
  onLog?: (entry: AgentLogEntry) => void;
  /** Tool steps kept per generation (default 200). */
  toolLimit?: number;
  storageKey?: string;
  /** Interval between status polls (default 6000 ms: ten a minute, within the API's limit when nothing else runs). */
  pollIntervalMs?: number;
  /** Longest backoff between failed polls (default 30000 ms). */
  maxPollIntervalMs?: number;
}

/** Default key of the persisted last project. */
export const defaultStorageKey = 'agent-embed:last-project';

/**
 * After a POST failed on the network (`mayHaveStarted`), the waits before each look at whether the server builds the
 * change (its status: 3, 10 and 30 s after the failure, until one finds it building), and before the store asks what
 * such a build changed (the project list, a change's conversation): time enough for the proxy to relay it, then to
 * record it. A server slow to start the build is caught by a later look; one that never does costs three polls.
 */
const lostChangeLooksMs = [3_000, 7_000, 20_000];
const lostAnswerRecordsMs = 10_000;

/** Creates a store. Create one per provider (never a module singleton). */
export function createAgentStore(options: AgentStoreOptions): AgentStore {
  const { client, onLog } = options;
  const platform = resolvePlatform(options);
  const stats: AgentStoreStats = { events: 0, flushes: 0, copiedItems: 0 };
  let logId = 0;
  const log =
    onLog === undefined
      ? undefined
      : (kind: AgentLogKind, text: string, key: string | undefined) =>
          onLog({ id: ++logId, at: platform.now(), kind, text, key });
  let destroyed = false;
  const lookAgain = new Set<unknown>();
  /** Runs `look` after `ms` unless the store has ended by then. */
  function later(ms: number, look: () => void): void {
    const handle = platform.setTimeout(() => {
      lookAgain.delete(handle);
      if (!destroyed) look();
    }, ms);
    lookAgain.add(handle);
  }
  /** Looks after each wait whether the server builds a change whose answer was lost; one found building is followed. */
  function lookForLostChange(projectId: string, waits: readonly number[]): void {
    const [wait, ...more] = waits;
    if (wait === undefined) return;
    later(wait, () =>
      generations.watchUntilEnded(projectId, (ended) => {
        if (ended) lookForLostChange(projectId, more);
      }),
    );
  }
  /** Loads again what a build that ended changed: usage, and the proxy's records (the project list, its conversation). */
  function reloadWhatABuildChanged(projectId: string | undefined): void {
    const state = store.getState();
    state.invalidate('usage');
    state.invalidate('projects');
    if (projectId !== undefined) state.invalidate(`conversation:${projectId}`);
  }

  /**
   * A status answer that names a project is news about its row in the project list too. It is ordered by when it
   * answered: the proxy records what it relays, so a list answered later already says it.
   */
  function tellProjectList(before: AgentState, snapshots: AgentState['projects'] | undefined): void {
    for (const snapshot of Object.values(snapshots ?? {})) {
      const { project, projectId, updatedAt } = snapshot;
      if (project === undefined || project === before.projects[projectId]?.project) continue;
      const list = selectResource(store.getState(), resourceSpecs.projects).data;
      const told = list == null ? list : withProjectStatus(list, projectId, project);
      if (told !== list) store.getState().putResource(resourceSpecs.projects, told, updatedAt);
    }
  }

  const generations = createGenerationsSlice({
    client,
    platform,
    toolLimit: options.toolLimit ?? 200,
    pollIntervalMs: options.pollIntervalMs ?? 6000,
    maxPollIntervalMs: options.maxPollIntervalMs ?? 30000,
    storageKey: options.storageKey ?? defaultStorageKey,
    stats,
    log,
    requestPublish: (timing) => batcher.request(timing),
    afterPublish: (callback) => batcher.afterPublish(callback),
    publishThen: (then) => batcher.publishThen(then),
  });

  const conversationOptions = {
    storage: platform.storage,
    storageKey: options.storageKey ?? defaultStorageKey,
  };
  const publishKey = `${conversationOptions.storageKey}:publish`;
  const conversation = createConversationRecorder(conversationOptions);

  // On the platform's frames and tasks (`scheduleFlush`, `framesRun`, `yieldTask`).
  const batcher = createFrameBatcher({
    ...platform,
    hasPending: generations.hasPending,
    publish() {
      if (destroyed || !generations.hasPending()) return;
      stats.flushes++;
      const state = store.getState();
      const patch = generations.takePatch(state);
      const conversations =
        patch.generations === undefined
          ? undefined
          : conversation.apply(state.generations, patch.generations, state.conversations);
      store.setState(conversations === undefined ? patch : { ...patch, conversations });
      tellProjectList(state, patch.projects);
      // A generation that ended changed the quota (a refusal too: it may say the quota is used up, which only the
      // usage route counts) and maybe the project list (one that failed before its project reached this page may have
      // been built all the same); a build of a known project, the proxy's record of its conversation. One the person
      // stopped watching ends again when a poll sees its build end: the list and the record have changed since.
      for (const generation of Object.values(patch.generations ?? {})) {
        const before = state.generations[generation.key];
        const outcome = generationOutcome(generation);
        if (generation === before || outcome === undefined) continue;
        const outcomeBefore = before === undefined ? undefined : generationOutcome(before);
        if (outcomeBefore === outcome || (outcomeBefore !== undefined && outcomeBefore !== 'aborted')) continue;
        // A quota refusal tells the usage (the hold of every part that starts a build reads it), meter or not.
        const quota = generation.error?.quota;
        if (quota !== undefined)
          state.putResource(
            resourceSpecs.usage,
            { used: quota.used, limit: quota.limit, resets_at: quota.resetsAt, period: quota.period },
            generation.startedAt,
          );
        reloadWhatABuildChanged(generation.projectId);
        if (!mayHaveStarted(generation)) continue;
        // Its POST may have reached the server: a change is looked for (found building, the machine recovers it as a
        // dropped stream), and what it would change is asked for once more when the server has recorded it.
        const { projectId } = generation;
        if (projectId !== undefined) lookForLostChange(projectId, lostChangeLooksMs);
        later(lostAnswerRecordsMs, () => reloadWhatABuildChanged(projectId));
      }
    },
  });

  // A page hidden while a change waits for a frame would hold it, and the run it ends, until shown: it goes now.
  const stopFlushingOnHide = platform.onVisibilityChange(() => {
    if (platform.isHidden()) batcher.flush();
  });

  const lifetime = new AbortController();
  const store = createStore<AgentState>()((set, get) => {
    const context: SliceContext<AgentState> = {
      client,
      set,
      get,
      now: platform.now,
      signal: lifetime.signal,
      log: (kind, text) => log?.(kind, text, undefined),
    };
    const published = readPublishRecords(platform.storage, publishKey);
    return {
      ...createResourcesSlice(context, published.resources),
      ...createMutationsSlice(context, published.mutations),
      ...createCodehostSlice(context),
      ...createProjectListSlice(context, generations.open),
      conversations: readSaved(conversationOptions),
      ...generations.slice,
    };
  });
  store.subscribe((state, previous) => writePublishRecords(platform.storage, publishKey, state, previous));

  return Object.assign(store, {
    client,
    getStats: () => ({ ...stats }),
    destroy() {
      if (destroyed) return;
      destroyed = true;
      lifetime.abort();
      for (const handle of lookAgain) platform.clearTimeout(handle);
      stopFlushingOnHide();
      conversation.stop();
      batcher.stop();
      generations.destroy();
    },
  });
}
