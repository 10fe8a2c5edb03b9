/**
 * The tables `npm run bench:browser` ends with: the worst figures of every case, then the AI SDK's `useChat`
 * against agent-embed on the same build, as ratios (how many times agent-embed's figure useChat's is).
 */
import { readFileSync } from 'node:fs';
import type { BenchResult } from '../bench/browser/measure.ts';
import type { ThreadTime } from './bench-trace.ts';

/** One case's finished runs and how many did not finish in time. */
export interface CaseResults {
  name: string;
  transport: string;
  throttle: number;
  results: BenchResult[];
  /** The finished runs' longest tasks by the main thread's own time (empty when the runs were not traced). */
  threadTimes: ThreadTime[];
  unfinished: number;
}

/** A number in English with a fixed count of decimals. */
export const format = (value: number, digits = 0) =>
  value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

const worstOf = (results: BenchResult[], pick: (result: BenchResult) => number) => Math.max(...results.map(pick));
const perFrame = (result: BenchResult) => result.commits / Math.max(1, result.frames);

/** A longest task as printed: 0 means none over 50 ms (the `longtask` observer reports no shorter ones). */
export const longestTask = (ms: number) => (ms === 0 ? 'under 50 ms' : `${format(ms)} ms`);

/** The runs' longest task by the main thread's own time. */
export const worstThreadTime = (times: readonly ThreadTime[]): ThreadTime =>
  times.reduce((worst, time) => (time.threadMs > worst.threadMs ? time : worst), { threadMs: 0, wallMs: 0 });

/** A longest task by the main thread's own time, as printed beside its wall time. */
export const threadTimeText = ({ threadMs, wallMs }: ThreadTime) =>
  threadMs === 0
    ? 'no task over 50 ms in the trace'
    : `the main thread's own time in its longest task ${format(threadMs)} ms (of ${format(wallMs)} ms)`;

/** Prints the worst figures of each case; a case with a run that did not finish says so. */
export function printSummary(summary: readonly CaseResults[], timeoutS: number): void {
  console.log('summary, worst of each case:');
  console.log(
    `${'case'.padEnd(56)}${'longest task'.padStart(14)}${'own time'.padStart(13)}${'commits/frame (most)'.padStart(22)}${'final render'.padStart(14)}${'first rows'.padStart(12)}${'mount task'.padStart(12)}${'after mount'.padStart(13)}`,
  );
  for (const { name, results, threadTimes, unfinished } of summary) {
    if (unfinished > 0) {
      console.log(
        `${name.padEnd(56)}  ${unfinished} of ${unfinished + results.length} run(s) did not finish in ${format(timeoutS)} s`,
      );
      if (results.length === 0) continue;
    }
    const firstRows = worstOf(results, (result) => result.firstRowsMs ?? Number.NaN);
    // The longest task of the page's first render (0: none over 50 ms); useChat's page does not mark its mount.
    const mountTask = worstOf(results, (result) => result.mount?.longestTaskMs ?? Number.NaN);
    // Its longest task after the first commit and before the run: what the embed defers past its mount.
    const afterMountTask = worstOf(results, (result) => result.mount?.longestTaskAfterMs ?? Number.NaN);
    const taskColumn = (ms: number, width: number) => (Number.isNaN(ms) ? '' : longestTask(ms)).padStart(width);
    // The main thread's own time in the longest task by it (blank when the runs were not traced).
    const ownTime = threadTimes.length === 0 ? Number.NaN : worstThreadTime(threadTimes).threadMs;
    console.log(
      `${name.padEnd(56)}${taskColumn(
        worstOf(results, (result) => result.longTaskMaxMs),
        14,
      )}${taskColumn(ownTime, 13)}${`${format(
        worstOf(results, perFrame),
        2,
      )} (${format(worstOf(results, (result) => result.mostCommitsInFrame))})`.padStart(
        22,
      )}${`${format(worstOf(results, (result) => result.durationMs))} ms`.padStart(14)}${(Number.isNaN(firstRows) ? '' : `${format(firstRows)} ms`).padStart(12)}${taskColumn(mountTask, 12)}${taskColumn(afterMountTask, 13)}`,
    );
  }
}

const version = (name: string) =>
  (
    JSON.parse(readFileSync(new URL(`../node_modules/${name}/package.json`, import.meta.url), 'utf8')) as {
      version: string;
    }
  ).version;

const ms = (value: number) => (value >= 10_000 ? `${format(value / 1000, 1)} s` : `${format(value)} ms`);

/** A figure of a case, worst of its runs; a case with an unfinished run has only a lower bound of its time. */
function figure(entry: CaseResults, pick: (result: BenchResult) => number, timeoutS: number) {
  if (entry.unfinished > 0) return { value: timeoutS * 1000, text: `> ${format(timeoutS)} s`, atLeast: true };
  const value = worstOf(entry.results, pick);
  return { value, text: undefined, atLeast: false };
}

/**
 * Prints useChat's cases against agent-embed's replay (the same bytes from the same server in the same chunks),
 * else its HTTP run, else its burst. The longtask API reports only tasks over 50 ms: where agent-embed has none,
 * its longest task counts as 50 ms and the ratio is a lower bound.
 */
export function printComparison(summary: readonly CaseResults[], timeoutS: number): void {
  const chats = summary.filter((entry) => entry.transport.startsWith('chat-'));
  const reference = ['replay', 'http', 'memory']
    .map((transport) =>
      summary.find((entry) => entry.transport === transport && entry.throttle === 1 && entry.unfinished === 0),
    )
    .find((entry) => entry !== undefined);
  if (chats.length === 0) return;
  console.log(
    `\nuseChat (ai ${version('ai')}, @ai-sdk/react ${version('@ai-sdk/react')}) against agent-embed, worst of each:`,
  );
  if (reference === undefined) {
    console.log('  no agent-embed case at 1x ran (BENCH_CASES): no ratios.');
    return;
  }
  const metrics: [string, (result: BenchResult) => number, (value: number) => string, number][] = [
    ['time to the final render', (result) => result.durationMs, ms, 0],
    ['longest main-thread task', (result) => result.longTaskMaxMs, ms, 50],
    ['React commits per animation frame run', perFrame, (value) => format(value, 2), 0],
    // While one task holds the main thread no frame runs: per refresh elapsed says how often it re-rendered.
    [
      'React commits per 60 Hz refresh elapsed',
      (result) => result.commits / result.refreshes,
      (value) => format(value, 2),
      0,
    ],
  ];
  const columns = [
    `agent-embed (${reference.name.split(':')[0]})`,
    ...chats.map((entry) => entry.name.split(': ')[1] ?? entry.name),
  ];
  console.log(`${''.padEnd(40)}${columns.map((column) => column.padStart(34)).join('')}`);
  for (const [label, pick, show, floor] of metrics) {
    const base = worstOf(reference.results, pick);
    const cells = [base === 0 && floor > 0 ? `< ${show(floor)}` : show(base)];
    for (const entry of chats) {
      const { value, text, atLeast } = figure(entry, pick, timeoutS);
      if (text !== undefined && label !== 'time to the final render') {
        cells.push('did not finish');
        continue;
      }
      const ratio = value / Math.max(base, floor, Number.MIN_VALUE);
      const bound = atLeast || (base === 0 && floor > 0) ? '>= ' : '';
      cells.push(`${text ?? show(value)} (${bound}${format(ratio, ratio < 10 ? 1 : 0)}x)`);
    }
    console.log(`${label.padEnd(40)}${cells.map((cell) => cell.padStart(34)).join('')}`);
  }
}
