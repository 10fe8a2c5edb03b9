/**
 * One view of a project, derived once from the live generation (its stream) and the status poll, so that
 * every part of the screen tells the same story. Pure: it reads published state and nothing else.
 */
import type { AgentApiError } from '../wire/errors.js';
import { safeHttpUrl } from '../wire/safe-url.js';
import type { GenerationMode } from '../wire/resources.js';
import type { GenerationKind } from '../wire/generation-reducer.js';
import { generationCounts, generationOutcome, isGenerationBusy, isPreviewable } from '../wire/generation-machine.js';
import type { GenerationState } from './generation.js';
import type { ProjectSnapshot } from './project-poller.js';

/**
 * Where a project stands, for people. `stopped`: the person stopped watching the stream, the build may still
 * finish on the server (it is watched by polling until it does). `interrupted`: the connection was lost and the
 * outcome could not be found out. `gone`: the project's status answers that it does not exist, or not for this person
 * (deleted, or a proxy that no longer knows it): nothing of it can be shown or changed.
 */
export type ProjectPhase =
  | 'idle'
  | 'submitting'
  | 'provisioning'
  | 'generating'
  | 'recovering'
  | 'stopped'
  | 'ready'
  | 'failed'
  | 'credits_exhausted'
  | 'interrupted'
  | 'gone';

/** Which stage the build's one progress value is in. */
export type ProgressStage = 'none' | 'sending' | 'container' | 'generating' | 'done';

/** The build's progress over its whole length: 100 only once the build has ended. */
export interface ProjectProgress {
  /** 0 to 100. */
  value: number;
  stage: ProgressStage;
  /** The container's own setup message while it is being set up. */
  message: string | undefined;
}

/** What every component shows of a project. */
export interface ProjectView {
  /** The generation's key in `generations` (a project id, or `pending:N` before the project exists). */
  key: string | undefined;
  projectId: string | undefined;
  phase: ProjectPhase;
  /** A stream or a recovery is in flight: a second generation for this project would be de-duplicated. */
  busy: boolean;
  /**
   * The build is still going somewhere: streaming, recovering, stopped but still building on the server, or in a build
   * phase only its status poll knows (a build this store did not start).
   */
  building: boolean;
  progress: ProjectProgress;
  name: string | undefined;
  /** The app's address, only when it is http(s); `unsafeAppUrl` tells when one was given but refused. */
  appUrl: string | undefined;
  unsafeAppUrl: boolean;
  /**
   * There is an app to open, preview and ship (`previewUrl` is its address): the project is ready, or a change to it is
   * running or ended badly, since the app built before is still there. One answer for every part of the screen.
   */
  hasApp: boolean;
  /**
   * The address to preview: the app once ready, and also while a follow-up changes it or after the follow-up
   * ended badly or was refused, since the app built before is still there. `undefined` while there is no app.
   */
  previewUrl: string | undefined;
  kind: GenerationKind | undefined;
  mode: GenerationMode | undefined;
  /** The prompt of the latest generation (empty for a generation resumed after a reload). */
  lastPrompt: string | undefined;
  filesCreated: number;
  filesModified: number;
  steps: number;
  /** Why the build ended badly (not for refusals, see `refusal`), or why the project is `gone`. */
  error: AgentApiError | undefined;
  /** The latest request was refused before it started (validation, credits, rate limit...). */
  refusal: AgentApiError | undefined;
  generation: GenerationState | undefined;
  snapshot: ProjectSnapshot | undefined;
}

/** The parts of the store state the view reads. */
export interface ProjectViewSource {
  generations: Record<string, GenerationState>;
  currentKey: string | undefined;
  projects: Record<string, ProjectSnapshot>;
}

/**
 * The phase a status poll or a listing says. `project_status` is an open string: one the spec does not name is a
 * project still in the works (as the poller reads it: it polls on); no status at all says no phase.
 */
export function phaseOfProjectStatus(status: string | null | undefined): ProjectPhase | undefined {
  if (typeof status !== 'string') return undefined;
  switch (status) {
    case 'ready':
      return 'ready';
    case 'failed':
      return 'failed';
    case 'credits_exhausted':
      return 'credits_exhausted';
    case 'provisioning':
      return 'provisioning';
    default:
      return 'generating';
  }
}

function phaseOf(generation: GenerationState | undefined, polled: ProjectPhase | undefined): ProjectPhase {
  if (generation === undefined) return polled ?? 'idle';
  switch (generation.status) {
    case 'idle':
      return polled ?? 'idle';
    case 'submitting':
    case 'provisioning':
    case 'generating':
    case 'recovering':
      return generation.status;
    case 'completed':
      return 'ready';
    case 'credits_exhausted':
    case 'failed':
      // A refused request built nothing (the prompt form says why, with credits as with any refusal): a refused
      // follow-up leaves the project as it was; a refused new project never existed.
      return generation.refused ? (polled ?? 'idle') : generation.status;
    case 'aborted':
      // The stream was closed, not the build: a poll that sees it end moves the generation on (the machine).
      return 'stopped';
    case 'interrupted':
      return 'interrupted';
    default:
      return generation.status satisfies never;
  }
}

const ended: ReadonlySet<ProjectPhase> = new Set(['ready', 'failed', 'credits_exhausted', 'interrupted']);

const isGone = (error: AgentApiError | undefined) => error?.kind === 'not_found' || error?.kind === 'forbidden';

/**
 * The error that says the project is not there for this person: its status poll's, refused for good, or a follow-up's
 * refusal (its POST named the project).
 */
function goneError(generation: GenerationState | undefined, snapshot: ProjectSnapshot | undefined) {
  if (snapshot?.status === 'error' && isGone(snapshot.error)) return snapshot.error;
  if (generation?.refused === true && generation.kind === 'followUp' && isGone(generation.error))
    return generation.error;
  return undefined;
}

/** Activity (files and steps) moves the bar towards, never onto, the end: it fills only when the build ends. */
function activityShare(activity: number): number {
  return 1 - Math.exp(-activity / 30);
}

function progressOf(phase: ProjectPhase, generation: GenerationState | undefined): ProjectProgress {
  if (ended.has(phase)) return { value: 100, stage: 'done', message: undefined };
  if (generation === undefined || phase === 'idle' || phase === 'gone')
    return { value: 0, stage: 'none', message: undefined };
  if (phase === 'submitting') return { value: 2, stage: 'sending', message: undefined };
  const activity = generation.files.length + generation.toolCount;
  const isNewProject = generation.kind === 'generate';
  // A new project spends the first 35% setting up its container; a follow-up starts generating at once.
  const generationStart = isNewProject ? 35 : 5;
  const { container } = generation;
  if (isNewProject && !container.ready && activity === 0 && phase !== 'stopped' && phase !== 'recovering') {
    return {
      value: Math.max(3, Math.round((container.percentage / 100) * generationStart)),
      stage: 'container',
      message: container.message,
    };
  }
  const value = generationStart + Math.floor((99 - generationStart) * activityShare(activity));
  return { value: Math.min(99, value), stage: 'generating', message: undefined };
}

/** The view of the generation under `key` (default: the current one), merged with its project's status poll. */
export function selectProjectView(state: ProjectViewSource, key: string | undefined = state.currentKey): ProjectView {
  const generation = key === undefined ? undefined : state.generations[key];
  const projectId = generation?.projectId ?? (generation === undefined ? key : undefined);
  const snapshot = projectId === undefined ? undefined : state.projects[projectId];
  const project = snapshot?.project;
  const polled = phaseOfProjectStatus(project?.project_status);
  // A live stream is fresher than a poll; once nothing streams, a project that is not there is not there.
  const busy = isGenerationBusy(generation);
  const gone = busy ? undefined : goneError(generation, snapshot);
  const phase = gone !== undefined ? 'gone' : phaseOf(generation, polled);
  // The status endpoint is fresher than the stream once the stream is over.
  const rawAppUrl =
    (generationOutcome(generation) === 'completed' ? undefined : project?.app_url) ?? generation?.appUrl;
  const appUrl = safeHttpUrl(rawAppUrl ?? project?.app_url);
  const refusal = generation?.refused === true ? generation.error : undefined;
  const endedBadly = phase === 'failed' || phase === 'credits_exhausted' || phase === 'interrupted';
  const counts = generation === undefined ? undefined : generationCounts(generation);
  const previewUrl = phase === 'ready' || (phase !== 'gone' && isPreviewable(generation)) ? appUrl : undefined;
  return {
    key,
    projectId,
    phase,
    busy,
    // Stopped before its project was named, a build cannot be followed here: nothing is waited for.
    building:
      busy ||
      (phase === 'stopped' && projectId !== undefined) ||
      // A build phase with nothing streaming is its status poll's: a build this store did not start (another tab, an
      // earlier visit), beside no generation here, one adopted before it started, or a change this page had refused.
      // (A change whose answer was lost, found building, is recovered: the machine makes it busy.)
      phase === 'provisioning' ||
      phase === 'generating',
    progress: progressOf(phase, generation),
    name: typeof project?.name === 'string' && project.name.trim() !== '' ? project.name : undefined,
    appUrl,
    unsafeAppUrl: appUrl === undefined && typeof (rawAppUrl ?? project?.app_url) === 'string',
    hasApp: previewUrl !== undefined,
    previewUrl,
    kind: generation?.kind,
    mode: generation?.mode,
    lastPrompt: generation === undefined || generation.prompt === '' ? undefined : generation.prompt,
    filesCreated: counts?.filesCreated ?? 0,
    filesModified: counts?.filesModified ?? 0,
    steps: counts?.steps ?? 0,
    error: gone ?? (endedBadly && refusal === undefined ? (generation?.error ?? snapshot?.error) : undefined),
    refusal,
    generation,
    snapshot,
  };
}
