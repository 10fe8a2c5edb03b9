/**
 * Issue 24: the in-browser mock runs the mock Agent API and the real proxy in the page's thread, so an instant
 * build of thousands of events must be handed over in pieces: the mock's producer and the proxy's relay work in
 * slices and hand the thread back between them, as the client's ingestion does. The slicing's clock and yield
 * are injected (a clock that advances 1 ms per read, a yield that is a real task), so nothing is timed.
 */
import { describe, expect, it } from 'vitest';
import { createAgentClient, createAgentStore, type StreamSlicing } from 'agent-embed/core';
import { createMockAgentApi, createMockTransport, type MockGenerationStep } from 'agent-embed/mock';
import { relayEventStream } from 'agent-embed/server';
import { readSse } from '../server/sse-reader.js';
import { call } from './mock-helpers.js';

const steps = 20_000;

/** A build of `count` steps: two files to one tool step, a file in three changed again. */
function buildSteps(count: number): MockGenerationStep[] {
  return Array.from({ length: count }, (_, index): MockGenerationStep =>
    index % 3 === 2
      ? { type: 'tool', tool: 'write_files', message: `Step ${index}`, status: 'running' }
      : { type: 'file', path: `src/module-${index % 5000}.ts`, action: index % 4 === 0 ? 'modified' : 'created' },
  );
}

/** A clock that advances 1 ms per read; each yield is a real task, and notes what `progress` says at that moment. */
function taskSlicing(progress: () => number) {
  let clock = 0;
  const yields: number[] = [];
  const slicing: StreamSlicing = {
    now: () => clock++,
    yieldTask: async () => {
      yields.push(progress());
      await new Promise<void>((resolve) => setImmediate(resolve));
    },
  };
  return { slicing, yields };
}

const mockOptions = {
  speed: 'instant',
  credits: steps * 2,
  rateLimit: false,
  scenario: { script: () => buildSteps(steps) },
} as const;

/** The events of one instant generation read straight from the mock's answer, the project id made neutral. */
async function generateFromMock(slicing: StreamSlicing | null, onChunk?: (count: number) => void) {
  const api = createMockAgentApi({ ...mockOptions, slicing });
  const response = await call(api, 'POST', '/agent/generate', {
    body: { prompt: 'A dashboard with thousands of generated modules' },
    headers: { accept: 'text/event-stream' },
  });
  const events = await readSse(response, Infinity, onChunk);
  const projectId = (JSON.parse(events[0]!.data) as { project_id: string }).project_id;
  api.dispose();
  return events.map((event) => event.data.replaceAll(projectId, 'P'));
}

describe('the in-browser mock hands a burst over in slices', () => {
  it("an instant mock's 20,000-step build leaves in several tasks, in order, nothing lost", async () => {
    let read = 0;
    const { slicing, yields } = taskSlicing(() => read);
    const sliced = await generateFromMock(slicing, (count) => (read = count));
    const whole = await generateFromMock(null);
    expect(sliced).toHaveLength(steps + 8);
    expect(sliced).toEqual(whole);
    // A deadline of 8 clock reads, one read per 32 steps: a slice every 256 steps or so.
    expect(yields.length).toBeGreaterThan(20);
    // The reader had events before the producer ended, and more at every later yield: handed over in pieces.
    expect(yields[1]).toBeGreaterThan(0);
    expect(yields.at(-1)).toBeLessThan(sliced.length);
    expect(yields).toEqual([...yields].sort((a, b) => a - b));
  });

  it('the relay forwards the identical bytes when it works in slices', async () => {
    const upstreamText = buildSteps(steps)
      .map(
        (step, index) =>
          `data: ${JSON.stringify({ ...step, type: step.type === 'file' ? 'file_created' : 'tool_progress', index })}\n\n`,
      )
      .join('');
    const upstream = () => new Response(upstreamText).body as ReadableStream<Uint8Array>;
    const timers = { setTimeout: () => undefined, clearTimeout: () => undefined };
    async function relayed(slicing: StreamSlicing | undefined, onChunk?: (bytes: number) => void) {
      const { body, done } = relayEventStream(upstream(), { heartbeatMs: 0, timers, slicing });
      const reader = body.getReader();
      const chunks: Uint8Array[] = [];
      let bytes = 0;
      for (;;) {
        const { done: ended, value } = await reader.read();
        if (ended) break;
        chunks.push(value);
        bytes += value.byteLength;
        onChunk?.(bytes);
      }
      expect((await done).upstreamCompleted).toBe(true);
      return Buffer.concat(chunks);
    }
    let read = 0;
    const { slicing, yields } = taskSlicing(() => read);
    const sliced = await relayed(slicing, (bytes) => (read = bytes));
    const whole = await relayed(undefined);
    expect(sliced.equals(whole)).toBe(true);
    expect(sliced.toString()).toContain('data: {"type":"file_created"');
    expect(yields.length).toBeGreaterThan(20);
    expect(yields[1]).toBeGreaterThan(0);
    expect(yields.at(-1)).toBeLessThan(sliced.byteLength);
  });

  it('through the mock transport (mock, proxy, client): the same events and the same final state', async () => {
    async function storeOver(slicing: StreamSlicing | null) {
      const transport = createMockTransport({ ...mockOptions, slicing });
      const store = createAgentStore({
        client: createAgentClient({ transport }),
        storage: null,
        scheduleFlush: (flush) => {
          const handle = setTimeout(flush, 1);
          return () => clearTimeout(handle);
        },
      });
      const result = await store.getState().generate({ prompt: 'A dashboard with thousands of generated modules' });
      const projectId = result.projectId!;
      const {
        startedAt: _startedAt,
        firstEventAt: _firstEventAt,
        endedAt: _endedAt,
        tools,
        key: _key,
        projectId: _projectId,
        appUrl: _appUrl,
        ...generation
      } = store.getState().generations[projectId]!;
      store.destroy();
      transport.api.dispose();
      return { outcome: result.outcome, generation, tools: tools.map(({ at: _at, ...step }) => step) };
    }
    let yielded = 0;
    const sliced = await storeOver(taskSlicing(() => yielded++).slicing);
    const whole = await storeOver(null);
    expect(yielded).toBeGreaterThan(20);
    expect(sliced.outcome).toBe('completed');
    expect(sliced).toEqual(whole);
    expect(sliced.generation).toMatchObject({ status: 'completed', eventCount: steps + 8 });
  });
});
