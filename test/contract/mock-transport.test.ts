import { createAgentClient } from 'agent-embed/core';
import { createMockAgentApi, createMockTransport, defaultMockExternalUser, type MockTimers } from 'agent-embed/mock';
import { describe, expect, it } from 'vitest';
import { collector, expectApiError, generatePosts } from './contract-helpers.js';

const prompt = 'Build a todo app with dark mode';

function manualTimers(): { timers: MockTimers; runAll(): Promise<void>; pending(): number } {
  const queue: Array<{ id: number; at: number; callback: () => void }> = [];
  let time = 0;
  let nextId = 1;
  return {
    timers: {
      setTimeout(callback, ms) {
        queue.push({ id: nextId, at: time + ms, callback });
        return nextId++;
      },
      clearTimeout(handle) {
        const index = queue.findIndex((entry) => entry.id === handle);
        if (index >= 0) queue.splice(index, 1);
      },
    },
    async runAll() {
      for (;;) {
        for (let index = 0; index < 5; index++) await new Promise<void>((resolve) => setTimeout(resolve, 0));
        queue.sort((a, b) => a.at - b.at || a.id - b.id);
        const next = queue.shift();
        if (next === undefined) return;
        time = next.at;
        next.callback();
      }
    },
    pending: () => queue.length,
  };
}

describe('createMockTransport (no server)', () => {
  it('runs the real HTTP transport against an in-memory mock: streams, status and JSON endpoints', async () => {
    const transport = createMockTransport({ speed: 'instant' });
    const client = createAgentClient({ transport });
    const seen = collector();
    const result = await client.generate({ prompt }, { onEvent: seen.onEvent });
    expect(result.outcome).toBe('completed');
    expect(seen.types().slice(0, 7)).toEqual([
      'project_created',
      ...Array(5).fill('container_progress'),
      'container_ready',
    ]);
    expect(seen.types().at(-1)).toBe('stream_end');
    expect(result.appUrl).toBe(`http://mock.agent-embed.test/apps/${result.projectId}/`);
    expect((await client.getProject(result.projectId!)).project_status).toBe('ready');

    const follow = collector();
    expect(
      (await client.followUp(result.projectId!, { prompt: 'Add a footer with links' }, { onEvent: follow.onEvent }))
        .outcome,
    ).toBe('completed');
    expect(follow.types()).not.toContain('container_ready');
    expect((await client.plans.list()).length).toBe(4);
    expect(generatePosts(transport)).toBe(1);
  });

  it('shares an existing mock, and maps its errors to the same kinds', async () => {
    const api = createMockAgentApi({ speed: 'instant', credits: 0 });
    const client = createAgentClient({ transport: createMockTransport({ api }) });
    await expectApiError(client.generate({ prompt }), {
      kind: 'insufficient_credits',
      status: 400,
      message: 'Not enough credits. Please purchase more credits to continue.',
    });
    await expectApiError(client.generate({ prompt: 'short' }), {
      kind: 'validation',
      status: 422,
      fieldErrors: { prompt: ['The prompt must be at least 10 characters.'] },
    });
    await expectApiError(client.codehost.listRepositories(defaultMockExternalUser.id, { per_page: 101 }), {
      kind: 'validation',
      status: 422,
    });
    api.admin.setCredits(1);
    const exhausted = await client.generate({ prompt });
    expect(exhausted.outcome).toBe('credits_exhausted');
    api.admin.injectFault({ kind: 'http_500', asEventStream: true });
    // An upstream 500 that claims to be a stream: the proxy cannot read it and says so.
    await expectApiError(client.generate({ prompt }), { kind: 'upstream', status: 502 });
  });

  it('reports interrupted on a drop, with no second POST', async () => {
    const transport = createMockTransport({ speed: 'instant' });
    const client = createAgentClient({ transport });
    transport.api.admin.injectFault({ kind: 'drop_after', events: 2 });
    const seen = collector();
    const result = await client.generate({ prompt }, { onEvent: seen.onEvent });
    expect(result.outcome).toBe('interrupted');
    expect(seen.events).toHaveLength(2);
    expect(transport.api.admin.requests.filter((entry) => entry.method === 'POST')).toHaveLength(1);
  });

  it('delivers every event sent before a drop: the proxy relays what it read, even when the drop follows at once', async () => {
    const transport = createMockTransport({ speed: 'instant' });
    const client = createAgentClient({ transport });
    transport.api.admin.injectFault({ kind: 'drop_after', events: 10 });
    const seen = collector();
    const result = await client.generate({ prompt }, { onEvent: seen.onEvent });
    expect(result.outcome).toBe('interrupted');
    expect(seen.events).toHaveLength(10);
  });

  it('stops delivering events once the caller aborts, while the generation finishes server-side', async () => {
    const clock = manualTimers();
    const transport = createMockTransport({ timers: clock.timers });
    const client = createAgentClient({ transport });
    const controller = new AbortController();
    const seen = collector();
    const running = client.generate(
      { prompt },
      {
        signal: controller.signal,
        onEvent: (event) => {
          seen.onEvent(event);
          if (event.type === 'container_progress') controller.abort();
        },
      },
    );
    await clock.runAll();
    const result = await running;
    expect(result.outcome).toBe('aborted');
    expect(seen.types()).toEqual(['project_created', 'container_progress']);
    expect(clock.pending()).toBe(0);
    expect(transport.api.admin.projects()[0]?.status).toBe('ready');
  });

  it('refuses an already-aborted call without reaching the mock', async () => {
    const transport = createMockTransport({ speed: 'instant' });
    const client = createAgentClient({ transport });
    const controller = new AbortController();
    controller.abort();
    expect((await client.generate({ prompt }, { signal: controller.signal })).outcome).toBe('aborted');
    await expectApiError(client.plans.list({ signal: controller.signal }), { kind: 'aborted' });
    expect(transport.api.admin.requests).toEqual([]);
  });
});
