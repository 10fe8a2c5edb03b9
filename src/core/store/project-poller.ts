/**
 * Shared project-status pollers: one per project however many watchers, paused while the page is hidden,
 * stopped on a terminal status, backing off on errors and waiting out Retry-After on 429.
 */
import type { AgentClient } from '../wire/client.js';
import { AgentApiError, isAgentApiError } from '../wire/errors.js';
import { polledStatusOf } from '../wire/generation-machine.js';
import type { Project } from '../wire/resources.js';

/**
 * Where the poller of a project is: `loading` (first request in flight), `polling` (live, waiting for the
 * next poll), `paused` (page hidden), `settled` (terminal project status), `error` (a failure that polling
 * again cannot fix, e.g. 404), `stopped` (nobody watches).
 */
export type ProjectWatchStatus = 'loading' | 'polling' | 'paused' | 'settled' | 'error' | 'stopped';

/** What the store knows about a project from polling its status. */
export interface ProjectSnapshot {
  projectId: string;
  status: ProjectWatchStatus;
  project: Project | undefined;
  /** The last failure; kept while polling goes on with backoff, cleared by the next success. */
  error: AgentApiError | undefined;
  /** When the last successful poll answered (the store's clock). */
  updatedAt: number | undefined;
}

/** Whether a project status is terminal (polling stops): the machine's reading of a poll (`polledStatusOf`). */
export function isTerminalProjectStatus(status: string | undefined): boolean {
  return polledStatusOf(status) !== 'building';
}

// Polling again cannot fix these; anything else (network, 5xx, 429) is retried with backoff.
const fatalKinds = new Set(['not_found', 'unauthorized', 'token_expired', 'suspended', 'forbidden', 'validation']);

/** Callbacks of one watcher. */
export interface ProjectWatcher {
  onProject?(project: Project): void;
  onFatal?(error: AgentApiError): void;
}

/** What the pollers need from the store. */
export interface ProjectPollersOptions {
  client: AgentClient;
  pollIntervalMs: number;
  maxPollIntervalMs: number;
  setTimeout: (callback: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
  now: () => number;
  isHidden: () => boolean;
  onVisibilityChange: (listener: () => void) => () => void;
  /** Whether a live event stream reports on the project now: polls then wait instead of spending the rate limit. */
  isStreaming: (projectId: string) => boolean;
  /** Called with every new snapshot; the store publishes it. */
  onSnapshot(snapshot: ProjectSnapshot): void;
  /** Called with every answer of a poll (never a cached one): the store hands it to the project's generation. */
  onProject(projectId: string, project: Project): void;
  log(text: string, isError: boolean): void;
}

/** The pollers of one store. */
export interface ProjectPollers {
  /** Starts (or joins) the poller of a project. `fresh` polls now even if it had settled. */
  watch(projectId: string, watcher?: ProjectWatcher, options?: { fresh?: boolean }): () => void;
  /** Polls now if anyone watches (e.g. after a follow-up changed the project). */
  refresh(projectId: string): void;
  /** How many pollers exist (for tests and diagnostics). */
  readonly size: number;
  stopAll(): void;
}

/**
 * What the poller of a project is doing: nothing scheduled (`idle`: settled, failed or just created), waiting
 * for its next poll, fetching, or paused until the page is visible again.
 */
type PollerPhase =
  | { name: 'idle' }
  | { name: 'waiting'; timer: unknown }
  | { name: 'fetching'; controller: AbortController }
  | { name: 'paused'; unsubscribe: () => void };

interface Poller {
  projectId: string;
  watchers: Set<ProjectWatcher>;
  snapshot: ProjectSnapshot;
  /** Bumped whenever the loop is restarted or stopped, so late answers of an old loop are ignored. */
  run: number;
  phase: PollerPhase;
  delay: number;
  /** The pending removal after the last watcher left (cancelled if one comes back first). */
  teardown: { timer: unknown } | undefined;
}

/** Creates the pollers of a store. */
export function createProjectPollers(options: ProjectPollersOptions): ProjectPollers {
  const pollers = new Map<string, Poller>();
  const { client } = options;

  function publish(poller: Poller, patch: Partial<Omit<ProjectSnapshot, 'projectId'>>): void {
    poller.snapshot = { ...poller.snapshot, ...patch };
    options.onSnapshot(poller.snapshot);
  }

  /** Cancels what the current phase holds (timer, request, visibility listener) and goes idle. */
  function leavePhase(poller: Poller): void {
    const { phase } = poller;
    if (phase.name === 'waiting') options.clearTimeout(phase.timer);
    else if (phase.name === 'fetching') phase.controller.abort();
    else if (phase.name === 'paused') phase.unsubscribe();
    poller.phase = { name: 'idle' };
  }

  function halt(poller: Poller): void {
    poller.run++;
    leavePhase(poller);
  }

  /** The wait after `delay` when asking again at once cannot help: doubled from the interval, up to the maximum. */
  function nextBackoff(delay: number): number {
    return Math.min(options.maxPollIntervalMs, Math.max(delay * 2, options.pollIntervalMs));
  }

  function schedule(poller: Poller, ms: number): void {
    leavePhase(poller);
    const run = poller.run;
    const timer = options.setTimeout(() => {
      if (run !== poller.run || poller.phase.name !== 'waiting' || poller.phase.timer !== timer) return;
      poller.phase = { name: 'idle' };
      void poll(poller, true);
    }, ms);
    poller.phase = { name: 'waiting', timer };
  }

  function pause(poller: Poller): void {
    leavePhase(poller);
    publish(poller, { status: 'paused' });
    const run = poller.run;
    const unsubscribe = options.onVisibilityChange(() => {
      if (run !== poller.run || options.isHidden()) return;
      leavePhase(poller);
      void poll(poller);
    });
    poller.phase = { name: 'paused', unsubscribe };
  }

  /** Polls now; a `scheduled` poll (not an explicit refresh) waits instead while a live stream reports. */
  async function poll(poller: Poller, scheduled = false): Promise<void> {
    if (poller.watchers.size === 0 || poller.phase.name === 'fetching') return;
    if (options.isHidden()) {
      pause(poller);
      return;
    }
    // The stream is fresher than any poll; explicit refreshes (first event, outcome) still go out.
    if (scheduled && options.isStreaming(poller.projectId)) {
      schedule(poller, options.pollIntervalMs);
      return;
    }
    leavePhase(poller);
    const run = poller.run;
    const controller = new AbortController();
    poller.phase = { name: 'fetching', controller };
    if (poller.snapshot.project === undefined && poller.snapshot.status !== 'loading')
      publish(poller, { status: 'loading' });
    let project: Project;
    try {
      project = await client.getProject(poller.projectId, { signal: controller.signal });
    } catch (thrown) {
      if (run !== poller.run) return;
      poller.phase = { name: 'idle' };
      const error = isAgentApiError(thrown)
        ? thrown
        : new AgentApiError('network', 'The Agent API could not be reached.', { cause: thrown });
      if (fatalKinds.has(error.kind)) {
        options.log(`Status of ${poller.projectId}: ${error.message} (polling stopped)`, true);
        publish(poller, { status: 'error', error });
        for (const watcher of [...poller.watchers]) watcher.onFatal?.(error);
        return;
      }
      poller.delay = nextBackoff(poller.delay);
      // A wait the API asked for (429, or 503 with Retry-After) is kept; the build log says it to the end user.
      const wait = error.retryAfterMs ?? poller.delay;
      options.log(`Status of ${poller.projectId}: ${error.message} (next try in ${wait} ms)`, true);
      publish(poller, { status: poller.snapshot.project === undefined ? 'loading' : 'polling', error });
      schedule(poller, wait);
      return;
    }
    if (run !== poller.run) return;
    poller.phase = { name: 'idle' };
    // A status the spec names as building is asked for again at the interval. Any other that is not an end (a word
    // the spec does not name, a null from a broken upstream) backs off as a failure does: asking faster cannot make it
    // say more, and each ask spends the team's rate budget.
    const building = project.project_status === 'provisioning' || project.project_status === 'generating';
    poller.delay = building ? options.pollIntervalMs : nextBackoff(poller.delay);
    const settled = isTerminalProjectStatus(project.project_status);
    options.log(`Status of ${poller.projectId}: ${String(project.project_status)}`, false);
    publish(poller, { status: settled ? 'settled' : 'polling', project, error: undefined, updatedAt: options.now() });
    options.onProject(poller.projectId, project);
    for (const watcher of [...poller.watchers]) watcher.onProject?.(project);
    if (!settled && poller.watchers.size > 0 && run === poller.run) schedule(poller, poller.delay);
  }

  function restart(poller: Poller): void {
    halt(poller);
    void poll(poller);
  }

  return {
    watch(projectId, watcher = {}, watchOptions = {}) {
      let poller = pollers.get(projectId);
      if (poller === undefined) {
        poller = {
          projectId,
          watchers: new Set(),
          snapshot: { projectId, status: 'loading', project: undefined, error: undefined, updatedAt: undefined },
          run: 0,
          phase: { name: 'idle' },
          delay: options.pollIntervalMs,
          teardown: undefined,
        };
        pollers.set(projectId, poller);
      }
      const current = poller;
      // A watcher arriving right after the last one left (React StrictMode) keeps the same loop.
      if (current.teardown !== undefined) options.clearTimeout(current.teardown.timer);
      current.teardown = undefined;
      // Each watcher gets its own entry, so the same callbacks object may watch twice.
      const entry: ProjectWatcher = { ...watcher };
      current.watchers.add(entry);
      const settledOrFailed = current.snapshot.status === 'settled' || current.snapshot.status === 'error';
      const { phase } = current;
      if (phase.name !== 'fetching' && phase.name !== 'paused') {
        if (watchOptions.fresh === true) restart(current);
        else if (phase.name === 'idle' && !settledOrFailed) restart(current);
      }
      let active = true;
      return () => {
        if (!active) return;
        active = false;
        current.watchers.delete(entry);
        if (current.watchers.size > 0 || current.teardown !== undefined) return;
        const timer = options.setTimeout(() => {
          current.teardown = undefined;
          if (current.watchers.size > 0) return;
          halt(current);
          pollers.delete(projectId);
          publish(current, {
            status:
              current.snapshot.status === 'settled' || current.snapshot.status === 'error'
                ? current.snapshot.status
                : 'stopped',
          });
        }, 0);
        current.teardown = { timer };
      };
    },
    refresh(projectId) {
      const poller = pollers.get(projectId);
      if (poller === undefined || poller.watchers.size === 0) return;
      if (poller.phase.name === 'fetching' || poller.phase.name === 'paused') return;
      restart(poller);
    },
    get size() {
      return pollers.size;
    },
    stopAll() {
      for (const poller of pollers.values()) {
        if (poller.teardown !== undefined) options.clearTimeout(poller.teardown.timer);
        poller.teardown = undefined;
        halt(poller);
        poller.watchers.clear();
      }
      pollers.clear();
    },
  };
}
