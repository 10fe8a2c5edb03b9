/**
 * A simulated generation: the event script, the timing, and the SSE stream that carries it. The project's
 * status is what the generation machine reads in the events sent, so the status endpoint and the stream
 * never disagree.
 */
import {
  createRecordingDraft,
  createSlicer,
  parseAgentEvent,
  projectStatusOf,
  reduceGenerationEvent,
  type StreamSlicing,
} from '../core/index.js';
import type { MockStreamFault } from './mock-fault.js';
import type { MockProject, MockState } from './mock-state.js';
import { creditsExhaustedMessage, type MockGenerationStep } from './mock-script.js';

/** How fast the mock streams: a few seconds per generation, or no delays at all. */
export type MockSpeed = 'realistic' | 'instant';

/** The timers the mock waits with; inject fake ones to drive 'realistic' timing in tests. */
export interface MockTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The platform's timers. */
export const systemTimers: MockTimers = {
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>),
};

/** The container events of a new project: percentage and message. */
const containerSteps: ReadonlyArray<readonly [number, string]> = [
  [10, 'Allocating a container'],
  [35, 'Pulling the base image'],
  [60, 'Starting the container'],
  [85, 'Installing the runtime'],
  [100, 'Container started'],
];

/** Realistic pauses, in milliseconds, before each kind of event. */
const realisticDelays = { container: 350, boot: 1200, file: 180, tool: 260, raw: 120, finish: 400 } as const;

type ChannelItem = { kind: 'text'; text: string } | { kind: 'end' } | { kind: 'drop' };

/** A pull-based SSE body: chunks leave only when the reader asks, so a drop comes after what was read. */
interface EventChannel {
  readable: ReadableStream<Uint8Array>;
  write(text: string): void;
  end(): void;
  /** Errors the body: the connection closes without a proper end. */
  drop(): void;
}

function createEventChannel(signal: AbortSignal | null): EventChannel {
  const encoder = new TextEncoder();
  const items: ChannelItem[] = [];
  let wake: (() => void) | undefined;
  let detached = false;
  let finished = false;
  const push = (item: ChannelItem) => {
    if (detached || finished) return;
    if (item.kind !== 'text') finished = true;
    items.push(item);
    wake?.();
  };
  const readable = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        while (items.length === 0 && !detached) await new Promise<void>((resolve) => (wake = resolve));
        if (detached) return;
        // Everything already queued goes out together: no delay is added, none is removed.
        let text = '';
        while (items[0]?.kind === 'text' && text.length < 65_536) {
          const item = items.shift() as { kind: 'text'; text: string };
          text += item.text;
        }
        if (text !== '') {
          controller.enqueue(encoder.encode(text));
          return;
        }
        const item = items.shift();
        if (item?.kind === 'end') controller.close();
        else if (item?.kind === 'drop') controller.error(new TypeError('The mock Agent API dropped the connection.'));
      },
      cancel() {
        detached = true;
        items.length = 0;
        wake?.();
      },
    },
    { highWaterMark: 0 },
  );
  signal?.addEventListener(
    'abort',
    () => {
      if (detached || (finished && items.length === 0)) return;
      // The client went away: nothing more is sent, but the generation itself goes on.
      items.length = 0;
      finished = false;
      push({ kind: 'drop' });
    },
    { once: true },
  );
  return {
    readable,
    write: (text) => push({ kind: 'text', text }),
    end: () => push({ kind: 'end' }),
    drop: () => push({ kind: 'drop' }),
  };
}

/** Everything a generation needs. */
export interface GenerationRun {
  state: MockState;
  project: MockProject;
  followUp: boolean;
  steps: MockGenerationStep[];
  speed: MockSpeed;
  fault: MockStreamFault | undefined;
  heartbeatMs: number;
  timers: MockTimers;
  /** How an instant generation shares the thread (a page's main thread); undefined: it runs to its end at once. */
  slicing: StreamSlicing | undefined;
  now: () => number;
  /** Aborted when the mock is reset or disposed: the generation stops where it is. */
  lifetime: AbortSignal;
  /** The request's signal: the client went away (the generation continues). */
  requestSignal: AbortSignal | null;
}

function sleep(ms: number, timers: MockTimers, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      timers.clearTimeout(handle);
      reject(signal.reason);
    };
    const handle = timers.setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

function untilAborted(signal: AbortSignal): Promise<never> {
  return new Promise((_resolve, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

/** Starts a generation and returns its SSE body. The generation runs to its end even if nobody reads. */
export function startGeneration(run: GenerationRun): ReadableStream<Uint8Array> {
  const channel = createEventChannel(run.requestSignal);
  void runGeneration(run, channel).catch(() => {
    // Only a reset or dispose lands here: the stream ends without a terminal event.
    channel.drop();
  });
  return channel.readable;
}

async function runGeneration(run: GenerationRun, channel: EventChannel): Promise<void> {
  const { project, fault, state } = run;
  let sent = 0;
  let dropped = false;
  let failedByFault = false;
  let paused = false;

  const touch = () => {
    project.updatedAt = run.now();
  };
  const draft = createRecordingDraft(run.followUp ? 'followUp' : 'generate', project.id);
  const showStatus = () => {
    project.status = projectStatusOf(draft) ?? project.status;
    touch();
  };
  const follow = (data: string) => {
    const parsed = parseAgentEvent(data);
    if (parsed.ok) reduceGenerationEvent(draft, parsed.event, 0);
    showStatus();
  };
  showStatus();

  const pauseHere = () => {
    paused = true;
    if (fault?.kind === 'pause_after' && fault.drop === true) {
      dropped = true;
      channel.drop();
    }
  };

  const emit = (event: Record<string, unknown>) => {
    const data = JSON.stringify(event);
    // The generation goes on when its stream is dropped: the status follows every event, sent or not.
    follow(data);
    if (dropped) return;
    channel.write(`data: ${data}\n\n`);
    sent++;
    if (fault?.kind === 'pause_after' && !paused && sent >= fault.events) pauseHere();
    if (fault?.kind === 'malformed_line' && sent === (fault.afterEvents ?? 1))
      channel.write('data: {"type":"file_created","path":\n\n');
    if (fault?.kind === 'drop_after' && sent >= fault.events) {
      dropped = true;
      channel.drop();
    }
    if (fault?.kind === 'error_event' && !failedByFault && sent >= (fault.afterEvents ?? 1)) failedByFault = true;
  };

  const delay = (kind: keyof typeof realisticDelays): number => {
    if (fault?.kind === 'slow_drip') return fault.intervalMs;
    return run.speed === 'realistic' ? realisticDelays[kind] : 0;
  };

  // Only called with ms > 0: an instant generation waits for nothing but the slicing below.
  const pause = async (ms: number) => {
    let remaining = ms;
    while (remaining > run.heartbeatMs) {
      await sleep(run.heartbeatMs, run.timers, run.lifetime);
      remaining -= run.heartbeatMs;
      if (!dropped) channel.write(': ping\n\n');
    }
    await sleep(remaining, run.timers, run.lifetime);
  };

  // A paused generation never goes on: only a reset or dispose (the lifetime) ends it.
  const hold = async (): Promise<never> => {
    for (;;) {
      if (dropped || run.requestSignal?.aborted === true) await untilAborted(run.lifetime);
      await sleep(run.heartbeatMs, run.timers, run.lifetime);
      if (!dropped) channel.write(': ping\n\n');
    }
  };

  const fail = (message: string) => {
    emit({ type: 'error', message, project_id: project.id });
    channel.end();
  };
  const faultMessage = () =>
    (fault?.kind === 'error_event' ? fault.message : undefined) ??
    'The generation failed: the AI agent stopped unexpectedly.';

  if (fault?.kind === 'drop_after' && fault.events === 0) {
    dropped = true;
    channel.drop();
  }
  if (fault?.kind === 'pause_after' && fault.events === 0) pauseHere();

  if (!run.followUp) {
    if (paused) await hold();
    emit({ type: 'project_created', project_id: project.id, app_url: project.appUrl });
    for (const [percentage, message] of containerSteps) {
      if (paused) await hold();
      if (failedByFault) return fail(faultMessage());
      if (delay('container') > 0) await pause(delay('container'));
      emit({ type: 'container_progress', message, percentage });
    }
    if (paused) await hold();
    if (failedByFault) return fail(faultMessage());
    if (delay('boot') > 0) await pause(delay('boot'));
    emit({ type: 'container_ready', message: 'Container ready. Starting AI generation.' });
  }

  // An instant build of thousands of steps would otherwise be one long task in a page (the producer, then the
  // proxy relaying it): its events go over in slices, the thread handed back between them.
  const slicer = createSlicer(run.slicing);
  for (const step of run.steps) {
    if (slicer.due()) {
      await slicer.pause();
      run.lifetime.throwIfAborted();
    }
    if (paused) await hold();
    if (failedByFault) return fail(faultMessage());
    const wait = delay(step.type === 'error' ? 'tool' : step.type);
    if (wait > 0) await pause(wait);
    switch (step.type) {
      case 'file': {
        const team = state.teams.get(project.teamId);
        if (team === undefined || team.credits <= 0) {
          emit({ type: 'credits_exhausted', message: creditsExhaustedMessage, project_id: project.id });
          channel.end();
          return;
        }
        team.credits -= 1;
        project.files.set(step.path, (project.files.get(step.path) ?? 0) + 1);
        touch();
        emit({ type: 'file_created', path: step.path, action: step.action ?? 'created' });
        break;
      }
      case 'tool':
        emit({
          type: 'tool_progress',
          tool: step.tool,
          message: step.message,
          ...(step.status === undefined ? {} : { status: step.status }),
        });
        break;
      case 'error':
        return fail(step.message);
      case 'raw':
        emit(step.event);
        break;
      default:
        step satisfies never;
    }
  }
  if (paused) await hold();
  if (failedByFault) return fail(faultMessage());
  if (delay('finish') > 0) await pause(delay('finish'));
  emit({ type: 'stream_end', project_id: project.id, app_url: project.appUrl });
  channel.end();
}
