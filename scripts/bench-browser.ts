/**
 * `npm run bench:browser`: in real Chromium, GeneratePanel and LiveBuildLog render one generation of
 * BENCH_EVENTS (default 20,000) file and tool events streamed as fast as possible at 'instant' speed, twice
 * over: from the in-browser mock through createMockTransport (no network: the whole stream arrives in one
 * task), and over HTTP from the Node mock through createHttpTransport (chunks arrive as the network delivers
 * them). The page is a production build with React's profiling build, so the Profiler counts real commits.
 * Prints, per run: React commits against animation frames (target at most 1 per frame), long main-thread
 * tasks (target none over 50 ms), DOM rows left in the file list (bounded by the window), and the total
 * time. Figures are printed, never asserted. BENCH_RUNS (default 3) runs per transport.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { launchChromium } from './chromium.ts';
import { build, preview } from 'vite';
import { benchScript } from '../bench/browser/bench-script.ts';
import type { AgentBench, BenchResult } from '../bench/browser/main.tsx';
import { startMockAgentServer } from '../src/mock/index.ts';
import { entryAliases } from '../vite.config.ts';

const steps = Number(process.env.BENCH_EVENTS ?? 20_000);
const runs = Number(process.env.BENCH_RUNS ?? 3);
if (!Number.isInteger(steps) || steps < 1)
  throw new Error(`BENCH_EVENTS must be a positive integer, not ${process.env.BENCH_EVENTS}.`);
if (!Number.isInteger(runs) || runs < 1)
  throw new Error(`BENCH_RUNS must be a positive integer, not ${process.env.BENCH_RUNS}.`);

const root = new URL('../bench/browser', import.meta.url).pathname;
const outDir = await mkdtemp(join(tmpdir(), 'agent-embed-bench-'));

const format = (value: number, digits = 0) =>
  value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

function report(run: number, result: BenchResult): void {
  const perFrame = result.commits / Math.max(1, result.frames);
  const perRefresh = result.commits / result.refreshes;
  console.log(
    `run ${run}: ${format(result.steps)} steps -> ${result.state} in ${format(result.durationMs)} ms (${format((result.steps / result.durationMs) * 1000)} events/s)`,
  );
  console.log(
    `  React commits ${format(result.commits)}: ${format(perFrame, 2)} per animation frame run (${format(result.frames)}), ` +
      `${format(perRefresh, 2)} per 60 Hz refresh elapsed (${format(result.refreshes)}) (target <= 1)`,
  );
  console.log(
    `  long tasks: ${result.longTaskCount} (max ${format(result.longTaskMaxMs)} ms, total ${format(result.longTaskTotalMs)} ms; target: none over 50 ms); longest commit ${format(result.maxCommitMs, 1)} ms`,
  );
  console.log(`  DOM rows in the file list at the end: ${result.fileRows} for "${result.fileCountText}"`);
}

const transports = ['memory', 'http'] as const;
const transportNames = {
  memory: 'in-browser mock (createMockTransport)',
  http: 'Node mock over HTTP (createHttpTransport)',
} as const;

const mock = await startMockAgentServer({
  speed: 'instant',
  credits: steps * 2 * runs,
  rateLimit: false,
  scenario: { script: () => benchScript(steps) },
});

/** Runs BENCH_RUNS generations through one transport, printing each and the worst figures. */
async function measure(browser: Browser, url: string, transport: (typeof transports)[number]): Promise<void> {
  console.log(`${transportNames[transport]}:`);
  const results: BenchResult[] = [];
  for (let run = 1; run <= runs; run++) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
    const query = new URLSearchParams({
      steps: String(steps),
      transport,
      ...(transport === 'http' ? { token: mock.token } : {}),
    });
    await page.goto(`${url}?${query}`);
    await page.getByLabel('Describe the app you want').fill('A dashboard with thousands of generated modules');
    // Armed and clicked in one task, so the measurement starts exactly at the click.
    await page.evaluate(() => {
      (window as unknown as { agentBench: AgentBench }).agentBench.arm();
      document.querySelector<HTMLButtonElement>('button[type="submit"]')!.click();
    });
    const result = await page.evaluate(() => (window as unknown as { agentBench: AgentBench }).agentBench.result());
    results.push(result);
    report(run, result);
    await page.close();
  }
  const worst = (pick: (result: BenchResult) => number) => Math.max(...results.map(pick));
  console.log(
    `worst of ${runs}: ${format(
      worst((result) => result.commits / Math.max(1, result.frames)),
      2,
    )} commits per animation frame run, ` +
      `${format(
        worst((result) => result.commits / result.refreshes),
        2,
      )} per refresh elapsed, ` +
      `longest task ${format(worst((result) => result.longTaskMaxMs))} ms, ${worst((result) => result.fileRows)} DOM rows, ${format(worst((result) => result.durationMs))} ms\n`,
  );
}

let server: Awaited<ReturnType<typeof preview>> | undefined;
let browser: Browser | undefined;
try {
  await build({
    configFile: false,
    root,
    base: './',
    // 'error': the mock's Node-only server import is externalised for the browser, as intended.
    logLevel: 'error',
    // react-dom's profiling build keeps <Profiler> working in production.
    resolve: { alias: [{ find: /^react-dom\/client$/, replacement: 'react-dom/profiling' }, ...entryAliases] },
    build: {
      outDir,
      emptyOutDir: true,
      target: 'es2022',
      reportCompressedSize: false,
      rollupOptions: {
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
    preview: { port: 0, host: '127.0.0.1', strictPort: true, proxy: { '/api/v1': new URL(mock.url).origin } },
  });
  const url = server.resolvedUrls?.local[0];
  if (url === undefined) throw new Error('The preview server has no URL.');
  browser = await launchChromium();
  console.log(
    `Chromium ${browser.version()}, ${format(steps)} file/tool steps per generation, ${runs} run(s), production React with the profiling build\n`,
  );

  for (const transport of transports) await measure(browser, url, transport);
} finally {
  await browser?.close();
  await server?.close();
  await mock.close();
  await rm(outDir, { recursive: true, force: true });
}
