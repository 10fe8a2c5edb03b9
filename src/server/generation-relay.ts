/**
 * A generate or follow-up stream on its way to the browser: the upstream's events under the idle and total deadlines,
 * numbered and recorded, relayed as each completes with heartbeats between them, the project's owner
 * recorded from `project_created` (even after the browser left), tracked for a drain, and logged when it
 * closes.
 */
import type { AgentRouteName, StreamSlicing } from '../core/index.js';
import type { createDrainState } from './drain.js';
import type { UpstreamEvent } from './event-shapes.js';
import { eventStreamHeaders, relayEvents, slowReaderReason, type RelayTimers } from './event-stream-relay.js';
import { recordGeneration, type GenerationRecording } from './generation-recorder.js';
import { generationRecordOf, type GenerationRecord } from './generation-records.js';
import type { ProxyStore } from './proxy-store.js';
import type { QuotaTicket } from './quota.js';
import type { ProxyLogEntry } from './proxy-types.js';
import type { RelayingProjects } from './relaying-projects.js';
import { withStreamDeadlines, type StreamDeadlines } from './upstream-timeouts.js';

/** What the relay needs of the proxy around it. */
export interface GenerationRelayContext {
  store: ProxyStore;
  timers: RelayTimers;
  heartbeatMs: number;
  /** The upstream stream's stall limit and its limit in all. */
  deadlines: StreamDeadlines;
  maxBufferedBytes: number;
  slowReaderMs: number;
  /** How the relay shares the thread it runs on (a page's main thread); undefined: it never pauses. */
  slicing: StreamSlicing | undefined;
  log(entry: ProxyLogEntry): void;
  now(): number;
  /** The agency's `onGeneration`, called once per ended generation. */
  onGeneration?: ((record: GenerationRecord) => void) | undefined;
  /** Called once the relay has ended (the user's stream reservation is given back). */
  onClosed?: (() => void) | undefined;
  drainState: ReturnType<typeof createDrainState>;
  /** Where the project is held as building while the upstream stream is open (the status route reads it). */
  relayingProjects: RelayingProjects;
}

/** How long a drain waits for a relay's lease to be given back to the store. */
const leaseReleaseWaitMs = 5_000;

/** Relays an upstream generation stream to the browser (see the module comment). */
export function relayGenerationStream(
  upstreamEvents: ReadableStream<UpstreamEvent>,
  request: Request,
  route: AgentRouteName,
  userId: string,
  recordsOwner: boolean,
  turn: {
    projectId: string | undefined;
    requestBody: string | undefined;
    receivedAt: number;
    /** A follow-up's hold on its project, taken before the upstream heard of it; the relay gives it back. */
    projectHold?: (() => Promise<void> | undefined) | undefined;
    /** The generation as counted in the end user's quota (none without a limit); the recorder may give it back. */
    quotaTicket?: QuotaTicket | undefined;
  },
  context: GenerationRelayContext,
): Response {
  const { store, timers, heartbeatMs, log, now, drainState } = context;
  let recordedProject: string | undefined;
  const kind = route === 'followUp' ? 'followUp' : 'generate';
  // Held until the upstream stream is over (not when the browser leaves): a follow-up's from before its POST went
  // upstream, a generate's from its `project_created`.
  let upstreamOver = false;
  let releaseProject = turn.projectHold;
  const holdProject = (projectId: string) => {
    if (!upstreamOver) releaseProject ??= context.relayingProjects.hold(projectId, kind);
  };
  const internalError = (reason: string, projectId?: string) =>
    log({
      level: 'error',
      event: 'internal_error',
      method: 'POST',
      route,
      externalUserId: userId,
      ...(projectId === undefined ? {} : { projectId }),
      reason,
    });
  const recording: GenerationRecording = {
    projectId: turn.projectId,
    requestBody: turn.requestBody,
    quotaTicket: turn.quotaTicket,
    store,
    userId,
    kind,
    now,
    onEnded: ({ outcome, projectId, mode, firstEventAt }) => {
      if (context.onGeneration === undefined) return;
      const record = generationRecordOf({
        userId,
        kind,
        mode,
        outcome,
        projectId,
        startedAt: turn.receivedAt,
        firstEventAt,
        endedAt: now(),
      });
      try {
        context.onGeneration(record);
      } catch (error) {
        internalError(`onGeneration threw: ${String(error)}`);
      }
    },
    onStoreError: (error: unknown) => internalError(`not recorded: ${String(error)}`),
    // The owner is recorded before `project_created` reaches the browser, and even after the browser left. The first
    // owner stays: a project another user owns (the upstream named it) is not recorded for this one.
    onProject: async (projectId) => {
      if (!recordsOwner || recordedProject !== undefined) return true;
      recordedProject = projectId;
      try {
        await store.setProjectOwner(projectId, userId);
        if ((await store.getProjectOwner(projectId)) !== userId) {
          log({
            level: 'error',
            event: 'upstream_refused',
            method: 'POST',
            route,
            externalUserId: userId,
            projectId,
            reason: 'the upstream named a project another end user owns: not recorded',
          });
          return false;
        }
        log({ level: 'info', event: 'ownership_recorded', method: 'POST', route, externalUserId: userId, projectId });
        holdProject(projectId);
        return true;
      } catch (error) {
        internalError(`ownership not recorded: ${String(error)}`, projectId);
        return false;
      }
    },
  };
  const limited = withStreamDeadlines(upstreamEvents, context.deadlines, { timers, now }, (deadline) =>
    log({
      level: 'warn',
      event: 'upstream_timeout',
      method: 'POST',
      route,
      externalUserId: userId,
      ...(recordedProject === undefined ? {} : { projectId: recordedProject }),
      reason:
        deadline === 'idleMs' ? 'no upstream event within the stall limit' : 'the upstream stream ran past its limit',
    }),
  );
  const forgetStream = drainState.track(limited.stop);
  const relayed = relayEvents(recordGeneration(limited.body, recording), {
    heartbeatMs,
    timers,
    signal: request.signal,
    maxBufferedBytes: context.maxBufferedBytes,
    slowReaderMs: context.slowReaderMs,
    slicing: context.slicing,
    onSlowReader: () =>
      log({
        level: 'warn',
        event: 'slow_reader',
        method: 'POST',
        route,
        externalUserId: userId,
        reason: slowReaderReason,
      }),
    onBrowserGone: () =>
      log({
        level: 'info',
        event: 'browser_disconnected',
        method: 'POST',
        route,
        externalUserId: userId,
        reason: 'the upstream stream is read on to its end',
      }),
  });
  const started = now();
  // The upstream side's end (its end or terminal event, a failure, a deadline, a drain); never the browser leaving.
  void relayed.done.then((outcome) => {
    upstreamOver = true;
    // A drain waits until the store has the lease back (a process that exits then leaves none behind), for a while:
    // a store that never answers must not hold the drain.
    const leaseBack = releaseProject?.();
    if (leaseBack === undefined) forgetStream();
    else {
      const bound = timers.setTimeout(forgetStream, leaseReleaseWaitMs);
      void leaseBack.then(() => {
        timers.clearTimeout(bound);
        forgetStream();
      });
    }
    context.onClosed?.();
    const reasons = [
      outcome.upstreamCompleted ? 'upstream completed' : `upstream failed: ${String(outcome.error)}`,
      ...(outcome.browserDisconnected ? ['browser disconnected'] : []),
      ...(recordsOwner && recordedProject === undefined ? ['no project_created seen'] : []),
    ];
    log({
      level: outcome.upstreamCompleted ? 'info' : 'warn',
      event: 'stream_closed',
      method: 'POST',
      route,
      externalUserId: userId,
      ...(recordedProject === undefined ? {} : { projectId: recordedProject }),
      durationMs: now() - started,
      reason: reasons.join('; '),
    });
  });
  return new Response(relayed.body, { status: 200, headers: eventStreamHeaders() });
}
