/**
 * The page of `npm run bench:browser`: GeneratePanel and LiveBuildLog in React's production build, fed either by
 * the in-browser mock in a worker through `createWorkerMockTransport` (`?transport=worker`, default), or in the
 * page through `createMockTransport` as Storybook runs it (`?transport=page`), or over HTTP by the Node
 * mock behind the preview server (`?transport=http&token=…`), with thousands of steps at 'instant' speed; or
 * (`?transport=replay`) resuming a saved build after a reload, the whole log replayed through the proxy's
 * events route. It measures one generation between `window.agentBench.arm()` (a replay arms itself when it
 * requests the events) and the build log reaching a terminal state.
 */
// First: the commit counter must be in place before react-dom loads.
import './react-commits.ts';
import { StrictMode, useLayoutEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { AgentProvider, GeneratePanel, LiveBuildLog } from 'agent-embed';
import { createHttpTransport, fetchInWorker } from 'agent-embed/core';
import { createMockTransport, createWorkerMockTransport } from 'agent-embed/mock';
import 'agent-embed/styles.css';
import { benchScript } from './bench-script.ts';
import { startMeasuring } from './measure.ts';

export type { AgentBench, BenchResult } from './measure.ts';

const query = new URLSearchParams(window.location.search);
const steps = Number(query.get('steps') ?? 20_000);
// The token is the Node mock's development token, generated for this run.
const mode = query.get('transport') ?? 'worker';

const measurement = startMeasuring({
  steps,
  rowSelector: '.ae-file',
  countText: () => document.querySelector('.ae-files > .ae-label')?.textContent ?? '',
  state: () => document.querySelector('.ae-build-log')?.getAttribute('data-state') ?? 'idle',
  terminal: new Set(['completed', 'credits_exhausted', 'failed', 'interrupted', 'aborted']),
});

const timedFetch: typeof fetch = async (input, init) => {
  const replay = String(input).includes('/events');
  // A replay is measured from its request, after the page's first render.
  if (replay && !measurement.armed()) measurement.bench.arm();
  // The transport's own default: the stream read in a worker (the timing needs a fetch of its own here).
  const response = await fetchInWorker(input, init);
  if (replay) measurement.firstByte();
  return response;
};
function pageMockTransport() {
  // Built once at load: the bench's own data, not work of agent-embed's to measure after the click.
  const script = benchScript(steps);
  return createMockTransport({
    speed: 'instant',
    credits: steps * 2,
    rateLimit: false,
    scenario: { script: () => script },
  });
}
const transport =
  mode === 'http' || mode === 'replay'
    ? createHttpTransport({
        baseUrl: '/api/v1',
        headers: { authorization: `Bearer ${query.get('token') ?? ''}` },
        fetch: timedFetch,
      })
    : mode === 'page'
      ? pageMockTransport()
      : createWorkerMockTransport(
          // The worker's name carries the steps: its program has no other input before it serves.
          new Worker(new URL('./mock-worker.ts', import.meta.url), { type: 'module', name: String(steps) }),
        );

// A reload in the middle of a build: the provider resumes the saved project by replaying its events.
const externalUser = { id: 'bench-user' };
if (mode === 'replay') {
  sessionStorage.setItem(
    `agent-embed:last-project:${externalUser.id}`,
    JSON.stringify({ projectId: 'bench-replay', status: 'generating', kind: 'generate', mode: 'build' }),
  );
}

/** Marks the page's first commit: how long the embed takes to mount (and its longest task). */
function Mounted({ renderAt }: { renderAt: number }) {
  useLayoutEffect(() => measurement.mounted(renderAt), [renderAt]);
  return null;
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AgentProvider transport={transport} externalUser={externalUser} colorScheme="light">
      <Mounted renderAt={performance.now()} />
      <GeneratePanel />
      <LiveBuildLog />
    </AgentProvider>
  </StrictMode>,
);
