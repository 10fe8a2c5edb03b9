/**
 * The page of `npm run bench:browser`: GeneratePanel and LiveBuildLog inside a React Profiler, fed either by
 * the in-browser mock through `createMockTransport` (`?transport=memory`, default) or over HTTP by the Node
 * mock behind the preview server (`?transport=http&token=…`), with thousands of steps at 'instant' speed; or
 * (`?transport=replay`) resuming a saved build after a reload, the whole log replayed through the proxy's
 * events route. It measures one generation between `window.agentBench.arm()` (a replay arms itself when it
 * requests the events) and the build log reaching a terminal state.
 */
import { Profiler, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AgentProvider, GeneratePanel, LiveBuildLog } from 'agent-embed';
import { createHttpTransport } from 'agent-embed/core';
import { createMockTransport } from 'agent-embed/mock';
import 'agent-embed/styles.css';
import { benchScript } from './bench-script.ts';

/** What one measured generation produced. */
export interface BenchResult {
  steps: number;
  state: string;
  durationMs: number;
  commits: number;
  /** requestAnimationFrame callbacks that ran between the click and the end. */
  frames: number;
  /** Display refreshes (16.7 ms) that elapsed in that time, whether or not a frame could run. */
  refreshes: number;
  longTaskCount: number;
  longTaskMaxMs: number;
  longTaskTotalMs: number;
  maxCommitMs: number;
  /** A replay: milliseconds from the events route's first byte to the first file row on screen. */
  firstRowsMs: number | undefined;
  fileRows: number;
  fileCountText: string;
}

/** The control the benchmark script drives through Playwright. */
export interface AgentBench {
  /** Starts counting commits, frames and long tasks; call it right before clicking Generate. */
  arm(): void;
  /** Resolves when the build log reaches a terminal state, with everything measured since `arm`. */
  result(): Promise<BenchResult>;
}

const query = new URLSearchParams(window.location.search);
const steps = Number(query.get('steps') ?? 20_000);
// The token is the Node mock's development token, generated for this run.
const mode = query.get('transport') ?? 'memory';
// The time the events route's answer arrived (its first byte): first rows are measured from it.
let firstByteAt: number | undefined;
const timedFetch: typeof fetch = async (input, init) => {
  const replay = String(input).includes('/events');
  // A replay is measured from its request, after the page's first render.
  if (replay && !armed) bench.arm();
  const response = await fetch(input, init);
  if (replay) firstByteAt ??= performance.now();
  return response;
};
const transport =
  mode === 'http' || mode === 'replay'
    ? createHttpTransport({
        baseUrl: '/api/v1',
        headers: { authorization: `Bearer ${query.get('token') ?? ''}` },
        fetch: timedFetch,
      })
    : createMockTransport({
        speed: 'instant',
        credits: steps * 2,
        rateLimit: false,
        scenario: { script: () => benchScript(steps) },
      });

const terminal = new Set(['completed', 'credits_exhausted', 'failed', 'interrupted', 'aborted']);
let armed = false;
let startedAt = 0;
let commits = 0;
let frames = 0;
let maxCommitMs = 0;
let finish: ((result: BenchResult) => void) | undefined;
const finished = new Promise<BenchResult>((resolve) => (finish = resolve));

// Entries reach observers late (after the task they describe), so they are kept and filtered by time at the end.
const longTaskEntries: PerformanceEntry[] = [];
const observer = new PerformanceObserver((list) => longTaskEntries.push(...list.getEntries()));
observer.observe({ type: 'longtask', buffered: false });

function countFrames(timestamp: number) {
  if (!armed) return;
  if (timestamp >= startedAt) frames += 1;
  requestAnimationFrame(countFrames);
}

const nextFrame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

async function stop(state: string) {
  armed = false;
  const endedAt = performance.now();
  const fileRows = document.querySelectorAll('.ae-file').length;
  const fileCountText = document.querySelector('.ae-files > .ae-label')?.textContent ?? '';
  // Let the task that ended the run finish and its entries be recorded.
  await nextFrame();
  await nextTask();
  await nextFrame();
  await nextTask();
  longTaskEntries.push(...observer.takeRecords());
  const longTasks = longTaskEntries
    .filter((entry) => entry.startTime + entry.duration > startedAt && entry.startTime < endedAt)
    .map((entry) => entry.duration);
  const durationMs = endedAt - startedAt;
  finish?.({
    steps,
    state,
    durationMs,
    commits,
    frames,
    refreshes: Math.max(1, Math.round(durationMs / (1000 / 60))),
    longTaskCount: longTasks.length,
    longTaskMaxMs: longTasks.length === 0 ? 0 : Math.max(...longTasks),
    longTaskTotalMs: longTasks.reduce((sum, value) => sum + value, 0),
    maxCommitMs,
    firstRowsMs: firstByteAt === undefined || firstRowsAt === undefined ? undefined : firstRowsAt - firstByteAt,
    fileRows,
    fileCountText,
  });
}

let firstRowsAt: number | undefined;
// The build log's data-state says when the generation has ended; attributes change only with the status.
new MutationObserver(() => {
  if (armed && firstRowsAt === undefined && document.querySelector('.ae-file') !== null)
    firstRowsAt = performance.now();
  const state = document.querySelector('.ae-build-log')?.getAttribute('data-state') ?? 'idle';
  if (armed && terminal.has(state)) void stop(state);
}).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-state'] });

const bench: AgentBench = {
  arm() {
    firstRowsAt = undefined;
    commits = 0;
    frames = 0;
    maxCommitMs = 0;
    longTaskEntries.length = 0;
    armed = true;
    startedAt = performance.now();
    requestAnimationFrame(countFrames);
  },
  result: () => finished,
};
(window as unknown as { agentBench: AgentBench }).agentBench = bench;

function onRender(_id: string, _phase: string, actualDuration: number) {
  if (!armed) return;
  commits += 1;
  maxCommitMs = Math.max(maxCommitMs, actualDuration);
}

// A reload in the middle of a build: the provider resumes the saved project by replaying its events.
const externalUser = { id: 'bench-user' };
if (mode === 'replay') {
  sessionStorage.setItem(
    `agent-embed:last-project:${externalUser.id}`,
    JSON.stringify({ projectId: 'bench-replay', status: 'generating', kind: 'generate', mode: 'build' }),
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Profiler id="agent-embed" onRender={onRender}>
      <AgentProvider transport={transport} externalUser={externalUser} colorScheme="light">
        <GeneratePanel />
        <LiveBuildLog />
      </AgentProvider>
    </Profiler>
  </StrictMode>,
);
