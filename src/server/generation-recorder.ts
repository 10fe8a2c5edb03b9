/**
 * Records a relayed generation as it passes: each event gets its SSE id (consecutive, see
 * `generationOfEventId`) and is stored before the browser sees it, so a resume after id N finds N; the
 * prompt becomes a conversation turn and the events its outcome, folded by the generation machine the
 * browser runs (so its counts and outcome are the ones the end user saw). A store failure stops the
 * recording, never the relay.
 */
import {
  agentIdPattern,
  applyGenerationAction,
  createRecordingDraft,
  firstEventIdOfGeneration,
  isTerminalEvent,
  projectStatusOf,
  reduceGenerationEvent,
  turnOutcomeOf,
  type AgentEvent,
  type ConversationTurn,
  type ConversationTurnOutcome,
  type GenerationMode,
} from '../core/index.js';
import { boundedProjectPatch, type ProxyStore, type RecordedEvent } from './proxy-store.js';
import type { RelayedEvent } from './event-stream-relay.js';
import type { UpstreamEvent } from './event-shapes.js';
import { httpAddressOrNull } from './answer-shapes.js';
import type { QuotaTicket } from './quota.js';

/** What the recorder needs to know about the request that started the generation. */
export interface GenerationRecording {
  store: ProxyStore;
  userId: string;
  kind: ConversationTurn['kind'];
  /** Known for a follow-up; for a generate it comes with `project_created`. */
  projectId: string | undefined;
  /** The request body the proxy sent upstream (JSON), for the prompt and mode. */
  requestBody: string | undefined;
  /** The generation as counted in the end user's quota: given back when the team's credits ran out before a file was written. */
  quotaTicket?: QuotaTicket | undefined;
  now(): number;
  /** Called once when the store fails; the relay goes on without recording. */
  onStoreError(error: unknown): void;
  /**
   * A generate's project is named (`project_created`); awaited before that event goes on to the browser. False when
   * the project is not this user's (another end user owns it): then nothing of the generation is recorded.
   */
  onProject?(projectId: string): Promise<boolean>;
  /** The stream ended (once): its outcome as the fold sees it, the project, and when the first event came. */
  onEnded?(ended: {
    outcome: ConversationTurnOutcome;
    projectId: string | undefined;
    mode: GenerationMode | null;
    firstEventAt: number | undefined;
  }): void;
}

// The memory and Redis stores keep at most 5,000 events and 8 MiB of a generation's log by default.
const maxPendingEvents = 5_000;
const maxPendingChars = 8 * 1024 * 1024;
// Most events, and characters of their data, read ahead while the oldest one's write is under way.
const maxAheadEvents = 512;
const maxAheadChars = 1024 * 1024;
/** The most of a prompt a turn keeps (characters): the browser's body may hold far more than a person writes. */
const maxTurnPromptChars = 16 * 1024;

/** The prompt as a turn keeps it: whole up to the bound, else cut there (never inside a character) and marked. */
function keptPrompt(prompt: string): string {
  if (prompt.length <= maxTurnPromptChars) return prompt;
  const cut = prompt.slice(0, maxTurnPromptChars - 1);
  // A lone high surrogate at the end would be half a character.
  return `${/[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut}…`;
}

/** Appends events in one call where the store can (`appendEvents`), else one at a time. */
async function appendEvents(store: ProxyStore, projectId: string, generation: number, events: RecordedEvent[]) {
  if (events.length === 0) return;
  if (store.appendEvents !== undefined) return store.appendEvents(projectId, generation, events);
  for (const event of events) await store.appendEvent(projectId, generation, event);
}

function turnOf(recording: GenerationRecording): ConversationTurn {
  let body: { prompt?: unknown; mode?: unknown } = {};
  try {
    body = JSON.parse(recording.requestBody ?? '{}') as typeof body;
  } catch {
    // The proxy only forwards JSON objects; an empty turn is still a truthful record.
  }
  const mode: GenerationMode | null =
    recording.kind === 'generate' ? (body.mode === 'design' ? 'design' : 'build') : null;
  return {
    kind: recording.kind,
    prompt: typeof body.prompt === 'string' ? keptPrompt(body.prompt) : '',
    mode,
    at: new Date(recording.now()).toISOString(),
    outcome: null,
  };
}

/**
 * An event's data as the browser gets it when the event names another project than its generation's (a broken or
 * hostile upstream): the generation's own id (null when the upstream named another end user's project), and no
 * address, which would be that other project's.
 */
function namingProject(data: string, projectId: string | null): string {
  const value = JSON.parse(data) as Record<string, unknown>;
  return JSON.stringify({
    ...value,
    project_id: projectId,
    ...(Object.hasOwn(value, 'app_url') ? { app_url: null } : {}),
  });
}

/** Returns the upstream's events (their data), each numbered, recording them on the way (folded as read once). */
export function recordGeneration(
  upstream: ReadableStream<UpstreamEvent>,
  recording: GenerationRecording,
): ReadableStream<RelayedEvent> {
  const { store } = recording;
  const turn = turnOf(recording);
  const draft = createRecordingDraft(recording.kind, recording.projectId);
  let nextId = 1;
  let firstEventAt: number | undefined;
  // The team's credits ran out before a file was written: the end user got nothing built.
  let filesWritten = false;
  let creditsOutBeforeFiles = false;
  let projectId = recording.projectId;
  let generation: number | undefined;
  // The project the browser is told of: the path's for a follow-up, a generate's once its `project_created` is
  // recorded as this user's (none before), null once the upstream named another user's project (then none at all).
  let decidedProject: string | null | undefined = recording.projectId;
  let recordingOn = true;
  // A terminal event ends the generation: the upstream is not waited on after it (it might hold the connection open).
  let terminated = false;
  // Events seen before the project id is known (a generate sends project_created first, so rarely any). An upstream
  // that never names its project must not grow it without bound: the newest are kept, within the bounds the stores
  // give a generation's log by default (the oldest would be trimmed from the log anyway).
  const pending: { id: number; data: string }[] = [];
  let pendingChars = 0;
  const keepPending = (event: { id: number; data: string }) => {
    if (!recordingOn) return;
    pending.push(event);
    pendingChars += event.data.length;
    // Trimmed as the memory store trims a generation's log.
    while (pending.length > maxPendingEvents || (pendingChars > maxPendingChars && pending.length > 1))
      pendingChars -= pending.shift()?.data.length ?? 0;
  };

  const fail = (error: unknown) => {
    if (!recordingOn) return;
    recordingOn = false;
    recording.onStoreError(error);
  };
  const guard = async (write: () => Promise<unknown>) => {
    if (!recordingOn) return;
    try {
      await write();
    } catch (error) {
      fail(error);
    }
  };
  const begin = async (id: string) => {
    projectId = id;
    await guard(async () => {
      generation = await store.beginGeneration(id, recording.userId, turn);
      // A generate numbers its first events before it knows its project; it is always generation 1.
      if (nextId === 1) nextId = firstEventIdOfGeneration(generation);
      pendingChars = 0;
      await appendEvents(store, id, generation, pending.splice(0));
    });
    // The project's summary says it is building, so another tab that opens it follows the build.
    await guard(() =>
      store.noteProject(
        id,
        recording.userId,
        boundedProjectPatch({
          project_status: projectStatusOf(draft) ?? null,
          // Only an http(s) address is kept, as in a status answer.
          ...(draft.appUrl === undefined ? {} : { app_url: httpAddressOrNull(draft.appUrl) }),
        }),
        recording.now(),
      ),
    );
    // A status cached before this build says how the project was: a poll (a browser that stopped watching) must not
    // read it as this build's end.
    await guard(() =>
      store.setCachedStatus(id, { status: 200, body: '', contentType: 'application/json', expiresAt: 0 }),
    );
  };
  /** Folds an event; gives the project it named, if it is the generate's project and not known yet. */
  const note = (event: AgentEvent): string | undefined => {
    if (isTerminalEvent(event)) terminated = true;
    // The time only stamps tool steps, which the recording does not keep.
    const applied = reduceGenerationEvent(draft, event, 0);
    // The fold names a project only with an id of the API's shape (`agentIdPattern`).
    return applied === 'project' && projectId === undefined ? draft.projectId : undefined;
  };
  /** Runs a store write; what to wait for, which never rejects (a failure stops recording); nothing once stopped. */
  const write = (call: () => Promise<void>): Promise<void> | undefined => {
    if (!recordingOn) return undefined;
    try {
      return call().catch(fail);
    } catch (error) {
      fail(error);
      return undefined;
    }
  };
  // Group commit, for a store that writes a batch in one call (`appendEvents`): the events recorded while a write is
  // under way wait for it together and go in the next write, so a burst costs a store call (a Redis round trip) per
  // batch, not per event; each resolves when its own batch is in. Any other store gets each event in turn, as the
  // recorder reads no event ahead of a write for it (see `maxAhead`).
  const batches = store.appendEvents !== undefined;
  const maxAhead = batches ? maxAheadEvents : 1;
  let batch: RecordedEvent[] = [];
  let batchWritten: Promise<void> | undefined;
  let lastWrite: Promise<void> = Promise.resolve();
  /** Appends an event to the log; nothing to wait for once the store has failed. */
  const append = (project: string, at: number, event: RecordedEvent): Promise<void> | undefined => {
    if (!recordingOn) return undefined;
    if (!batches) return write(() => store.appendEvent(project, at, event));
    batch.push(event);
    batchWritten ??= lastWrite = lastWrite.then(() => {
      const events = batch;
      batch = [];
      batchWritten = undefined;
      return write(() => appendEvents(store, project, at, events));
    });
    return batchWritten;
  };
  // While a generate's project is being named, the next events wait: they can only be recorded once it has begun.
  let naming = false;
  const nameProject = async (named: string, event: RecordedEvent) => {
    naming = true;
    try {
      // Another user's project (a broken or hostile upstream named it): its records are not this generation's.
      if ((await recording.onProject?.(named)) === false) {
        recordingOn = false;
        pending.length = 0;
        decidedProject = null;
        event.data = namingProject(event.data, null);
        return;
      }
      decidedProject ??= named;
      await begin(named);
      if (generation !== undefined) await append(named, generation, event);
    } finally {
      naming = false;
    }
  };
  /**
   * Records an event; gives what to wait for before it goes on (the store's write). Plain functions, not async
   * ones, so that an event costs no promise beyond the store's own: a burst relays thousands.
   */
  const record = (event: RecordedEvent, read: AgentEvent): Promise<void> | undefined => {
    const named = note(read);
    if (named !== undefined && recordingOn) return nameProject(named, event);
    if (generation !== undefined && projectId !== undefined) return append(projectId, generation, event);
    if (projectId === undefined) keepPending(event);
    return undefined;
  };
  const finish = async () => {
    // The agency's lack of credits must not use up the end user's quota; before onEnded, so it is in when that reports.
    if (creditsOutBeforeFiles) await recording.quotaTicket?.giveBack();
    // Closed without a terminal event: recorded as interrupted until a status poll says how it ended.
    applyGenerationAction(draft, { type: 'dropped', error: undefined, at: recording.now() });
    const outcome = turnOutcomeOf(draft);
    if (outcome !== null) recording.onEnded?.({ outcome, projectId, mode: turn.mode, firstEventAt });
    if (projectId === undefined || generation === undefined || outcome === null) return;
    const id = projectId;
    const at = generation;
    await guard(() => store.endGeneration(id, at, outcome));
    const project_status = projectStatusOf(draft) ?? null;
    await guard(() => store.noteProject(id, recording.userId, { project_status }, recording.now()));
  };

  const reader = upstream.getReader();
  const started = recording.projectId === undefined ? Promise.resolve() : begin(recording.projectId);
  let begun = false;
  // Events read and recorded, in order, each handed on once its write is in. While the oldest's write is under way
  // the next are read and recorded (so they share a write), within a bound of events and characters.
  const ahead: { event: RecordedEvent; written: Promise<void> | undefined }[] = [];
  let aheadChars = 0;
  let reading: Promise<ReadableStreamReadResult<UpstreamEvent>> | undefined;
  // Made only when a read races a write.
  let readingEnded: Promise<true> | undefined;
  // How the upstream ended: its end, or a failure (whose reason may be undefined).
  let upstreamEnd: { failed: false } | { failed: true; error: unknown } | undefined;
  let writeFailure: { error: unknown; written: Promise<void> } | undefined;
  // Each write (a batch's, or a project's naming) is watched once, however many events wait for it, so that the loop
  // knows without awaiting whether it is in (the watch resolves to false, for a race with the next read). One that
  // rejects (naming a project the store could not check) ends the stream with its error, as it did when each write
  // was awaited in turn.
  const settled = new WeakSet<Promise<void>>();
  const watched = new WeakMap<Promise<void>, Promise<false>>();
  const watch = (written: Promise<void>): Promise<false> => {
    let watching = watched.get(written);
    if (watching === undefined) {
      watching = written.then(
        () => {
          settled.add(written);
          return false as const;
        },
        (error: unknown) => {
          writeFailure ??= { error, written };
          settled.add(written);
          return false as const;
        },
      );
      watched.set(written, watching);
    }
    return watching;
  };
  const isWritten = (written: Promise<void> | undefined) => written === undefined || settled.has(written);
  /** Records an event read from the upstream, and holds it until its write is in. */
  const readOne = (value: UpstreamEvent) => {
    firstEventAt ??= recording.now();
    if (value.event.type === 'file_created') filesWritten = true;
    else if (value.event.type === 'credits_exhausted') creditsOutBeforeFiles = !filesWritten;
    // Numbered before it is recorded: naming the project may move the next id (see `begin`).
    const event = { id: nextId++, data: value.data };
    // Before a generate's project is decided, only a `project_created` with an id of the API's shape may name one (it
    // is then checked as the user's); any other event names none.
    const named = (value.event as { project_id?: unknown }).project_id;
    const mayName =
      decidedProject === undefined && value.event.type === 'project_created' && agentIdPattern.test(String(named));
    if (typeof named === 'string' && named !== decidedProject && !mayName)
      event.data = namingProject(event.data, decidedProject ?? null);
    const written = record(event, value.event);
    if (written !== undefined) void watch(written);
    ahead.push({ event, written });
    aheadChars += value.data.length;
  };
  return new ReadableStream<RelayedEvent>(
    {
      async pull(controller) {
        if (!begun) {
          await started;
          begun = true;
        }
        for (;;) {
          const oldest = ahead[0];
          // The events before the one whose write failed went on; it and those after it do not.
          if (writeFailure !== undefined && oldest?.written === writeFailure.written) {
            await finish();
            controller.error(writeFailure.error);
            return;
          }
          if (oldest !== undefined && isWritten(oldest.written)) {
            ahead.shift();
            aheadChars -= oldest.event.data.length;
            controller.enqueue(oldest.event);
            if (ahead.length > 0 || (upstreamEnd === undefined && !terminated)) return;
          }
          if (ahead.length === 0 && (upstreamEnd !== undefined || terminated)) {
            await finish();
            if (upstreamEnd?.failed === true) controller.error(upstreamEnd.error);
            else controller.close();
            // A terminal event ends the generation, whatever the upstream still holds open.
            if (upstreamEnd === undefined) void reader.cancel().catch(() => undefined);
            return;
          }
          const full = ahead.length >= maxAhead || aheadChars >= maxAheadChars;
          if (oldest !== undefined && (full || naming || upstreamEnd !== undefined || terminated)) {
            if (oldest.written !== undefined) await watch(oldest.written);
            continue;
          }
          // Read the next event, unless the oldest one's write comes in first (then hand that on).
          reading ??= reader.read();
          if (oldest?.written !== undefined && !isWritten(oldest.written)) {
            readingEnded ??= reading.then(
              () => true as const,
              () => true as const,
            );
            if (!(await Promise.race([readingEnded, watch(oldest.written)]))) continue;
          }
          try {
            const { done, value } = await reading;
            if (done) upstreamEnd = { failed: false };
            else readOne(value);
          } catch (error) {
            upstreamEnd = { failed: true, error };
          } finally {
            reading = undefined;
            readingEnded = undefined;
          }
        }
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}
