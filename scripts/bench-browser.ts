/**
 * `npm run bench:browser`: in real Chromium, GeneratePanel and LiveBuildLog render one generation of
 * BENCH_EVENTS (default 20,000) file and tool events streamed as fast as possible: from the in-browser mock in a
 * worker through createWorkerMockTransport (no network: a burst; and with the mock in the page through
 * createMockTransport in the page: "page burst"), over HTTP from the Node mock through createHttpTransport
 * (chunks arrive as the network delivers them), and as a resume after a reload (the whole log replayed through
 * the proxy's events route, served here in 16 KiB chunks as fast as the socket takes them); the burst, the HTTP
 * stream (an agency's page: the library alone in the page, its proxy elsewhere) and the replay again with
 * Chromium's CPU throttled 4x (a mid-range phone). The page is a production build with
 * React's production build, whose commits a DevTools-style hook counts (bench/browser/react-commits.ts). Prints, per run: React commits against
 * animation frames (target at most 1 per frame), the longest main-thread task (target under 50 ms), the time
 * to the final render, for a replay the first file rows after the answer's first byte (target 100 ms), and DOM
 * rows left in the file list. Figures are printed, never asserted. BENCH_RUNS (default 3) runs per case;
 * BENCH_PORT, BENCH_MOCK_PORT and BENCH_REPLAY_PORT fix the ports (default: free ones); BENCH_PROFILE=dir
 * writes a CPU profile of each run there (open it in the Performance panel), and BENCH_TRACE=dir a Chromium
 * trace of each run (tasks with their scripts, style, layout and paint; load it in the Performance panel) and prints
 * its frames' times and the counts that do not move with the machine's load (scripts/bench-trace.ts). BENCH_CASES=replay,burst runs
 * only the cases whose name contains one of the words. In the same run, the AI SDK's `useChat` renders the same
 * build from the same server in the same 16 KiB chunks, as data parts and as text (bench/browser/chat.tsx),
 * measured by the same code and printed as ratios to agent-embed's replay. A run that has not ended after
 * BENCH_TIMEOUT seconds (default 120) is stopped and reported as such. Each run is traced lightly (the main thread's
 * tasks and the bench's marks; BENCH_THREAD_TIME=0 turns it off), and its longest task is printed with the main
 * thread's own time beside its wall time: on a shared machine a task's wall time also holds the time the thread waited
 * for a CPU, which a verdict on the work itself must leave out.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from './chromium.ts';
import { build, preview } from 'vite';
import { benchEvents, benchScript } from '../bench/browser/bench-script.ts';
import type { AgentBench, BenchResult } from '../bench/browser/main.tsx';
import { uiMessageStream, uiMessageStreamHeaders, type ChatVariant } from '../bench/browser/ui-message-stream.ts';
import {
  format,
  longestTask,
  printComparison,
  printSummary,
  threadTimeText,
  worstThreadTime,
  type CaseResults,
} from './bench-browser-compare.ts';
import { longestTaskByThreadTime, summarizeTrace, type ThreadTime } from './bench-trace.ts';
import { startMockAgentServer } from '../src/mock/index.ts';
import { entryAliases } from '../vite.config.ts';

const steps = Number(process.env.BENCH_EVENTS ?? 20_000);
const runs = Number(process.env.BENCH_RUNS ?? 3);
const timeoutS = Number(process.env.BENCH_TIMEOUT ?? 120);
if (!Number.isInteger(steps) || steps < 1)
  throw new Error(`BENCH_EVENTS must be a positive integer, not ${process.env.BENCH_EVENTS}.`);
if (!Number.isInteger(runs) || runs < 1)
  throw new Error(`BENCH_RUNS must be a positive integer, not ${process.env.BENCH_RUNS}.`);
if (!(timeoutS > 0))
  throw new Error(`BENCH_TIMEOUT must be a positive number of seconds, not ${process.env.BENCH_TIMEOUT}.`);

/** A port from the environment: a fixed one, or 0 for a free one. */
function portOf(name: string): number {
  const port = Number(process.env[name] ?? 0);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new Error(`${name} must be a port, not ${process.env[name]}.`);
  return port;
}

const profileDir = process.env.BENCH_PROFILE;
if (profileDir !== undefined) await mkdir(profileDir, { recursive: true });
const traceDir = process.env.BENCH_TRACE;
if (traceDir !== undefined) await mkdir(traceDir, { recursive: true });
/** The trace's categories: the Performance panel's (tasks, scripts, style, layout, paint) and React's marks. */
const traceCategories = [
  'toplevel',
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'v8.execute',
  'blink.user_timing',
];

/** Without BENCH_TRACE, the least a run's trace needs for the main thread's own time: its tasks and the marks. */
const threadTimeCategories = ['disabled-by-default-devtools.timeline', 'blink.user_timing'];
const threadTimeTraced = process.env.BENCH_THREAD_TIME !== '0';

const root = new URL('../bench/browser', import.meta.url).pathname;
const outDir = await mkdtemp(join(tmpdir(), 'agent-embed-bench-'));

function report(run: number, result: BenchResult, thread: ThreadTime | undefined): void {
  const perFrame = result.commits / Math.max(1, result.frames);
  const perRefresh = result.commits / result.refreshes;
  console.log(
    `run ${run}: ${format(result.steps)} steps -> ${result.state} in ${format(result.durationMs)} ms (${format((result.steps / result.durationMs) * 1000)} events/s)`,
  );
  console.log(
    `  React commits ${format(result.commits)}: ${format(perFrame, 2)} per animation frame run (${format(result.frames)}), ` +
      `at most ${format(result.mostCommitsInFrame)} between two frames, ` +
      `${format(perRefresh, 2)} per 60 Hz refresh elapsed (${format(result.refreshes)}) (target <= 1)`,
  );
  console.log(
    `  long tasks: ${result.longTaskCount} (max ${format(result.longTaskMaxMs)} ms, total ${format(result.longTaskTotalMs)} ms; target: none over 50 ms)` +
      (thread === undefined ? '' : `; ${threadTimeText(thread)}`),
  );
  if (result.firstRowsMs !== undefined)
    console.log(`  first file rows ${format(result.firstRowsMs)} ms after the replay's first byte (target <= 100 ms)`);
  console.log(`  DOM rows in the log at the end: ${result.fileRows} for "${result.fileCountText}"`);
  if (result.mount !== undefined)
    console.log(
      `  mount: first commit ${format(result.mount.firstCommitMs)} ms after render(), longest task ${longestTask(result.mount.longestTaskMs)}; ` +
        `after it, before the run: longest task ${longestTask(result.mount.longestTaskAfterMs)}`,
    );
}

interface BenchCase {
  transport: 'worker' | 'page' | 'http' | 'replay' | 'chat-data' | 'chat-text';
  /** Chromium's CPU throttling rate (1: none). */
  throttle: number;
  name: string;
}
const benchCases: BenchCase[] = [
  { transport: 'worker', throttle: 1, name: 'burst: mock in a worker (createWorkerMockTransport)' },
  { transport: 'http', throttle: 1, name: 'HTTP: Node mock (createHttpTransport)' },
  { transport: 'replay', throttle: 1, name: 'replay: resume after a reload through the events route' },
  { transport: 'page', throttle: 1, name: 'page burst: mock in the page (createMockTransport)' },
  { transport: 'worker', throttle: 4, name: 'burst 4x: the burst, CPU throttled 4x' },
  { transport: 'http', throttle: 4, name: 'HTTP 4x: over HTTP, CPU throttled 4x' },
  { transport: 'replay', throttle: 4, name: 'replay 4x: the replay, CPU throttled 4x' },
  { transport: 'page', throttle: 4, name: 'page burst 4x: the page burst, CPU throttled 4x' },
  { transport: 'chat-data', throttle: 1, name: 'useChat (AI SDK): the same build as data parts' },
  { transport: 'chat-text', throttle: 1, name: 'useChat (AI SDK): the same build as text' },
];

const caseWords = process.env.BENCH_CASES?.split(',');
const selectedCases = benchCases.filter(
  (benchCase) => caseWords === undefined || caseWords.some((word) => benchCase.name.includes(word)),
);

const mock = await startMockAgentServer({
  port: portOf('BENCH_MOCK_PORT'),
  speed: 'instant',
  credits: steps * 2 * runs * benchCases.length,
  rateLimit: false,
  scenario: { script: () => benchScript(steps) },
});

/** A body in the 16 KiB chunks every answer of the bench's server is written in. */
function chunked(text: string): Buffer[] {
  const body = Buffer.from(text);
  const chunks: Buffer[] = [];
  for (let offset = 0; offset < body.length; offset += 16 * 1024)
    chunks.push(body.subarray(offset, offset + 16 * 1024));
  return chunks;
}

/** The recorded log of the same build as the proxy's events route answers it: every event numbered. */
function replayChunks(): Buffer[] {
  return chunked(
    benchEvents(steps)
      .map((event, index) => `id: ${index + 1}\ndata: ${JSON.stringify(event)}\n\n`)
      .join(''),
  );
}

/**
 * The events route alone (the rest of the proxy is the mock) and useChat's chat route (`POST /api/chat/data`
 * or `/text`): the whole build as fast as the socket takes it.
 */
async function startReplayServer(): Promise<{ server: Server; origin: string }> {
  const chunks = replayChunks();
  const chatChunks: Record<ChatVariant, Buffer[]> = {
    data: chunked(uiMessageStream(benchEvents(steps), 'data')),
    text: chunked(uiMessageStream(benchEvents(steps), 'text')),
  };
  const server = createServer((request, response) => {
    const chat = /^\/api\/chat\/(data|text)$/.exec(request.url ?? '')?.[1] as ChatVariant | undefined;
    const replay = /\/projects\/bench-replay\/events(\?|$)/.test(request.url ?? '');
    if (request.method === 'POST' && chat !== undefined) {
      // The request (the chat's messages) is read, then answered like the AI SDK's createUIMessageStreamResponse.
      request.resume();
      request.on('end', () => {
        response.writeHead(200, uiMessageStreamHeaders);
        for (const chunk of chatChunks[chat]) response.write(chunk);
        response.end();
      });
      return;
    }
    if (request.method !== 'GET' || !replay) {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not_found"}');
      return;
    }
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for (const chunk of chunks) response.write(chunk);
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(portOf('BENCH_REPLAY_PORT'), '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('The replay server has no port.');
  return { server, origin: `http://127.0.0.1:${address.port}` };
}

/** The result of a page's run, or undefined when it has not ended within BENCH_TIMEOUT. */
async function resultWithin(page: Page): Promise<BenchResult | undefined> {
  const stopTimer = new AbortController();
  const timeout = sleep(timeoutS * 1000, undefined, { signal: stopTimer.signal }).catch(() => undefined);
  const result = page.evaluate(() => (window as unknown as { agentBench: AgentBench }).agentBench.result());
  try {
    return await Promise.race([result, timeout]);
  } finally {
    stopTimer.abort();
    // Closing the page abandons the evaluation.
    result.catch(() => undefined);
  }
}

/** Runs BENCH_RUNS generations of one case, printing each and the worst figures. */
async function measure(browser: Browser, url: string, benchCase: BenchCase): Promise<CaseResults> {
  console.log(`${benchCase.name}:`);
  const results: BenchResult[] = [];
  const threadTimes: ThreadTime[] = [];
  let unfinished = 0;
  for (let run = 1; run <= runs; run++) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
    const session = await page.context().newCDPSession(page);
    if (benchCase.throttle !== 1) await session.send('Emulation.setCPUThrottlingRate', { rate: benchCase.throttle });
    if (profileDir !== undefined) {
      await session.send('Profiler.enable');
      await session.send('Profiler.setSamplingInterval', { interval: 200 });
      await session.send('Profiler.start');
    }
    const traced = traceDir !== undefined || threadTimeTraced;
    const traceFile = join(traceDir ?? outDir, `${benchCase.transport}-${benchCase.throttle}x-${run}.json`);
    if (traced)
      await browser.startTracing(page, {
        path: traceFile,
        categories: traceDir === undefined ? threadTimeCategories : traceCategories,
      });
    const chat =
      benchCase.transport === 'chat-data' ? 'data' : benchCase.transport === 'chat-text' ? 'text' : undefined;
    const query = new URLSearchParams(
      chat === undefined
        ? { steps: String(steps), transport: benchCase.transport, token: mock.token }
        : { steps: String(steps), variant: chat },
    );
    await page.goto(`${url}${chat === undefined ? '' : 'chat.html'}?${query}`);
    if (benchCase.transport !== 'replay') {
      await page.getByLabel('Describe the app you want').fill('A dashboard with thousands of generated modules');
      // Focused first, in a task of its own, as a person's press focuses the button (mousedown) a task before the
      // click (mouseup); the panel then moves focus to "Stop watching" and back.
      const submit = page.locator('button[type="submit"]');
      await submit.focus();
      const box = await submit.boundingBox();
      if (box === null) throw new Error('The submit button is not on the page.');
      // Armed first, then clicked as a person clicks: the browser's own input events, not a script's click() in the
      // task that armed the bench, which put the bench's own script (the DevTools protocol's call) into the click's
      // task. The button is held 80 ms, as a finger or a mouse button is: released at once, the press and the
      // release came in one input task with the click. Nothing runs in the page between them but the browser's own.
      await page.evaluate(() => (window as unknown as { agentBench: AgentBench }).agentBench.arm());
      await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2, { delay: 80 });
    }
    const result = await resultWithin(page);
    if (traced) await browser.stopTracing();
    const thread = traced && result !== undefined ? await longestTaskByThreadTime(traceFile) : undefined;
    if (result === undefined) {
      unfinished += 1;
      console.log(`run ${run}: did not finish in ${format(timeoutS)} s`);
    } else if (result.state === 'error') {
      unfinished += 1;
      console.log(`run ${run}: useChat failed: ${result.fileCountText}`);
    } else {
      results.push(result);
      if (thread !== undefined) threadTimes.push(thread);
      report(run, result, thread);
    }
    if (profileDir !== undefined && result !== undefined) {
      const { profile } = await session.send('Profiler.stop');
      const file = join(profileDir, `${benchCase.transport}-${benchCase.throttle}x-${run}.cpuprofile`);
      await writeFile(file, JSON.stringify(profile));
      console.log(`  CPU profile: ${file}`);
    }
    if (traceDir !== undefined) {
      console.log(`  trace: ${traceFile}\n  ${await summarizeTrace(traceFile)}`);
    }
    await page.close();
  }
  if (results.length === 0) console.log(`none of ${runs} finished in ${format(timeoutS)} s\n`);
  else {
    const worst = (pick: (result: BenchResult) => number) => Math.max(...results.map(pick));
    const firstRows = worst((result) => result.firstRowsMs ?? Number.NaN);
    console.log(
      `worst of ${results.length}${unfinished === 0 ? '' : ` (${unfinished} more did not finish in ${format(timeoutS)} s)`}: ${format(
        worst((result) => result.commits / Math.max(1, result.frames)),
        2,
      )} commits per animation frame run (at most ${format(worst((result) => result.mostCommitsInFrame))} between two frames), ` +
        `longest task ${longestTask(worst((result) => result.longTaskMaxMs))}` +
        `${threadTimes.length === 0 ? '' : ` (${threadTimeText(worstThreadTime(threadTimes))})`}, final render ${format(worst((result) => result.durationMs))} ms` +
        `${Number.isNaN(firstRows) ? '' : `, first rows ${format(firstRows)} ms after the first byte`}, ${worst((result) => result.fileRows)} DOM rows\n`,
    );
  }
  return {
    name: benchCase.name,
    transport: benchCase.transport,
    throttle: benchCase.throttle,
    results,
    threadTimes,
    unfinished,
  };
}

let server: Awaited<ReturnType<typeof preview>> | undefined;
let browser: Browser | undefined;
const replay = await startReplayServer();
try {
  await build({
    configFile: false,
    root,
    base: './',
    // 'error': the mock's Node-only server import is externalised for the browser, as intended.
    logLevel: 'error',
    resolve: { alias: entryAliases },
    build: {
      outDir,
      emptyOutDir: true,
      target: 'es2022',
      reportCompressedSize: false,
      // A profile wants the functions' names.
      minify: profileDir === undefined,
      rollupOptions: {
        input: { agentEmbed: join(root, 'index.html'), useChat: join(root, 'chat.html') },
        onwarn(warning, warn) {
          if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
        },
      },
    },
  });
  server = await preview({
    configFile: false,
    root,
    logLevel: 'warn',
    build: { outDir },
    preview: {
      port: portOf('BENCH_PORT'),
      host: '127.0.0.1',
      strictPort: true,
      // The events route and useChat's route to the replay server, everything else to the mock.
      proxy: { '/api/v1/projects': replay.origin, '/api/chat': replay.origin, '/api/v1': new URL(mock.url).origin },
    },
  });
  const url = server.resolvedUrls?.local[0];
  if (url === undefined) throw new Error('The preview server has no URL.');
  browser = await launchChromium();
  console.log(
    `Chromium ${browser.version()}, ${format(steps)} file/tool steps per generation, ${runs} run(s), React's production build\n`,
  );

  const summary: CaseResults[] = [];
  for (const benchCase of selectedCases) summary.push(await measure(browser, url, benchCase));
  printSummary(summary, timeoutS);
  printComparison(summary, timeoutS);
} finally {
  await browser?.close();
  await server?.close();
  await mock.close();
  await new Promise((resolve) => replay.server.close(resolve));
  await rm(outDir, { recursive: true, force: true });
}
