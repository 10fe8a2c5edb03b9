/**
 * Reads a Chromium trace written by `npm run bench:browser` with BENCH_TRACE and sums up its frames (the tasks that
 * paint) on the page's main thread: their median and 90th-percentile times, split into script, style, layout and
 * paint, and the counts that do not move with the machine's load (elements restyled, layout objects dirtied per
 * frame), plus the layouts that scripts forced and the measured run's tasks over 50 ms by kind (the person's click, a
 * frame, garbage collection, receiving a response body, script) and how many of them the main thread spent mostly waiting. A change
 * that removes work shows in the counts even when the times are noise.
 */
import { readFile } from 'node:fs/promises';

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  /** The thread's own CPU time in the event (under CPU throttling, the throttled time). */
  tdur?: number;
  pid: number;
  tid: number;
  args?: {
    name?: string;
    elementCount?: number;
    beginData?: { dirtyObjects?: number };
    chrome_mojo_event_info?: { watcher_notify_interface_tag?: string };
    /** Where a task was posted from (`ThreadControllerImpl::RunTask`). */
    src_file?: string;
    data?: { type?: string };
  };
}

interface Frame {
  durationMs: number;
  parts: Map<string, number>;
  elements: number;
  dirtyObjects: number;
}

const rendering = ['UpdateLayoutTree', 'Layout', 'PrePaint', 'Paint', 'Layerize', 'Commit'];
const scripting = ['FunctionCall', 'RunMicrotasks', 'FireAnimationFrame', 'EvaluateScript'];

/**
 * The complete events of the page's main thread, in order: the renderer main thread that holds the bench's
 * `agent-bench:armed` mark, else the busiest one. A run's trace may hold a second renderer (the previous run's page
 * going away): the busiest is not always the page's.
 */
function mainThreadEvents(events: TraceEvent[]): TraceEvent[] {
  const mainThreads = new Set(
    events
      .filter((event) => event.ph === 'M' && event.name === 'thread_name' && event.args?.name === 'CrRendererMain')
      .map((event) => `${event.pid}:${event.tid}`),
  );
  const byThread = new Map<string, TraceEvent[]>();
  for (const event of events) {
    const thread = `${event.pid}:${event.tid}`;
    if (event.ph !== 'X' || event.dur === undefined || !mainThreads.has(thread)) continue;
    const list = byThread.get(thread) ?? [];
    list.push(event);
    byThread.set(thread, list);
  }
  const armed = events.find((event) => event.name === 'agent-bench:armed');
  const page = armed === undefined ? undefined : byThread.get(`${armed.pid}:${armed.tid}`);
  const busiest = [...byThread.values()].sort((a, b) => b.length - a.length)[0] ?? [];
  return (page ?? busiest).sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
}

/** Each task's own time per event name (nested events subtracted), and the forced layouts among them. */
function readTasks(events: TraceEvent[]) {
  const frames: Frame[] = [];
  let forcedLayouts = 0;
  let forcedMs = 0;
  let index = 0;
  for (const task of events.filter((event) => event.name === 'ThreadControllerImpl::RunTask')) {
    const end = task.ts + (task.dur ?? 0);
    while (index < events.length && (events[index] as TraceEvent).ts < task.ts) index++;
    const parts = new Map<string, number>();
    const open: TraceEvent[] = [];
    let elements = 0;
    let dirtyObjects = 0;
    for (let at = index; at < events.length && (events[at] as TraceEvent).ts < end; at++) {
      const event = events[at] as TraceEvent;
      if (event === task || event.name === 'RunTask') continue;
      while (open.length > 0) {
        const last = open[open.length - 1] as TraceEvent;
        if (last.ts + (last.dur ?? 0) > event.ts) break;
        open.pop();
      }
      const parent = open[open.length - 1];
      if (parent !== undefined) parts.set(parent.name, (parts.get(parent.name) ?? 0) - (event.dur ?? 0));
      parts.set(event.name, (parts.get(event.name) ?? 0) + (event.dur ?? 0));
      if (event.name === 'UpdateLayoutTree') elements += event.args?.elementCount ?? 0;
      if (event.name === 'Layout') dirtyObjects += event.args?.beginData?.dirtyObjects ?? 0;
      if (
        (event.name === 'Layout' || event.name === 'UpdateLayoutTree') &&
        open.some((outer) => scripting.includes(outer.name))
      ) {
        forcedLayouts++;
        forcedMs += (event.dur ?? 0) / 1000;
      }
      open.push(event);
    }
    if (parts.has('PrePaint')) frames.push({ durationMs: (task.dur ?? 0) / 1000, parts, elements, dirtyObjects });
  }
  return { frames, forcedLayouts, forcedMs };
}

/**
 * The page's tasks over 50 ms by what most of each did: a frame's style, layout and paint; garbage collection (at
 * least 30% of it); or script. Each `RunTask` is a whole task, its microtasks included. Only the tasks that end after
 * `from` count: the measured run, from the page's `agent-bench:armed` mark. The task that dispatched the person's
 * click is `click`, whatever it did (its handler, React's render of what it started, the style and layout Chromium
 * runs after an input). A task mostly spent handing a response's body from the network to its stream (Chromium's
 * `DataPipeBytesConsumer` or `ResponseBodyLoader`, before any script reads it) is `body`.
 * `waited` counts those whose main thread ran for under 50 ms of them: the rest of the task it waited (for a CPU the
 * machine gave to another process, a font lookup in the browser process, the disk), which a quieter machine would
 * not have made it wait.
 */
function longTasksByKind(
  events: TraceEvent[],
  from: number,
): Record<'click' | 'frame' | 'gc' | 'body' | 'script' | 'waited', number> {
  const kinds = { click: 0, frame: 0, gc: 0, body: 0, script: 0, waited: 0 };
  let index = 0;
  const long = (event: TraceEvent) =>
    event.name === 'RunTask' && event.ts + (event.dur ?? 0) > from && (event.dur ?? 0) > 50_000;
  for (const task of events.filter(long)) {
    const end = task.ts + (task.dur ?? 0);
    while (index < events.length && (events[index] as TraceEvent).ts < task.ts) index++;
    let rendered = 0;
    let collected = 0;
    let received = 0;
    let clicked = false;
    for (let at = index; at < events.length && (events[at] as TraceEvent).ts < end; at++) {
      const event = events[at] as TraceEvent;
      const watched = event.args?.chrome_mojo_event_info?.watcher_notify_interface_tag;
      if (
        (event.name === 'SimpleWatcher::OnHandleReady' && watched?.includes('bytes_consumer') === true) ||
        (event.name === 'ThreadControllerImpl::RunTask' && event.args?.src_file?.includes('response_body_loader'))
      )
        received += event.dur ?? 0;
      if (event.name === 'EventDispatch' && event.args?.data?.type === 'click') clicked = true;
      // What a counted event contains (a paint within a paint, a collection within a layout) is skipped below, so
      // nothing counts twice.
      if (rendering.includes(event.name)) rendered += event.dur ?? 0;
      if (event.name === 'MinorGC' || event.name === 'MajorGC') collected += event.dur ?? 0;
      if (rendering.includes(event.name) || event.name === 'MinorGC' || event.name === 'MajorGC') {
        const skipTo = event.ts + (event.dur ?? 0);
        while (at + 1 < events.length && (events[at + 1] as TraceEvent).ts < skipTo) at++;
      }
    }
    const duration = task.dur ?? 0;
    kinds[
      clicked
        ? 'click'
        : rendered > duration / 2
          ? 'frame'
          : collected >= duration * 0.3
            ? 'gc'
            : received > duration / 2
              ? 'body'
              : 'script'
    ]++;
    if ((task.tdur ?? duration) < 50_000) kinds.waited++;
  }
  return kinds;
}

/** The longest task of a run by the main thread's own time, and that task's wall time. */
export interface ThreadTime {
  /** The main thread's own time in the task (`tdur`): 0 when no task was over 50 ms. */
  threadMs: number;
  /** The task's time from its start to its end, waits included (what the `longtask` observer reports). */
  wallMs: number;
}

/**
 * The measured run's longest task by the main thread's own time: among the tasks over 50 ms between the page's
 * `agent-bench:armed` and `agent-bench:end` marks, the one whose thread ran longest. A task's wall time also holds what
 * the thread waited for (a CPU the machine gave to another process, the disk), which moves with the machine's load;
 * its own time moves far less, so it says whether the work itself fits in a frame's budget.
 */
export async function longestTaskByThreadTime(file: string): Promise<ThreadTime> {
  const all = await readTrace(file);
  const from = all.find((event) => event.name === 'agent-bench:armed')?.ts ?? 0;
  const to = all.find((event) => event.name === 'agent-bench:end')?.ts ?? Number.POSITIVE_INFINITY;
  let longest: ThreadTime = { threadMs: 0, wallMs: 0 };
  for (const task of mainThreadEvents(all)) {
    const wall = task.dur ?? 0;
    if (task.name !== 'RunTask' || wall <= 50_000 || task.ts + wall <= from || task.ts >= to) continue;
    const threadMs = (task.tdur ?? wall) / 1000;
    if (threadMs > longest.threadMs) longest = { threadMs, wallMs: wall / 1000 };
  }
  return longest;
}

async function readTrace(file: string): Promise<TraceEvent[]> {
  const parsed = JSON.parse(await readFile(file, 'utf8')) as { traceEvents?: TraceEvent[] } | TraceEvent[];
  return Array.isArray(parsed) ? parsed : (parsed.traceEvents ?? []);
}

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

const sumOf = (frame: Frame, names: string[]) =>
  names.reduce((sum, name) => sum + (frame.parts.get(name) ?? 0), 0) / 1000;

/** One line about the frames of a trace file. */
export async function summarizeTrace(file: string): Promise<string> {
  const all = await readTrace(file);
  const events = mainThreadEvents(all);
  const { frames, forcedLayouts, forcedMs } = readTasks(events);
  // The mark is on the renderer's main thread too, but as an instant (`R`/`I`) or async event, not a complete one.
  const armedAt = all.find((event) => event.name === 'agent-bench:armed')?.ts;
  const long = longTasksByKind(events, armedAt ?? 0);
  const both = (pick: (frame: Frame) => number, digits = 1) =>
    `${quantile(frames.map(pick), 0.5).toFixed(digits)}/${quantile(frames.map(pick), 0.9).toFixed(digits)}`;
  return (
    `${frames.length} frames (page load included), median/p90: task ${both((frame) => frame.durationMs)} ms, ` +
    `script ${both((frame) => sumOf(frame, scripting))} ms, style and layout ${both((frame) => sumOf(frame, rendering.slice(0, 2)))} ms, ` +
    `paint ${both((frame) => sumOf(frame, rendering.slice(2)))} ms; elements restyled ${both((frame) => frame.elements, 0)}, ` +
    `layout objects dirtied ${both((frame) => frame.dirtyObjects, 0)}; ${frames.filter((frame) => frame.durationMs > 50).length} frames over 50 ms; ` +
    `${forcedLayouts} layouts forced by scripts (${forcedMs.toFixed(0)} ms); tasks over 50 ms ` +
    `${armedAt === undefined ? '(page load included)' : 'in the measured run'}: ` +
    `${long.click} the click, ${long.frame} frames, ${long.gc} garbage collections, ${long.body} receiving a body, ` +
    `${long.script} script; ` +
    `${long.waited} of them ran under 50 ms on the main thread (the rest of the task it waited)`
  );
}
