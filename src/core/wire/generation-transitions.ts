/**
 * The one table of a generation's states and transitions (docs/architecture.md prints it). Every status a
 * generation can be in, every case of every action, and the status each case leads to from each status. The
 * machine (`applyGenerationAction`) and the event fold (`reduceGenerationEvent`) read their next status here
 * and nowhere else; a cell that is absent means the action is ignored in that status: nothing changes.
 */
import type { AgentEventType } from './events.js';

/**
 * Every status of a generation, and what it means. `recovering`: the stream was cut and the outcome is being
 * recovered (event replay, then status polling); `interrupted` is final: it could not be recovered.
 */
const generationStatusTable = {
  idle: { running: false, reporting: false, outcome: false },
  submitting: { running: true, reporting: false, outcome: false },
  provisioning: { running: true, reporting: true, outcome: false },
  generating: { running: true, reporting: true, outcome: false },
  recovering: { running: true, reporting: false, outcome: false },
  completed: { running: false, reporting: false, outcome: true },
  credits_exhausted: { running: false, reporting: false, outcome: true },
  failed: { running: false, reporting: false, outcome: true },
  interrupted: { running: false, reporting: false, outcome: true },
  aborted: { running: false, reporting: false, outcome: true },
} as const satisfies Record<string, { running: boolean; reporting: boolean; outcome: boolean }>;

/** Where a generation is. */
export type GenerationStatus = keyof typeof generationStatusTable;

/** How a generation ended: the statuses that are outcomes. */
export type GenerationOutcome = {
  [Status in GenerationStatus]: (typeof generationStatusTable)[Status]['outcome'] extends true ? Status : never;
}[GenerationStatus];

/** Every generation status, in the order of the table. */
export const generationStatuses = Object.keys(generationStatusTable) as readonly GenerationStatus[];

/** Statuses during which a generation is still in flight (a second submit is de-duplicated). */
export const runningGenerationStatuses: ReadonlySet<GenerationStatus> = new Set(
  generationStatuses.filter((status) => generationStatusTable[status].running),
);

/** Whether a generation is still in flight. */
export function isGenerationRunning(status: GenerationStatus): boolean {
  return generationStatusTable[status].running;
}

/** Whether events are arriving about the build (provisioning, generating): a status poll would tell less. */
export function isGenerationReporting(status: GenerationStatus): boolean {
  return generationStatusTable[status].reporting;
}

/** Whether a generation has ended for good. */
export function isGenerationSettled(status: GenerationStatus): status is GenerationOutcome {
  return generationStatusTable[status].outcome;
}

/**
 * What a project is known as when a store takes up a generation it did not start (a reload, an opened
 * project): from the proxy's summary, or from what this browser saved.
 */
export type AdoptedStatus =
  'unknown' | 'building' | 'ready' | 'failed' | 'credits_exhausted' | 'stopped' | 'interrupted';

/** What a status poll says of a project, for the machine: one of its three terminal statuses, or still building. */
export type PolledStatus = 'ready' | 'failed' | 'credits_exhausted' | 'building';

/**
 * The columns of the table: each action, split where its data decides the next status (a refusal for want of
 * credits, a drop before the project is known, what a poll or an adoption says).
 */
export type GenerationActionCase =
  | 'started'
  | AgentEventType
  | 'refused'
  | 'refused_credits'
  | 'dropped'
  | 'dropped_unnamed'
  | 'stop_watching'
  | `poll_${PolledStatus}`
  | 'poll_building_after_loss'
  | 'recovery_failed'
  | 'retry'
  | `adopted_${AdoptedStatus}`;

type Cells = Partial<Record<GenerationStatus, GenerationStatus>>;

const live = ['submitting', 'provisioning', 'generating', 'recovering'] as const;
/** The statuses in which nothing streams and a status poll is the freshest news: it may settle them. */
const watchedByPolling = ['idle', 'recovering', 'aborted', 'interrupted'] as const;

function all(from: readonly GenerationStatus[], to: GenerationStatus): Cells {
  return Object.fromEntries(from.map((status) => [status, to]));
}
/** Events move a generation forward only: provisioning → generating, never back; a replay brings `recovering` back to live. */
const toProvisioning: Cells = {
  submitting: 'provisioning',
  provisioning: 'provisioning',
  generating: 'generating',
  recovering: 'provisioning',
};
const toGenerating = all(live, 'generating');
const stays: Cells = Object.fromEntries(live.map((status) => [status, status]));

/** The transitions: for each action case, the status it leads to from each status it applies in. */
export const generationTransitions: Readonly<Record<GenerationActionCase, Readonly<Cells>>> = {
  started: { idle: 'submitting' },
  project_created: { ...toProvisioning, aborted: 'aborted' },
  container_progress: toProvisioning,
  container_ready: toGenerating,
  file_created: toGenerating,
  tool_progress: toGenerating,
  unknown: stays,
  // A build stopped before its project was named is read on until it names one or ends (see the store's naming).
  stream_end: all([...live, 'aborted'], 'completed'),
  credits_exhausted: all([...live, 'aborted'], 'credits_exhausted'),
  error: all([...live, 'aborted'], 'failed'),
  refused: { submitting: 'failed', aborted: 'failed' },
  refused_credits: { submitting: 'credits_exhausted', aborted: 'credits_exhausted' },
  dropped: all(live, 'recovering'),
  dropped_unnamed: all(live, 'interrupted'),
  stop_watching: all(live, 'aborted'),
  poll_ready: all(watchedByPolling, 'completed'),
  poll_failed: all(watchedByPolling, 'failed'),
  poll_credits_exhausted: all(watchedByPolling, 'credits_exhausted'),
  poll_building: {},
  // A change whose POST was lost on the network (failed as far as this page knew) is being built: it reached the
  // server, and its outcome is recovered as a dropped stream's.
  poll_building_after_loss: { failed: 'recovering' },
  recovery_failed: { recovering: 'interrupted' },
  retry: { interrupted: 'recovering' },
  adopted_unknown: { idle: 'idle' },
  adopted_building: { idle: 'recovering' },
  adopted_ready: { idle: 'completed' },
  adopted_failed: { idle: 'failed' },
  adopted_credits_exhausted: { idle: 'credits_exhausted' },
  adopted_stopped: { idle: 'aborted' },
  adopted_interrupted: { idle: 'interrupted' },
};

/** Every action case, in the order of the table. */
export const generationActionCases = Object.keys(generationTransitions) as readonly GenerationActionCase[];

/** One row per status: the next status of each action case, `null` where the case is ignored. */
export type TransitionRow = Readonly<Record<GenerationActionCase, GenerationStatus | null>>;

/**
 * The table by status, built once: the event fold reads `row.file_created` (a named property of an object
 * with one shape), which costs less per event than a lookup keyed by the event's freshly parsed type.
 */
export const transitionRows: Readonly<Record<GenerationStatus, TransitionRow>> = Object.fromEntries(
  generationStatuses.map((status) => [
    status,
    Object.fromEntries(generationActionCases.map((name) => [name, generationTransitions[name][status] ?? null])),
  ]),
) as Record<GenerationStatus, TransitionRow>;
