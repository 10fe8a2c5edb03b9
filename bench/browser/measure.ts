/**
 * The measurement every page of `npm run bench:browser` shares, so that agent-embed and the AI SDK's `useChat`
 * are counted by the same code: React commits (react-commits.ts), animation frames, long tasks (the
 * `longtask` PerformanceObserver), the time to the final render and the DOM rows left at the end.
 */

/** What one measured generation produced. */
export interface BenchResult {
  steps: number;
  state: string;
  durationMs: number;
  commits: number;
  /** The most commits between two animation frames (the click's included, before the first): the target is 1. */
  mostCommitsInFrame: number;
  /** requestAnimationFrame callbacks that ran between the click and the end. */
  frames: number;
  /** Display refreshes (16.7 ms) that elapsed in that time, whether or not a frame could run. */
  refreshes: number;
  longTaskCount: number;
  longTaskMaxMs: number;
  longTaskTotalMs: number;
  /** A replay: milliseconds from the events route's first byte to the first file row on screen. */
  firstRowsMs: number | undefined;
  fileRows: number;
  fileCountText: string;
  /**
   * The page's first render: milliseconds from `render()` to its commit, its longest task, and the longest task after
   * the commit and before the run (what the embed defers past its mount, such as the locale data); 0: none over 50 ms.
   */
  mount: { firstCommitMs: number; longestTaskMs: number; longestTaskAfterMs: number } | undefined;
}

/** The control the benchmark script drives through Playwright. */
export interface AgentBench {
  /** Starts counting commits, frames and long tasks; call it right before clicking Generate. */
  arm(): void;
  /** Resolves when the page reaches a terminal state, with everything measured since `arm`. */
  result(): Promise<BenchResult>;
}

/** What a page tells the measurement about itself. */
export interface MeasureOptions {
  steps: number;
  /** The rows the page shows (counted at the end; the first one's arrival is the first rows). */
  rowSelector: string;
  /** The page's words for how many rows there are. */
  countText: () => string;
  /** The run's state, read on each change of a `data-state` attribute. */
  state: () => string;
  /** The states that end a run. */
  terminal: ReadonlySet<string>;
}

/** A page's measurement: the bench on `window.agentBench`, the first byte's mark. */
export interface Measurement {
  bench: AgentBench;
  armed(): boolean;
  /** Marks the arrival of the answer's first byte (first rows are measured from it). */
  firstByte(): void;
  /** Marks the first commit of the page's root, rendered at `renderAt` (`performance.now()` before `render()`). */
  mounted(renderAt: number): void;
}

import { onReactCommit } from './react-commits.ts';

const nextFrame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** Starts observing the page and puts its bench on `window.agentBench`. */
export function startMeasuring(options: MeasureOptions): Measurement {
  let armed = false;
  let startedAt = 0;
  let commits = 0;
  let commitsSinceFrame = 0;
  let mostCommitsInFrame = 0;
  let frames = 0;
  let firstByteAt: number | undefined;
  let firstRowsAt: number | undefined;
  let mountedBetween: [number, number] | undefined;
  let finish: ((result: BenchResult) => void) | undefined;
  const finished = new Promise<BenchResult>((resolve) => (finish = resolve));

  // Entries reach observers late (after the task they describe), so they are kept and filtered by time at the end.
  const longTaskEntries: PerformanceEntry[] = [];
  // The mount's are looked for at the end too: they may be delivered after a replay has armed.
  const pageLongTasks: PerformanceEntry[] = [];
  const observer = new PerformanceObserver((list) => {
    longTaskEntries.push(...list.getEntries());
    pageLongTasks.push(...list.getEntries());
  });
  observer.observe({ type: 'longtask', buffered: false });

  function countFrames(timestamp: number) {
    if (!armed) return;
    if (timestamp >= startedAt) frames += 1;
    commitsSinceFrame = 0;
    requestAnimationFrame(countFrames);
  }

  /** The mount's time and its longest tasks: those that started between `render()` and the commit, then until the run. */
  function mountFigures([renderAt, committedAt]: [number, number]) {
    const longestBetween = (from: number, to: number) =>
      Math.max(
        0,
        ...pageLongTasks
          .filter((entry) => entry.startTime >= from && entry.startTime < to)
          .map((entry) => entry.duration),
      );
    return {
      firstCommitMs: committedAt - renderAt,
      longestTaskMs: longestBetween(renderAt, committedAt),
      longestTaskAfterMs: longestBetween(committedAt, startedAt),
    };
  }

  async function stop(state: string) {
    armed = false;
    const endedAt = performance.now();
    // Where the measured run ends in a trace (scripts/bench-trace.ts reads its tasks between the two marks).
    performance.mark('agent-bench:end');
    const fileRows = document.querySelectorAll(options.rowSelector).length;
    const fileCountText = options.countText();
    // Let the task that ended the run finish and its entries be recorded.
    await nextFrame();
    await nextTask();
    await nextFrame();
    await nextTask();
    const records = observer.takeRecords();
    longTaskEntries.push(...records);
    pageLongTasks.push(...records);
    const longTasks = longTaskEntries
      .filter((entry) => entry.startTime + entry.duration > startedAt && entry.startTime < endedAt)
      .map((entry) => entry.duration);
    const durationMs = endedAt - startedAt;
    finish?.({
      steps: options.steps,
      state,
      durationMs,
      commits,
      mostCommitsInFrame,
      frames,
      refreshes: Math.max(1, Math.round(durationMs / (1000 / 60))),
      longTaskCount: longTasks.length,
      longTaskMaxMs: longTasks.length === 0 ? 0 : Math.max(...longTasks),
      longTaskTotalMs: longTasks.reduce((sum, value) => sum + value, 0),
      firstRowsMs: firstByteAt === undefined || firstRowsAt === undefined ? undefined : firstRowsAt - firstByteAt,
      fileRows,
      fileCountText,
      mount: mountedBetween && mountFigures(mountedBetween),
    });
  }

  // A data-state attribute says when the run has ended; attributes change only with the status.
  new MutationObserver(() => {
    if (armed && firstRowsAt === undefined && document.querySelector(options.rowSelector) !== null) {
      firstRowsAt = performance.now();
      performance.mark('agent-bench:first-rows');
    }
    const state = options.state();
    if (armed && options.terminal.has(state)) void stop(state);
  }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-state'] });

  const bench: AgentBench = {
    arm() {
      firstRowsAt = undefined;
      commits = 0;
      commitsSinceFrame = 0;
      mostCommitsInFrame = 0;
      frames = 0;
      longTaskEntries.length = 0;
      armed = true;
      startedAt = performance.now();
      // Where the measured run starts in a trace (scripts/bench-trace.ts counts the long tasks after it).
      performance.mark('agent-bench:armed');
      requestAnimationFrame(countFrames);
    },
    result: () => finished,
  };
  (window as unknown as { agentBench: AgentBench }).agentBench = bench;
  onReactCommit(() => {
    if (!armed) return;
    commits += 1;
    commitsSinceFrame += 1;
    mostCommitsInFrame = Math.max(mostCommitsInFrame, commitsSinceFrame);
  });
  return {
    bench,
    armed: () => armed,
    firstByte() {
      if (firstByteAt !== undefined) return;
      firstByteAt = performance.now();
      // Where the first rows are counted from, in a trace (with the first rows' own mark).
      performance.mark('agent-bench:first-byte');
    },
    mounted(renderAt) {
      mountedBetween ??= [renderAt, performance.now()];
    },
  };
}
