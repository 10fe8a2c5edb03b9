import { describe, expect, it } from 'vitest';
import { createMockAgentApi } from 'agent-embed/mock';
import { call, callJson, createManualTimers, parseSse, settle, types } from './mock-helpers.js';

const prompt = 'A recipe box with tags and search';

/** Reads whatever the body has delivered so far, without waiting for its end. */
function startReading(body: ReadableStream<Uint8Array>) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const state = { text: '', done: false, failure: undefined as unknown };
  const reading = (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        state.text += decoder.decode(value);
      }
    } catch (thrown) {
      state.failure = thrown;
    }
    state.done = true;
  })();
  return { state, reading, reader };
}

describe('pause_after fault', () => {
  it('freezes a new project at provisioning 35%: the stream stays open with heartbeats, the status stays provisioning', async () => {
    const clock = createManualTimers(0);
    const api = createMockAgentApi({ speed: 'instant', timers: clock.timers, now: clock.now, heartbeatMs: 1000 });
    api.admin.injectFault({ kind: 'pause_after', events: 3 });
    const response = await call(api, 'POST', '/agent/generate', { body: { prompt } });
    expect(response.status).toBe(200);
    const { state } = startReading(response.body!);
    await settle();
    const parsed = parseSse(state.text);
    expect(types(parsed.events)).toEqual(['project_created', 'container_progress', 'container_progress']);
    expect(parsed.events[2]).toMatchObject({ percentage: 35 });
    const projectId = parsed.events[0]!.project_id as string;

    await clock.advance(3500);
    expect(state.done).toBe(false);
    expect(parseSse(state.text).comments).toEqual(['ping', 'ping', 'ping']);
    expect(parseSse(state.text).events).toHaveLength(3);
    expect((await callJson(api, 'GET', `/agent/project/${projectId}`)).body.project_status).toBe('provisioning');

    // Only a dispose ends it: the body closes without a terminal event.
    api.dispose();
    await settle();
    expect(state.done).toBe(true);
    expect(state.failure).toBeInstanceOf(Error);
    expect(types(parseSse(state.text).events)).not.toContain('stream_end');
  });

  it('freezes mid-generation with the files sent so far; the status says generating', async () => {
    const clock = createManualTimers(0);
    const api = createMockAgentApi({ speed: 'instant', timers: clock.timers, now: clock.now, scenario: { files: 40 } });
    // 7 container events (created, 5 progress, ready), 2 plan steps, then files and write steps.
    api.admin.injectFault({ kind: 'pause_after', events: 14 });
    const response = await call(api, 'POST', '/agent/generate', { body: { prompt } });
    const { state } = startReading(response.body!);
    await settle();
    const events = parseSse(state.text).events;
    expect(events).toHaveLength(14);
    expect(types(events).filter((type) => type === 'file_created')).toHaveLength(4);
    const projectId = events[0]!.project_id as string;
    expect((await callJson(api, 'GET', `/agent/project/${projectId}`)).body.project_status).toBe('generating');
    expect(api.admin.projects()[0]!.files).toHaveLength(4);
    api.dispose();
  });

  it('with drop, closes the connection after n events while the project stays where it was', async () => {
    const api = createMockAgentApi({ speed: 'instant' });
    api.admin.injectFault({ kind: 'pause_after', events: 8, drop: true });
    const response = await call(api, 'POST', '/agent/generate', { body: { prompt } });
    const { state, reading } = startReading(response.body!);
    await reading;
    expect(state.failure).toBeInstanceOf(Error);
    const events = parseSse(state.text).events;
    expect(types(events).at(-1)).toBe('tool_progress');
    expect(events).toHaveLength(8);
    const projectId = events[0]!.project_id as string;
    await settle();
    expect((await callJson(api, 'GET', `/agent/project/${projectId}`)).body.project_status).toBe('generating');
    api.dispose();
  });

  it('events 0 holds the stream before any event; a follow-up can be paused too', async () => {
    const clock = createManualTimers(0);
    const api = createMockAgentApi({ speed: 'instant', timers: clock.timers, now: clock.now });
    api.admin.injectFault({ kind: 'pause_after', events: 0 });
    const first = startReading((await call(api, 'POST', '/agent/generate', { body: { prompt } })).body!);
    await clock.advance(2000);
    expect(parseSse(first.state.text).events).toEqual([]);
    expect(first.state.done).toBe(false);
    expect(api.admin.projects()[0]!.status).toBe('provisioning');

    // A finished project, then a paused follow-up on it.
    await api.admin.reset();
    const created = parseSse(await (await call(api, 'POST', '/agent/generate', { body: { prompt } })).text());
    const projectId = created.events[0]!.project_id as string;
    api.admin.injectFault({ kind: 'pause_after', events: 2, route: 'followUp' });
    const followUp = startReading(
      (await call(api, 'POST', `/agent/generate/${projectId}`, { body: { prompt: 'Add a shopping list page' } })).body!,
    );
    await settle();
    expect(types(parseSse(followUp.state.text).events)).toEqual(['tool_progress', 'tool_progress']);
    expect(followUp.state.done).toBe(false);
    expect((await callJson(api, 'GET', `/agent/project/${projectId}`)).body.project_status).toBe('generating');
    api.dispose();
  });

  it('stops heartbeating once the client has gone', async () => {
    const clock = createManualTimers(0);
    const api = createMockAgentApi({ speed: 'instant', timers: clock.timers, now: clock.now, heartbeatMs: 1000 });
    api.admin.injectFault({ kind: 'pause_after', events: 2 });
    const controller = new AbortController();
    const response = await api.fetch(
      new Request(`${api.baseUrl}/agent/generate`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${api.token}`,
          'content-type': 'application/json',
          accept: 'text/event-stream',
        },
        body: JSON.stringify({ prompt }),
        signal: controller.signal,
      }),
    );
    startReading(response.body!);
    await clock.advance(1500);
    controller.abort();
    await clock.advance(1000);
    expect(clock.pending()).toBe(0);
    api.dispose();
  });

  it('is validated like every fault', () => {
    const api = createMockAgentApi({ speed: 'instant' });
    expect(() => api.admin.injectFault({ kind: 'pause_after', events: -1 })).toThrow(/events/);
    expect(() => api.admin.injectFault({ kind: 'pause_after', events: 1, drop: 'yes' as never })).toThrow(/drop/);
    expect(() => api.admin.injectFault({ kind: 'pause_after', events: 1, route: 'getProject' })).toThrow(
      /generate or followUp/,
    );
  });
});
