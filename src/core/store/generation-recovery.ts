/**
 * How the store learns the outcome of a generation whose stream it lost (a drop, a reload): first through
 * the agency proxy's events route (a replay after the last event applied, then live to the end, so files,
 * steps and progress come back whole), and when that has nothing or fails, by polling the project status.
 * It never sends a generate or follow-up POST.
 */
import type { AgentClient, GenerationResult } from '../wire/client.js';
import { creditsExhaustedError, generationFailedError, type AgentApiError } from '../wire/errors.js';
import type { AgentEvent } from '../wire/events.js';
import type { Project } from '../wire/resources.js';
import { isTerminalProjectStatus, type ProjectPollers } from './project-poller.js';

/** The outcome a project status says, if it is terminal. */
export function outcomeOfProject(project: Project): GenerationResult | undefined {
  const ids = {
    projectId: project.project_id,
    ...(typeof project.app_url === 'string' ? { appUrl: project.app_url } : {}),
  };
  switch (project.project_status) {
    case 'ready':
      return { outcome: 'completed', ...ids };
    case 'failed':
      return { outcome: 'failed', ...ids, error: generationFailedError() };
    case 'credits_exhausted':
      return { outcome: 'credits_exhausted', ...ids, error: creditsExhaustedError() };
    default:
      return undefined;
  }
}

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
  /** The outcome, once known; `project` when it came from a status poll. */
  onOutcome(result: GenerationResult, project?: Project): void;
  /** Polling cannot help (the project is gone, access refused). */
  onFatal(error: AgentApiError): void;
  onMethod(method: RecoveryMethod): void;
}

/** Starts recovering; returns the function that stops it. */
export function recoverOutcome(options: RecoveryOptions): () => void {
  const { projectId } = options;
  const controller = new AbortController();
  let stopPolling: (() => void) | undefined;
  let stopped = false;

  function poll(): void {
    if (stopped) return;
    options.onMethod('polling');
    stopPolling = options.pollers.watch(
      projectId,
      {
        onProject(project) {
          if (stopped || !isTerminalProjectStatus(project.project_status)) return;
          const outcome = outcomeOfProject(project);
          if (outcome !== undefined) options.onOutcome(outcome, project);
        },
        onFatal(error) {
          if (!stopped) options.onFatal(error);
        },
      },
      { fresh: true },
    );
    if (stopped) stopPolling();
  }

  if (options.replayAfter === undefined) {
    poll();
  } else {
    options.onMethod('replay');
    options.client.projects
      .events(projectId, { after: options.replayAfter, signal: controller.signal, onEvent: options.onEvent })
      .then(
        (result) => {
          if (stopped) return;
          if (result.outcome === 'completed' || result.outcome === 'credits_exhausted' || result.outcome === 'failed')
            options.onOutcome(result);
          else poll();
        },
        () => poll(),
      );
  }

  return () => {
    stopped = true;
    controller.abort();
    stopPolling?.();
  };
}
