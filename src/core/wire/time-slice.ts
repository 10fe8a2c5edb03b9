/**
 * Time slicing of stream ingestion: events are applied in slices of a few milliseconds, and in a browser the
 * main thread is handed back between slices, so a burst of thousands of buffered events (the in-browser
 * mock, a replay of a whole build, a fast proxy) never becomes one long task. Outside a browser nothing
 * waits for a page to paint, so the same loop runs without yielding (and without reading a clock).
 */

/** How an event stream shares the thread it runs on; inject both to test the slicing deterministically. */
export interface StreamSlicing {
  /** The clock of the slice's deadline, in milliseconds. */
  now(): number;
  /**
   * Resolves in a new task, after the browser has had its turn (rendering, input). `afterWait`: the work resumes
   * after waiting for something else (a network read), while the page was free to render.
   */
  yieldTask(afterWait?: boolean): Promise<void>;
}

/** Work done before the thread is handed back, in milliseconds, and the most events that pass between clock reads. */
export const sliceMs = 8;
export const eventsPerCheck = 32;
// The longest time between two clock reads before a slicer reads the clock after each event (see `createSlicer`).
const checkMs = 1;
// A frame is awaited once a display refresh has passed without one: `scheduler.yield()` continuations run ahead of
// rendering, and at 50 ms one frame ran every 60-70 ms of a burst (1.2-1.7 commits per frame run, against
// 1.06-1.25 at 16 ms, for a third more time to the final render; see docs/performance.md).
const frameEveryMs = 16;

/** The page's `scheduler.yield()`, where it exists (Chromium): a new task that keeps the current one's priority. */
export function schedulerYield(): (() => Promise<void>) | undefined {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  return typeof scheduler?.yield === 'function'
    ? () => (scheduler.yield as () => Promise<void>).call(scheduler)
    : undefined;
}

/** Resolves in a new task: `scheduler.yield()` where it exists (it keeps the task's priority), else a message. */
export function yieldToBrowser(): Promise<void> {
  const yieldTask = schedulerYield();
  if (yieldTask !== undefined) return yieldTask();
  // A message is a new task that is not clamped to 4 ms as nested timeouts are.
  return new Promise((resolve) => {
    const { port1, port2 } = new MessageChannel();
    port1.onmessage = () => {
      port1.close();
      resolve();
    };
    port2.postMessage(0);
  });
}

/** A slice's deadline over a `StreamSlicing`, for any loop that works through a burst one item at a time. */
export interface Slicer {
  /**
   * Asked after each item: whether the slice has run out. The clock is read every `eventsPerCheck` items, and after
   * each item once an interval took over a millisecond, until the items are fast again.
   */
  due(): boolean;
  /**
   * Reads the clock now: whether the slice has run out. Asked when a network chunk arrives: one that arrives in a
   * task of its own (the browser's, which received it) finds it so, and its events then start a new task (`pause`)
   * rather than lengthen that one.
   */
  overdue(): boolean;
  /** Hands the thread back, then starts the next slice; `afterWait` as in `StreamSlicing.yieldTask`. */
  pause(afterWait?: boolean): Promise<void>;
}

// When the current slice of each slicing began. Stages that share a slicing (in a page: the in-browser mock's
// producer, the proxy's relay and the client, which can run in one task through the streams' promise callbacks)
// share one slice, so the task's work stays within one budget rather than one per stage.
const sliceStarts = new WeakMap<StreamSlicing, number>();

/** A slicer over `slicing`; without one it is never due (Node, workers, tests that want no slicing). */
export function createSlicer(slicing: StreamSlicing | undefined): Slicer {
  // Items between two clock reads: `eventsPerCheck` while they are fast, one after an interval that took longer than
  // `checkMs` (a slow handler, a device much slower than this one), then twice as many each interval they are fast
  // again. The first interval stays at `eventsPerCheck`: the first slice then holds the build's first rows with its
  // status (a first slice cut after the first event showed them a frame later; docs/performance.md, session 19).
  let checkEvery = eventsPerCheck;
  let untilCheck = eventsPerCheck;
  let checkedAt = 0;
  const ranOut = (at: number) => at - (sliceStarts.get(slicing as StreamSlicing) ?? 0) >= sliceMs;
  // A stream starts in a task of its own (its answer's arrival): a new slice.
  if (slicing !== undefined) {
    checkedAt = slicing.now();
    sliceStarts.set(slicing, checkedAt);
  }
  return {
    due() {
      if (--untilCheck > 0) return false;
      if (slicing === undefined) {
        untilCheck = eventsPerCheck;
        return false;
      }
      const at = slicing.now();
      checkEvery = at - checkedAt > checkMs ? 1 : Math.min(eventsPerCheck, 2 * checkEvery);
      untilCheck = checkEvery;
      checkedAt = at;
      return ranOut(at);
    },
    overdue() {
      untilCheck = checkEvery;
      if (slicing === undefined) return false;
      checkedAt = slicing.now();
      return ranOut(checkedAt);
    },
    async pause(afterWait) {
      if (slicing === undefined) return;
      await slicing.yieldTask(afterWait);
      checkedAt = slicing.now();
      sliceStarts.set(slicing, checkedAt);
    },
  };
}

/**
 * In a page's main thread: the platform's clock and `yieldToBrowser`, and after 16 ms of continuous work (one
 * display refresh) the next frame is awaited first (a page that is loading may give rendering no turn among busy tasks);
 * one for the whole page, so every stage in it shares the task's slice; elsewhere (Node, workers) no slicing.
 */
export function defaultStreamSlicing(): StreamSlicing | undefined {
  if (typeof document !== 'object' || typeof requestAnimationFrame !== 'function') return undefined;
  pageSlicing ??= createPageSlicing();
  return pageSlicing;
}

// One for the page: its stages share one slice per task and one frame wait.
let pageSlicing: StreamSlicing | undefined;

function createPageSlicing(): StreamSlicing {
  let framedAt = 0;
  const now = () => performance.now();
  return {
    now,
    async yieldTask(afterWait) {
      // Work that waited (for the network) left the page free to render meanwhile: no frame to wait for. A hidden
      // page runs no frames: waiting for one would stop the stream.
      if (!afterWait && now() - framedAt >= frameEveryMs && document.visibilityState !== 'hidden') {
        await new Promise((resolve) => requestAnimationFrame(resolve));
        framedAt = now();
      }
      return yieldToBrowser();
    },
  };
}
