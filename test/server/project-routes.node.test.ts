import { afterEach, describe, expect, it } from 'vitest';
import {
  afterGenerationOf,
  firstEventIdOfGeneration,
  type ConversationBody,
  type ProjectListBody,
} from 'agent-embed/core';
import { createAgentProxy, createMemoryProxyStore } from 'agent-embed/server';
import { sessionCookie, startMockStack, type Person } from './proxy-stack.js';
import { readSse, typesOf } from './sse-reader.js';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of cleanup.splice(0).reverse()) await close();
});

async function stackFor(options: Parameters<typeof startMockStack>[0] = {}) {
  const stack = await startMockStack(options);
  cleanup.push(stack.close);
  const send = (person: Person, method: string, path: string, init: RequestInit = {}) =>
    fetch(`${stack.proxyUrl}${path}`, {
      ...init,
      method,
      headers: { cookie: sessionCookie(person), 'content-type': 'application/json', ...init.headers },
    });
  const generate = (person: Person, prompt: string, mode?: 'design') =>
    send(person, 'POST', '/agent/generate', { body: JSON.stringify(mode ? { prompt, mode } : { prompt }) });
  return { stack, send, generate };
}

describe('the proxy records generations, projects and conversations (memory store)', () => {
  it('gives every relayed event an id, lists the owner’s projects and the conversation with its outcome', async () => {
    const { stack, send, generate } = await stackFor();
    const events = await readSse(await generate('alice', 'A landing page for a bakery', 'design'));
    expect(events.map((event) => event.id)).toEqual(events.map((_, index) => index + 1));
    expect(typesOf(events).at(-1)).toBe('stream_end');
    const projectId = (JSON.parse(events[0]?.data ?? '{}') as { project_id: string }).project_id;
    const followUp = await readSse(
      await send('alice', 'POST', `/agent/generate/${projectId}`, {
        body: JSON.stringify({ prompt: 'Make it blue please' }),
      }),
    );
    // Ids grow across the project's generations: the second one starts a billion further on.
    expect(followUp.map((event) => event.id)).toEqual(followUp.map((_, index) => 1_000_000_001 + index));

    const list = (await (await send('alice', 'GET', '/projects')).json()) as ProjectListBody;
    expect(list.projects.map((project) => project.project_id)).toEqual([projectId]);
    expect(list.projects[0]?.app_url).toMatch(/^https?:\/\//);
    const conversation = (await (
      await send('alice', 'GET', `/projects/${projectId}/conversation`)
    ).json()) as ConversationBody;
    expect(conversation.turns.map((turn) => [turn.kind, turn.prompt, turn.mode])).toEqual([
      ['generate', 'A landing page for a bakery', 'design'],
      ['followUp', 'Make it blue please', null],
    ]);
    const files = typesOf(events).filter((type) => type === 'file_created').length;
    expect(conversation.turns[0]?.outcome).toMatchObject({ status: 'completed', files_created: files });
    expect(conversation.turns[1]?.outcome?.status).toBe('completed');

    // Another end user sees none of it: an empty list and the same 404 as for no project.
    expect(((await (await send('bob', 'GET', '/projects')).json()) as ProjectListBody).projects).toEqual([]);
    for (const path of [`/projects/${projectId}/conversation`, `/projects/${projectId}/events`]) {
      const refused = await send('bob', 'GET', path);
      expect(refused.status).toBe(404);
      expect(await refused.json()).toEqual({ status: false, message: 'Project not found.' });
    }
    expect((await fetch(`${stack.proxyUrl}/projects`)).status).toBe(401);
  });

  it.each([
    ['with', {}],
    ['without', { statusCacheMs: 0 }],
  ])('refreshes a project’s name and status from the status polls it relays, %s a status cache', async (_, proxy) => {
    const { send, generate } = await stackFor({ proxy });
    const events = await readSse(await generate('alice', 'A todo list for a small team'));
    const projectId = (JSON.parse(events[0]?.data ?? '{}') as { project_id: string }).project_id;
    const status = (await (await send('alice', 'GET', `/agent/project/${projectId}`)).json()) as {
      name: string;
      project_status: string;
    };
    const [summary] = ((await (await send('alice', 'GET', '/projects')).json()) as ProjectListBody).projects;
    expect(summary).toMatchObject({ name: status.name, project_status: status.project_status });
  });

  it('replays after Last-Event-ID or ?after=N, and answers 204 for an owned project with nothing recorded', async () => {
    const store = createMemoryProxyStore({ owners: { 'p-before-deploy': 'alice' } });
    const { send, generate } = await stackFor({ proxy: { store } });
    const events = await readSse(await generate('alice', 'A recipe book with search'));
    const projectId = (JSON.parse(events[0]?.data ?? '{}') as { project_id: string }).project_id;
    const replay = await send('alice', 'GET', `/projects/${projectId}/events`, { headers: { 'last-event-id': '3' } });
    expect(replay.headers.get('content-type')).toBe('text/event-stream');
    expect(await readSse(replay)).toEqual(events.slice(3));
    expect(await readSse(await send('alice', 'GET', `/projects/${projectId}/events?after=5`))).toEqual(events.slice(5));
    expect((await send('alice', 'GET', '/projects/p-before-deploy/events')).status).toBe(204);
    expect((await send('bob', 'GET', '/projects/p-before-deploy/events')).status).toBe(404);
  });

  it('answers 204 to a resume of a generation that a newer one replaced, and replays the newer one from its start', async () => {
    const { send, generate } = await stackFor();
    const first = await readSse(await generate('alice', 'A recipe book with search'));
    const projectId = (JSON.parse(first[0]?.data ?? '{}') as { project_id: string }).project_id;
    // Another tab's follow-up replaced the generation this browser was following.
    const followUp = await readSse(
      await send('alice', 'POST', `/agent/generate/${projectId}`, {
        body: JSON.stringify({ prompt: 'Add a dark mode' }),
      }),
    );
    const resume = await send('alice', 'GET', `/projects/${projectId}/events`, { headers: { 'last-event-id': '3' } });
    expect(resume.status).toBe(204);
    expect(await readSse(await send('alice', 'GET', `/projects/${projectId}/events?after=0`))).toEqual(followUp);
    const within = followUp[2]?.id ?? 0;
    expect(await readSse(await send('alice', 'GET', `/projects/${projectId}/events?after=${within}`))).toEqual(
      followUp.slice(3),
    );
  });

  it('replays the generation after a known one from its start, and nothing while the known one is the latest', async () => {
    const { send, generate } = await stackFor();
    const first = await readSse(await generate('alice', 'A recipe book with search'));
    const projectId = (JSON.parse(first[0]?.data ?? '{}') as { project_id: string }).project_id;
    const known = afterGenerationOf(first.at(-1)?.id ?? 0);
    expect(known).toBe(firstEventIdOfGeneration(2) - 1);
    // A change whose answer was lost before the proxy recorded it: the build before it is not shown as the change's.
    expect((await send('alice', 'GET', `/projects/${projectId}/events?after=${known}`)).status).toBe(204);
    const followUp = await readSse(
      await send('alice', 'POST', `/agent/generate/${projectId}`, {
        body: JSON.stringify({ prompt: 'Add a dark mode' }),
      }),
    );
    expect(await readSse(await send('alice', 'GET', `/projects/${projectId}/events?after=${known}`))).toEqual(followUp);
    // Two generations on, that id is a replaced one's again.
    await readSse(
      await send('alice', 'POST', `/agent/generate/${projectId}`, { body: JSON.stringify({ prompt: 'Add a footer' }) }),
    );
    expect((await send('alice', 'GET', `/projects/${projectId}/events?after=${known}`)).status).toBe(204);
  });

  it('resumes a build cut after 3 events: replayed plus live events equal an uncut stream', async () => {
    const { stack, send, generate } = await stackFor();
    stack.mock.api.admin.injectFault({ kind: 'slow_drip', intervalMs: 40 });
    const cut = await readSse(await generate('alice', 'A portfolio for a photographer'), 3);
    const projectId = (JSON.parse(cut[0]?.data ?? '{}') as { project_id: string }).project_id;
    const resumed = await readSse(
      await send('alice', 'GET', `/projects/${projectId}/events`, { headers: { 'last-event-id': '3' } }),
    );
    const whole = [...cut, ...resumed];
    expect(whole.map((event) => event.id)).toEqual(whole.map((_, index) => index + 1));
    expect(typesOf(whole).at(-1)).toBe('stream_end');
    const uncut = await readSse(await generate('alice', 'A portfolio for a photographer'));
    expect(typesOf(whole)).toEqual(typesOf(uncut));
  }, 30_000);
});

describe('recorded events', () => {
  it('never store or replay the API token an upstream event echoed', async () => {
    const token = 'tok_secret_for_replay_test_0123456789';
    const events = [
      { type: 'project_created', project_id: 'p-echo', app_url: 'https://p-echo.example' },
      { type: 'tool_progress', message: `Using ${token} now` },
      { type: 'stream_end', project_id: 'p-echo', app_url: 'https://p-echo.example' },
    ];
    const proxy = createAgentProxy({
      apiBaseUrl: 'https://api.example.test/api/v1',
      apiToken: token,
      authorize: () => ({ externalUserId: 'alice' }),
      fetch: async () =>
        new Response(events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join(''), {
          headers: { 'content-type': 'text/event-stream' },
        }),
    });
    const generated = await proxy(
      new Request('https://agency.example/agent/generate', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ prompt: 'A page that echoes secrets' }),
      }),
    );
    await generated.text();
    const replay = await proxy(new Request('https://agency.example/projects/p-echo/events'));
    const text = await replay.text();
    expect(text).toContain('tool_progress');
    expect(text).not.toContain(token);
  });
});

describe('a follower on the memory store', () => {
  it('is woken by the store when an event is recorded, without waiting for a poll', async () => {
    const store = createMemoryProxyStore({ owners: { 'p-live': 'alice' } });
    // Timers that never fire: a follower that polled would never see the next event.
    const proxy = createAgentProxy({
      apiBaseUrl: 'http://upstream.invalid/api/v1',
      apiToken: 'test-token',
      authorize: () => ({ externalUserId: 'alice' }),
      store,
      heartbeatMs: 0,
      timers: { setTimeout: () => 0, clearTimeout: () => undefined },
    });
    const turn = { kind: 'generate', prompt: 'A landing page', mode: 'build', at: new Date(0).toISOString() } as const;
    const generation = await store.beginGeneration('p-live', 'alice', { ...turn, outcome: null });
    await store.appendEvent('p-live', generation, { id: 1, data: '{"type":"project_created"}' });
    const response = await proxy(new Request('http://proxy.test/projects/p-live/events'));
    const reading = readSse(response);
    for (let id = 2; id <= 4; id++) {
      await new Promise((resolve) => setImmediate(resolve));
      await store.appendEvent('p-live', generation, { id, data: `{"type":"file_created","n":${id}}` });
    }
    await store.endGeneration('p-live', generation, {
      status: 'completed',
      files_created: 3,
      files_modified: 0,
      steps: 0,
    });
    expect((await reading).map((event) => event.id)).toEqual([1, 2, 3, 4]);
  });
});
