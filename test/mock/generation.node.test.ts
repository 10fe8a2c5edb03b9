import { createMockAgentApi, creditsExhaustedMessage } from 'agent-embed/mock';
import { describe, expect, it } from 'vitest';
import { call, callJson, createManualTimers, generate, parseSse, readToEnd, settle, types } from './mock-helpers.js';

const prompt = 'Build a todo app with dark mode';

describe('mock generate validation', () => {
  it('answers 422 with the spec messages and errors.prompt', async () => {
    const api = createMockAgentApi({ speed: 'instant' });
    const cases: Array<[unknown, string]> = [
      [{}, 'The prompt field is required.'],
      [{ prompt: '' }, 'The prompt field is required.'],
      [{ prompt: '          ' }, 'The prompt field is required.'],
      [{ prompt: 'too short' }, 'The prompt must be at least 10 characters.'],
      [{ prompt: '  short   ' }, 'The prompt must be at least 10 characters.'],
      [{ prompt: 42 }, 'The prompt field must be a string.'],
    ];
    for (const [body, message] of cases) {
      const { status, body: answer } = await callJson(api, 'POST', '/agent/generate', { body });
      expect(status).toBe(422);
      expect(answer).toEqual({ status: false, message, errors: { prompt: [message] } });
    }
    expect((await generate(api, { prompt: 'exactly 10' })).status).toBe(200);
  });

  it('validates mode and sums up several errors like Laravel', async () => {
    const api = createMockAgentApi({ speed: 'instant' });
    const invalid = await callJson(api, 'POST', '/agent/generate', { body: { prompt, mode: 'turbo' } });
    expect(invalid).toMatchObject({
      status: 422,
      body: {
        status: false,
        message: 'The selected mode is invalid.',
        errors: { mode: ['The selected mode is invalid.'] },
      },
    });
    const both = await callJson(api, 'POST', '/agent/generate', { body: { mode: 'turbo' } });
    expect(both.body.message).toBe('The prompt field is required. (and 1 more error)');
    expect(Object.keys(both.body.errors)).toEqual(['prompt', 'mode']);
  });

  it('refuses a body that is not JSON with a clear 400', async () => {
    const api = createMockAgentApi({ speed: 'instant' });
    const { status, body } = await callJson(api, 'POST', '/agent/generate', {
      rawBody: '{"prompt":',
      headers: { 'content-type': 'application/json' },
    });
    expect(status).toBe(400);
    expect(body).toEqual({ status: false, message: 'The request body must be valid JSON.' });
  });

  it('refuses with 400 when the team has no credits, before creating anything', async () => {
    const api = createMockAgentApi({ speed: 'instant', credits: 0 });
    const { status, body } = await callJson(api, 'POST', '/agent/generate', { body: { prompt } });
    expect(status).toBe(400);
    expect(body).toEqual({ status: false, message: 'Not enough credits. Please purchase more credits to continue.' });
    expect(api.admin.projects()).toEqual([]);
  });
});

describe('mock generation stream', () => {
  it('streams a new project in the spec order and serves its status and app page', async () => {
    const api = createMockAgentApi({ speed: 'instant', credits: 50 });
    const stream = await generate(api);
    expect(stream.status).toBe(200);
    expect(stream.contentType).toBe('text/event-stream');
    const order = types(stream.events);
    expect(order[0]).toBe('project_created');
    expect(order.slice(1, 6)).toEqual(Array(5).fill('container_progress'));
    expect(stream.events.slice(1, 6).map((event) => event.percentage)).toEqual([10, 35, 60, 85, 100]);
    expect(order[6]).toBe('container_ready');
    const generation = order.slice(7, -1);
    expect(new Set(generation)).toEqual(new Set(['file_created', 'tool_progress']));
    expect(order.at(-1)).toBe('stream_end');
    // file_created and tool_progress are interleaved, not one block after the other.
    const firstFile = generation.indexOf('file_created');
    expect(generation.slice(firstFile).lastIndexOf('tool_progress')).toBeGreaterThan(
      generation.slice(firstFile).indexOf('tool_progress'),
    );
    expect(generation.slice(firstFile, generation.lastIndexOf('file_created'))).toContain('tool_progress');

    const created = stream.events[0]!;
    expect(created.project_id).toMatch(/^[A-Za-z0-9_-]{1,128}$/);
    expect(created.app_url).toBe(`http://mock.agent-embed.test/apps/${created.project_id}/`);
    expect(stream.events.at(-1)).toEqual({
      type: 'stream_end',
      project_id: created.project_id,
      app_url: created.app_url,
    });
    for (const event of stream.events.filter((item) => item.type === 'file_created'))
      expect(event).toEqual({ type: 'file_created', path: expect.any(String), action: 'created' });
    for (const event of stream.events.filter((item) => item.type === 'tool_progress'))
      expect(event).toEqual({
        type: 'tool_progress',
        tool: expect.any(String),
        message: expect.any(String),
        status: expect.any(String),
      });

    const files = stream.events.filter((event) => event.type === 'file_created').length;
    expect(api.admin.credits()).toBe(50 - files);
    const status = await callJson(api, 'GET', `/agent/project/${created.project_id}`);
    expect(status).toMatchObject({
      status: 200,
      body: {
        status: true,
        project_id: created.project_id,
        app_url: created.app_url,
        project_status: 'ready',
        name: 'Todo App',
      },
    });
    expect(Object.keys(status.body)).toEqual(['status', 'project_id', 'app_url', 'project_status', 'name']);

    const page = await call(api, 'GET', new URL(created.app_url).pathname, { token: null });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toContain('<h1>Todo App</h1>');
  });

  it('builds a smaller, frontend-only project in design mode', async () => {
    const api = createMockAgentApi({ speed: 'instant' });
    const build = await generate(api, { prompt, mode: 'build' });
    const design = await generate(api, { prompt, mode: 'design' });
    const paths = (stream: typeof build) =>
      stream.events.filter((event) => event.type === 'file_created').map((event) => event.path as string);
    expect(paths(build)).toContain('server/index.ts');
    expect(paths(design)).not.toContain('server/index.ts');
    expect(
      api.admin
        .projects()
        .map((project) => project.mode)
        .sort(),
    ).toEqual(['build', 'design']);
  });

  it('streams a follow-up without container events and keeps the project', async () => {
    const api = createMockAgentApi({ speed: 'instant' });
    const first = await generate(api);
    const projectId = first.events[0]!.project_id as string;
    const follow = await generate(api, { prompt: 'Add a settings page with a theme switch' }, projectId);
    expect(follow.status).toBe(200);
    const order = types(follow.events);
    expect(order).not.toContain('project_created');
    expect(order).not.toContain('container_progress');
    expect(order).not.toContain('container_ready');
    expect(['file_created', 'tool_progress']).toContain(order[0]);
    expect(order.at(-1)).toBe('stream_end');
    expect(follow.events.at(-1)).toMatchObject({ project_id: projectId });
    expect(follow.events.filter((event) => event.action === 'modified').map((event) => event.path)).toEqual([
      'src/App.tsx',
      'src/index.css',
    ]);
    // The new file is named after what was asked, as an agent would name it.
    expect(follow.events.filter((event) => event.action === 'created').map((event) => event.path)).toEqual([
      'src/components/SettingsTheme.tsx',
    ]);
    const [project] = api.admin.projects();
    expect(project?.prompts).toEqual([prompt, 'Add a settings page with a theme switch']);
    expect(project?.status).toBe('ready');
  });

  it('names projects after their subject and shows follow-ups on the app page', async () => {
    const api = createMockAgentApi({ speed: 'instant' });
    const names: string[] = [];
    for (const text of [
      'A recipe box with tags and a shopping list',
      'A landing page for a neighbourhood bakery',
      'Portfolio site',
      '!!!!!!!!!!!!',
    ]) {
      const created = (await generate(api, { prompt: text })).events[0]!;
      names.push((await callJson(api, 'GET', `/agent/project/${created.project_id}`)).body.name);
    }
    expect(names).toEqual(['Recipe Box', 'Neighbourhood Bakery', 'Portfolio Site', 'Untitled project']);

    const created = (await generate(api, { prompt: 'A recipe box with <b>tags</b>' })).events[0]!;
    const page = async () => (await call(api, 'GET', new URL(created.app_url).pathname, { token: null })).text();
    const before = await page();
    expect(before).toContain('&#60;b&#62;tags&#60;/b&#62;');
    expect(before).not.toContain('<b>');
    expect(before).toContain('--bg: #ffffff');
    await generate(api, { prompt: 'Add a dark theme with green buttons' }, created.project_id);
    const after = await page();
    expect(after).toContain('--bg: #0f1115');
    expect(after).toContain('--accent: #15803d');
    expect(after).toContain('<li>Add a dark theme with green buttons</li>');
  });

  it("refuses follow-ups on unknown (404) and other teams' (403) projects, and validates them", async () => {
    const api = createMockAgentApi({ speed: 'instant' });
    const otherToken = api.admin.createToken({ teamId: api.admin.createTeam({ credits: 10 }) });
    const theirs = (await generate(api, { prompt }, undefined, otherToken)).events[0]!.project_id as string;
    expect(await callJson(api, 'POST', `/agent/generate/${theirs}`, { body: { prompt } })).toMatchObject({
      status: 403,
      body: { status: false, message: 'Project does not belong to the specified team.' },
    });
    expect(await callJson(api, 'GET', `/agent/project/${theirs}`)).toMatchObject({
      status: 403,
      body: { message: 'Project does not belong to the specified team.' },
    });
    expect(await callJson(api, 'POST', '/agent/generate/proj_unknown', { body: { prompt } })).toMatchObject({
      status: 404,
      body: { status: false, message: 'Project not found.' },
    });
    expect(await callJson(api, 'GET', '/agent/project/proj_unknown')).toMatchObject({
      status: 404,
      body: { status: false, message: 'Project not found.' },
    });
    expect(await callJson(api, 'POST', `/agent/generate/${theirs}`, { body: { prompt: 'short' } })).toMatchObject({
      status: 422,
      body: { errors: { prompt: ['The prompt must be at least 10 characters.'] } },
    });
  });

  it('ends with credits_exhausted instead of stream_end when credits run out mid-stream', async () => {
    const api = createMockAgentApi({ speed: 'instant', credits: 3 });
    const stream = await generate(api);
    const order = types(stream.events);
    expect(order.filter((type) => type === 'file_created')).toHaveLength(3);
    expect(order).not.toContain('stream_end');
    expect(stream.events.at(-1)).toEqual({
      type: 'credits_exhausted',
      message: creditsExhaustedMessage,
      project_id: stream.events[0]!.project_id,
    });
    expect(api.admin.credits()).toBe(0);
    expect((await callJson(api, 'GET', `/agent/project/${stream.events[0]!.project_id}`)).body.project_status).toBe(
      'credits_exhausted',
    );
    expect((await callJson(api, 'POST', '/agent/generate', { body: { prompt } })).status).toBe(400);
  });

  it('spends credits per file and finishes when they last exactly', async () => {
    const api = createMockAgentApi({ speed: 'instant', credits: 4, scenario: { files: 4 } });
    const stream = await generate(api);
    expect(types(stream.events).at(-1)).toBe('stream_end');
    expect(api.admin.credits()).toBe(0);
  });

  it('runs a custom script, including unknown event types and an error ending', async () => {
    const api = createMockAgentApi({
      speed: 'instant',
      scenario: {
        script: ({ followUp }) => [
          { type: 'raw', event: { type: 'thinking', text: 'hmm' } },
          { type: 'file', path: 'a.ts' },
          ...(followUp ? [{ type: 'error' as const, message: 'The agent crashed.' }] : []),
        ],
      },
    });
    const first = await generate(api);
    expect(types(first.events).slice(7)).toEqual(['thinking', 'file_created', 'stream_end']);
    const projectId = first.events[0]!.project_id as string;
    const failed = await generate(api, { prompt: 'Now break it on purpose' }, projectId);
    expect(failed.events.at(-1)).toEqual({ type: 'error', message: 'The agent crashed.', project_id: projectId });
    expect((await callJson(api, 'GET', `/agent/project/${projectId}`)).body.project_status).toBe('failed');
  });
});

describe('mock faults', () => {
  it('drop_after closes the body with an error after n events, and the generation still completes', async () => {
    const api = createMockAgentApi({ speed: 'instant' });
    api.admin.injectFault({ kind: 'drop_after', events: 3 });
    const response = await call(api, 'POST', '/agent/generate', { body: { prompt } });
    expect(response.status).toBe(200);
    const { text, failure } = await readToEnd(response);
    expect(failure).toBeInstanceOf(Error);
    expect(types(parseSse(text).events)).toEqual(['project_created', 'container_progress', 'container_progress']);
    const projectId = parseSse(text).events[0]!.project_id as string;
    expect((await callJson(api, 'GET', `/agent/project/${projectId}`)).body.project_status).toBe('ready');
    // Consumed: the next stream is whole.
    expect(types((await generate(api)).events).at(-1)).toBe('stream_end');
  });

  it('malformed_line writes one invalid line and the stream goes on', async () => {
    const api = createMockAgentApi({ speed: 'instant' });
    api.admin.injectFault({ kind: 'malformed_line', afterEvents: 2 });
    const stream = await generate(api);
    expect(stream.malformed).toHaveLength(1);
    expect(types(stream.events).at(-1)).toBe('stream_end');
  });

  it('error_event ends the generation with an error event and a failed project', async () => {
    const api = createMockAgentApi({ speed: 'instant' });
    api.admin.injectFault({ kind: 'error_event', afterEvents: 8, message: 'Injected failure.' });
    const stream = await generate(api);
    expect(stream.events).toHaveLength(9);
    expect(stream.events.at(-1)).toEqual({
      type: 'error',
      message: 'Injected failure.',
      project_id: stream.events[0]!.project_id,
    });
    expect(api.admin.projects()[0]?.status).toBe('failed');
  });

  it('http_500 answers 500, as JSON or as text/event-stream', async () => {
    const api = createMockAgentApi({ speed: 'instant' });
    api.admin.injectFault({ kind: 'http_500' });
    api.admin.injectFault({ kind: 'http_500', asEventStream: true });
    const json = await call(api, 'POST', '/agent/generate', { body: { prompt } });
    expect(json.status).toBe(500);
    expect(json.headers.get('content-type')).toBe('application/json');
    const sse = await call(api, 'POST', '/agent/generate', { body: { prompt } });
    expect(sse.status).toBe(500);
    expect(sse.headers.get('content-type')).toBe('text/event-stream');
    expect(api.admin.projects()).toEqual([]);
    expect(api.admin.pendingFaults()).toEqual([]);
  });

  it('rate_limited answers 429 with its Retry-After; non_json_502 an HTML page', async () => {
    const api = createMockAgentApi({ speed: 'instant' });
    api.admin.injectFault({ kind: 'rate_limited', retryAfterSeconds: 7 });
    api.admin.injectFault({ kind: 'non_json_502', route: 'getProject' });
    const limited = await callJson(api, 'POST', '/agent/generate', { body: { prompt } });
    expect(limited).toMatchObject({ status: 429, body: { status: false, message: 'Too Many Attempts.' } });
    expect(limited.headers.get('retry-after')).toBe('7');
    // The 502 is for getProject only: a generate leaves it queued.
    expect((await generate(api)).status).toBe(200);
    const gateway = await call(api, 'GET', '/agent/project/anything');
    expect(gateway.status).toBe(502);
    expect(gateway.headers.get('content-type')).toBe('text/html');
    expect(await gateway.text()).toContain('502 Bad Gateway');
  });

  it('applies a stream fault only once the stream starts, not to a refused request', async () => {
    const api = createMockAgentApi({ speed: 'instant' });
    api.admin.injectFault({ kind: 'drop_after', events: 1 });
    expect((await callJson(api, 'POST', '/agent/generate', { body: { prompt: 'short' } })).status).toBe(422);
    expect(api.admin.pendingFaults()).toHaveLength(1);
  });

  it('rejects faults that make no sense', () => {
    const api = createMockAgentApi({ speed: 'instant' });
    expect(() => api.admin.injectFault({ kind: 'drop_after', events: -1 })).toThrow(/events/);
    expect(() => api.admin.injectFault({ kind: 'drop_after', events: 1, route: 'getProject' })).toThrow(
      /generate or followUp/,
    );
    expect(() => api.admin.injectFault({ kind: 'nope' } as never)).toThrow(/Unknown fault kind/);
  });
});

describe('mock timing', () => {
  it('takes a few seconds in realistic mode, with heartbeats while idle, and reports provisioning then generating', async () => {
    const clock = createManualTimers(0);
    const api = createMockAgentApi({ timers: clock.timers, now: clock.now });
    const response = await call(api, 'POST', '/agent/generate', { body: { prompt } });
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    const received: Array<{ at: number; text: string }> = [];
    const reading = (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        received.push({ at: clock.now(), text: decoder.decode(value) });
      }
    })();
    await settle();
    const projectId = parseSse(received.map((chunk) => chunk.text).join('')).events[0]?.project_id as string;
    expect(projectId).toBeDefined();
    expect(received).toHaveLength(1);
    expect((await callJson(api, 'GET', `/agent/project/${projectId}`)).body.project_status).toBe('provisioning');

    await clock.advance(3500);
    expect((await callJson(api, 'GET', `/agent/project/${projectId}`)).body.project_status).toBe('generating');
    await clock.runAll();
    await reading;

    const text = received.map((chunk) => chunk.text).join('');
    const parsed = parseSse(text);
    expect(types(parsed.events).at(-1)).toBe('stream_end');
    expect(parsed.comments).toContain('ping');
    expect(text.indexOf(': ping')).toBeLessThan(text.indexOf('container_ready'));
    const duration = received.at(-1)!.at;
    expect(duration).toBeGreaterThanOrEqual(3000);
    expect(duration).toBeLessThanOrEqual(10_000);
    // Events arrive one by one over time, not in one burst at the end.
    expect(new Set(received.map((chunk) => chunk.at)).size).toBeGreaterThan(parsed.events.length / 2);
    expect((await callJson(api, 'GET', `/agent/project/${projectId}`)).body.project_status).toBe('ready');
  });

  it('slow_drip spaces every event by its interval', async () => {
    const clock = createManualTimers(0);
    const api = createMockAgentApi({ speed: 'instant', timers: clock.timers, now: clock.now, heartbeatMs: 10_000 });
    api.admin.injectFault({ kind: 'slow_drip', intervalMs: 500 });
    const response = await call(api, 'POST', '/agent/generate', { body: { prompt } });
    const reader = response.body!.getReader();
    const times: number[] = [];
    const reading = (async () => {
      for (;;) {
        const { done } = await reader.read();
        if (done) return;
        times.push(clock.now());
      }
    })();
    await clock.runAll();
    await reading;
    const gaps = times.slice(1).map((time, index) => time - times[index]!);
    expect(gaps.every((gap) => gap === 500)).toBe(true);
    expect(gaps.length).toBeGreaterThan(10);
  });

  it('goes on generating when the client disconnects, so polling recovers the outcome', async () => {
    const clock = createManualTimers(0);
    const api = createMockAgentApi({ timers: clock.timers, now: clock.now });
    const controller = new AbortController();
    const response = await api.fetch(
      new Request(`${api.baseUrl}/agent/generate`, {
        method: 'POST',
        headers: { authorization: `Bearer ${api.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ prompt }),
        signal: controller.signal,
      }),
    );
    const reader = response.body!.getReader();
    const first = parseSse(new TextDecoder().decode((await reader.read()).value)).events[0]!;
    controller.abort();
    await expect(reader.read()).rejects.toBeInstanceOf(Error);
    await clock.runAll();
    expect((await callJson(api, 'GET', `/agent/project/${first.project_id}`)).body.project_status).toBe('ready');
    expect(api.admin.credits()).toBe(200 - 13);
  });

  it('stops running generations on reset and dispose, leaving no timer behind', async () => {
    const clock = createManualTimers(0);
    const api = createMockAgentApi({ timers: clock.timers, now: clock.now });
    const response = await call(api, 'POST', '/agent/generate', { body: { prompt } });
    const reading = response.text().then(
      () => 'ended',
      () => 'dropped',
    );
    await clock.advance(500);
    expect(clock.pending()).toBeGreaterThan(0);
    api.admin.reset();
    await settle();
    expect(clock.pending()).toBe(0);
    expect(await reading).toBe('dropped');
    expect(api.admin.projects()).toEqual([]);
    expect((await callJson(api, 'GET', '/subscription-plans')).status).toBe(200);

    void call(api, 'POST', '/agent/generate', { body: { prompt } });
    await settle();
    expect(clock.pending()).toBeGreaterThan(0);
    api.dispose();
    await settle();
    expect(clock.pending()).toBe(0);
  });
});
