/**
 * Events are interpreted once: one recorded stream fed to the browser's store (the client), to the agency
 * proxy's recorder and to the mock gives the same counts and outcome, and a build whose stream was lost and
 * that then completed is recorded as what it ended as, so the conversation after a reload says what the end
 * user saw live.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  createAgentStore,
  selectProjectView,
  type AgentClient,
  type AgentEvent,
  type ConversationTurnOutcome,
} from 'agent-embed/core';
import { createMockTransport } from 'agent-embed/mock';
import { createAgentClient } from 'agent-embed/core';
import { startProxy, type ProxyStack } from './proxy-stack.js';
import { createScriptedUpstream, fakeToken, json, upstreamBase } from './scripted-upstream.js';

const prompt = 'A landing page for a neighbourhood bakery';
const appUrl = 'https://p-fold.apps.example.test';

/** The AI-generation part of a recorded build: steps that report several times, a file written twice. */
const generation: AgentEvent[] = [
  { type: 'tool_progress', tool: 'plan', message: 'Planning', status: 'running' },
  { type: 'tool_progress', tool: 'plan', message: 'Still planning', status: 'running' },
  { type: 'tool_progress', tool: 'plan', message: 'Planned 3 files', status: 'completed' },
  { type: 'file_created', path: 'src/App.tsx', action: 'created' },
  { type: 'file_created', path: 'src/main.tsx', action: 'created' },
  { type: 'tool_progress', tool: 'write_files', message: 'Writing', status: 'running' },
  { type: 'tool_progress', tool: 'write_files', message: 'Wrote 2 files', status: 'completed' },
  { type: 'file_created', path: 'src/App.tsx', action: 'modified' },
  { type: 'file_created', path: 'index.html', action: 'modified' },
  { type: 'tool_progress', tool: 'lint', message: 'Linted' },
];

/** The whole recorded stream of a new project. */
const recorded: AgentEvent[] = [
  { type: 'project_created', project_id: 'p-fold', app_url: appUrl },
  { type: 'container_progress', message: 'Allocating', percentage: 30 },
  { type: 'container_progress', message: 'Starting', percentage: 80 },
  { type: 'container_ready', message: 'Container ready.' },
  ...generation,
  { type: 'stream_end', project_id: 'p-fold', app_url: appUrl },
];

/** What the fold defines: distinct files created and modified, distinct steps (not events). */
const expectedCounts = { files_created: 1, files_modified: 3 - 1, steps: 3 };

function sse(events: readonly AgentEvent[], drop: boolean): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const chunks = events.map((event) => encoder.encode(`data: ${JSON.stringify(event)}\n\n`));
  // One event per read, and the drop only after the last was read (an error discards what is queued).
  return new ReadableStream(
    {
      pull(controller) {
        const chunk = chunks.shift();
        if (chunk !== undefined) controller.enqueue(chunk);
        else if (drop) controller.error(new TypeError('The upstream connection was reset.'));
        else controller.close();
      },
    },
    { highWaterMark: 0 },
  );
}

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of cleanup.splice(0).reverse()) await close();
});

/** The proxy in front of an upstream that streams `events` (dropping after them if told) and answers status polls. */
async function proxyOver(events: readonly AgentEvent[], drop: boolean, projectStatus: () => string) {
  const upstream = createScriptedUpstream((call) => {
    if (call.method === 'POST')
      return new Response(sse(events, drop), { status: 200, headers: { 'content-type': 'text/event-stream' } });
    return json({
      status: true,
      project_id: 'p-fold',
      app_url: appUrl,
      project_status: projectStatus(),
      name: 'Bakery',
    });
  });
  const stack: ProxyStack = await startProxy(upstreamBase, fakeToken, { fetch: upstream.fetch });
  cleanup.push(stack.close);
  return stack;
}

function countsOf(outcome: ConversationTurnOutcome | null | undefined) {
  return outcome == null
    ? undefined
    : { files_created: outcome.files_created, files_modified: outcome.files_modified, steps: outcome.steps };
}

async function buildWith(client: AgentClient) {
  const store = createAgentStore({ client, storage: null, pollIntervalMs: 20 });
  const result = await store.getState().generate({ prompt });
  const view = selectProjectView(store.getState());
  store.destroy();
  return { result, view };
}

describe('one fold of the events', () => {
  it('one recorded stream: the browser, the proxy and the mock count the same files and steps', async () => {
    // The browser, through the proxy, which records the turn as it relays it.
    const stack = await proxyOver(recorded, false, () => 'ready');
    const browser = await buildWith(stack.client('alice'));
    expect(browser.result.outcome).toBe('completed');
    const seen = {
      files_created: browser.view.filesCreated,
      files_modified: browser.view.filesModified,
      steps: browser.view.steps,
    };
    expect(seen).toEqual(expectedCounts);
    const [turn] = await stack.client('alice').projects.conversation('p-fold');
    expect(turn?.outcome).toEqual({ status: 'completed', ...expectedCounts });

    // The mock, running the same AI-generation events as its script (it sends its own container events).
    const transport = createMockTransport({
      speed: 'instant',
      rateLimit: false,
      scenario: { script: () => generation.map((event) => ({ type: 'raw' as const, event: { ...event } })) },
    });
    const client = createAgentClient({ transport });
    const mocked = await buildWith(client);
    expect(mocked.result.outcome).toBe('completed');
    expect({
      files_created: mocked.view.filesCreated,
      files_modified: mocked.view.filesModified,
      steps: mocked.view.steps,
    }).toEqual(expectedCounts);
    const [mockTurn] = await client.projects.conversation(mocked.result.projectId!);
    expect(countsOf(mockTurn?.outcome)).toEqual(expectedCounts);
    expect(mockTurn?.outcome?.status).toBe('completed');
    transport.api.dispose();
  });

  it('a build whose stream was lost and then completed is recorded as completed, with what was seen live', async () => {
    const cut = recorded.slice(0, 4 + 5);
    // The stream is lost; the build goes on upstream, and the status the store then polls says it is ready.
    const stack = await proxyOver(cut, true, () => 'ready');
    const store = createAgentStore({ client: stack.client('alice'), storage: null, pollIntervalMs: 20 });
    const result = await store.getState().generate({ prompt });
    expect(result.outcome).toBe('completed');
    const live = store.getState().conversations['p-fold']?.at(-1)?.outcome;
    expect(live?.status).toBe('completed');
    expect(live?.filesCreated).toBe(2);
    store.destroy();

    // After a reload, the proxy's record says the same thing, with the same counts.
    const [turn] = await stack.client('alice').projects.conversation('p-fold');
    expect(turn?.outcome?.status).toBe('completed');
    expect(countsOf(turn?.outcome)).toEqual({
      files_created: live?.filesCreated,
      files_modified: live?.filesModified,
      steps: live?.steps,
    });
  });
});
