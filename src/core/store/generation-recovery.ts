/**
 * How the store learns the outcome of a generation whose stream it lost (a drop, a reload): first through
 * the agency proxy's events route (a replay after the last event applied, then live to the end, so files,
 * steps and progress come back whole), and when that has nothing or fails, by watching the project status
 * (each answer reaches the generation machine as a `poll_result`); a replay that found nothing recorded yet is tried
 * again when a poll says the build goes on. It never sends a generate or follow-up POST.
 */
import type { AgentClient } from '../wire/client.js';
import type { AgentApiError } from '../wire/errors.js';
import type { AgentEvent } from '../wire/events.js';
import type { GenerationDraft } from '../wire/generation-reducer.js';
import { polledStatusOf } from '../wire/generation-machine.js';
import type { ProjectPollers } from './project-poller.js';

/** How a recovery is getting the outcome: replaying events through the proxy, or polling the status. */
export type RecoveryMethod = 'replay' | 'polling';

/** What a recovery needs. */
export interface RecoveryOptions {
  client: AgentClient;
  pollers: ProjectPollers;
  projectId: string;
  /** Replay after this event id first; `undefined` polls at once (the events carried no ids). */
  replayAfter: number | undefined;
  onEvent(event: AgentEvent, eventId: number | undefined): void;
  /** The generation `onEvent` applies the replayed events to (the client reads the replay's result from it). */
  folded: GenerationDraft;
  /** The replay ended (or could not start); true when it left the outcome unknown, and polling comes next. */
  onReplayEnded(error: AgentApiError | undefined): boolean;
  /** Polling cannot help (the project is gone, access refused). */
  onFatal(error: AgentApiError): void;
  onMethod(method: RecoveryMethod): void;
}

/** The log's line for a recovery's method. */
export function describeRecovery(projectId: string, method: RecoveryMethod): string {
  return `Recovering the outcome of ${projectId} by ${method === 'replay' ? 'replaying its events' : 'polling its status'}`;
}

/**
 * How many more times a replay that found nothing recorded (204) is tried, each when a status poll after the first
 * says the project builds: the proxy records a change only once the upstream has answered it (within its 30 s
 * headers deadline; five polls 6 s apart by default), and until then has nothing to replay. The first poll answers at
 * once, too soon after the 204 to find more.
 */
const replayRetries = 5;

/** Starts recovering; returns the function that stops it (the run stops it once its generation has settled). */
export function recoverOutcome(options: RecoveryOptions): () => void {
  const { projectId } = options;
  const controller = new AbortController();
  let stopPolling: (() => void) | undefined;
  let stopped = false;

  let retriesLeft = replayRetries;

  /** Polls the status; with `replayAgainAfter`, a later poll that says the build goes on tries that replay again. */
  function poll(replayAgainAfter: number | undefined): void {
    if (stopped) return;
    options.onMethod('polling');
    let answers = 0;
    stopPolling = options.pollers.watch(
      projectId,
      {
        onProject(project) {
          answers += 1;
          if (stopped || replayAgainAfter === undefined || retriesLeft === 0 || answers === 1) return;
          if (polledStatusOf(project.project_status) !== 'building') return;
          retriesLeft -= 1;
          stopPolling?.();
          stopPolling = undefined;
          replay(replayAgainAfter);
        },
        onFatal(error) {
          if (!stopped) options.onFatal(error);
        },
      },
      { fresh: true },
    );
    if (stopped) stopPolling();
  }

  function replay(after: number): void {
    options.onMethod('replay');
    // A replay that reached a terminal event has settled the generation, and so stopped this recovery.
    options.client.projects
      .events(projectId, { after, signal: controller.signal, onEvent: options.onEvent, folded: options.folded })
      .then(
        (result) => {
          // 204: the proxy has nothing after that id yet, as for a change on its way to it that it has not recorded.
          if (!stopped && options.onReplayEnded(result.error)) poll(result.error?.status === 204 ? after : undefined);
        },
        () => {
          if (!stopped && options.onReplayEnded(undefined)) poll(undefined);
        },
      );
  }

  if (options.replayAfter === undefined) poll(undefined);
  else replay(options.replayAfter);

  return () => {
    stopped = true;
    controller.abort();
    stopPolling?.();
  };
}
