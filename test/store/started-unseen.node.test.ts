/**
 * A POST that failed on the network before any answer (`mayHaveStarted`): the server may have received it and be
 * building, so the store asks for the project list (and a follow-up's conversation) once more a little later (10 s),
 * where such a build shows up; it never sends the POST again. A refusal with a status asks nothing more.
 */
import { describe, expect, it } from 'vitest';
import {
  AgentApiError,
  firstEventIdOfGeneration,
  mayHaveStarted,
  resourceSpecs,
  selectProjectView,
  type AgentEvent,
} from 'agent-embed/core';
import { createScriptedStore, created, end, project, settle, untilSent } from './fakes.js';

const prompt = 'A landing page for a bakery';
const networkError = () => new AgentApiError('network', 'The Agent API could not be reached.');

/** A store whose project list something has asked for (a ProjectList, the builder's switcher). */
async function withListAskedFor() {
  const page = createScriptedStore();
  await page.store.getState().fetchResource(resourceSpecs.projects);
  const listLoads = () => page.scripted.gets().filter((request) => request.path === '/projects').length;
  expect(listLoads()).toBe(1);
  return { ...page, listLoads };
}

describe('a new project whose POST failed on the network', () => {
  it('may have started: the list is asked for once more 10 s later, and the POST is never sent again', async () => {
    const { store, scripted, timers, listLoads } = await withListAskedFor();
    const promise = store.getState().generate({ prompt });
    scripted.streams[0]!.refuse(networkError());
    expect(await promise).toMatchObject({ outcome: 'failed', error: { kind: 'network' } });
    const [generation] = Object.values(store.getState().generations);
    expect(generation).toMatchObject({ refused: true, kind: 'generate' });
    expect(mayHaveStarted(generation)).toBe(true);
    await settle();
    // Ended, it reloads the list at once, as any ended build does…
    const atEnd = listLoads();
    expect(atEnd).toBe(2);
    await timers.advance(5_000);
    expect(listLoads()).toBe(atEnd);
    // …and once more a little later, when a build the server had all the same is named there.
    await timers.advance(5_000);
    expect(listLoads()).toBe(atEnd + 1);
    await timers.advance(120_000);
    expect(listLoads()).toBe(atEnd + 1);
    expect(scripted.posts()).toHaveLength(1);
    expect(timers.pending()).toEqual([]);
  });

  it('a follow-up lost the same way: its project list and its conversation are asked for once more later', async () => {
    const page = await withListAskedFor();
    await page.store.getState().fetchResource(resourceSpecs.conversation('p1'));
    const conversationLoads = () =>
      page.scripted.gets().filter((request) => request.path === '/projects/p1/conversation').length;
    void page.store.getState().followUp('p1', { prompt });
    page.scripted.streams[0]!.refuse(networkError());
    await settle();
    expect(mayHaveStarted(page.store.getState().generations.p1)).toBe(true);
    const [lists, conversations] = [page.listLoads(), conversationLoads()];
    await page.timers.advance(10_000);
    expect([page.listLoads(), conversationLoads()]).toEqual([lists + 1, conversations + 1]);
    await page.timers.advance(120_000);
    expect([page.listLoads(), conversationLoads()]).toEqual([lists + 1, conversations + 1]);
    expect(page.scripted.posts()).toHaveLength(1);
  });

  it('nothing is asked later for a refusal with a status, or a failure after the first event', async () => {
    const refusal = await withListAskedFor();
    void refusal.store.getState().generate({ prompt });
    refusal.scripted.streams[0]!.refuse(new AgentApiError('upstream', 'The service is unavailable.', { status: 503 }));
    await settle();
    expect(mayHaveStarted(Object.values(refusal.store.getState().generations)[0])).toBe(false);

    // Cut after it was named: a drop, recovered through the project's own status.
    const named = await withListAskedFor();
    void named.store.getState().generate({ prompt });
    named.scripted.streams[0]!.open();
    named.scripted.streams[0]!.emit(created('p2'));
    named.scripted.streams[0]!.fail(networkError());
    await settle();
    expect(mayHaveStarted(named.store.getState().generations.p2)).toBe(false);

    const loads = refusal.listLoads();
    await refusal.timers.advance(120_000);
    expect(refusal.listLoads()).toBe(loads);
    expect(refusal.scripted.posts()).toHaveLength(1);
    named.store.destroy();
  });

  it('destroy() drops the later list request', async () => {
    const { store, scripted, timers, listLoads } = await withListAskedFor();
    void store.getState().generate({ prompt });
    scripted.streams[0]!.refuse(networkError());
    await settle();
    const loads = listLoads();
    store.destroy();
    expect(timers.pending()).toEqual([]);
    await timers.advance(120_000);
    expect(listLoads()).toBe(loads);
  });
});

/** A change to p1 whose POST the network lost, on a page showing its conversation; the server's status is settable. */
async function lostChange(status: string) {
  const page = createScriptedStore();
  const server = { status };
  page.scripted.setDefaultProject((projectId) => project(projectId, server.status));
  await page.store.getState().fetchResource(resourceSpecs.conversation('p1'));
  void page.store.getState().followUp('p1', { prompt });
  page.scripted.streams[0]!.refuse(networkError());
  await settle();
  const gets = (path: string) => page.scripted.gets().filter((request) => request.path === path).length;
  return {
    ...page,
    server,
    statusPolls: () => gets('/agent/project/p1'),
    conversationLoads: () => gets('/projects/p1/conversation'),
    view: () => selectProjectView(page.store.getState(), 'p1'),
  };
}

describe('a change whose answer was lost, which the server builds all the same', () => {
  it('is asked about 3 s later; found building, it is recovered as a dropped stream is, to its end', async () => {
    const { store, scripted, timers, server, statusPolls, conversationLoads, view } = await lostChange('generating');
    expect(view().building).toBe(false);
    expect(statusPolls()).toBe(0);

    await timers.advance(3_000);
    await settle();
    // It reached the server: no longer a refusal, but a build whose answer was lost, recovered from its first event
    // (this transport has no events route, as one straight to the API: by its status, polled at once).
    const generation = store.getState().generations.p1;
    expect(generation).toMatchObject({ refused: false, status: 'recovering', error: { kind: 'network' } });
    expect(mayHaveStarted(generation)).toBe(false);
    expect(scripted.replayRequests).toEqual([{ method: 'GET', path: '/projects/p1/events', query: undefined }]);
    expect(statusPolls()).toBe(2);
    expect(view()).toMatchObject({ phase: 'recovering', building: true, busy: true, refusal: undefined });
    // Its turn is in the conversation again, waiting for its outcome.
    expect(store.getState().conversations.p1?.at(-1)).toMatchObject({ prompt, outcome: undefined });

    server.status = 'ready';
    const before = conversationLoads();
    await timers.advance(6_000);
    await settle();
    expect(store.getState().generations.p1).toMatchObject({ status: 'completed', refused: false });
    expect(view()).toMatchObject({ phase: 'ready', building: false, error: undefined });
    expect(store.getState().conversations.p1?.at(-1)).toMatchObject({ prompt, outcome: { status: 'completed' } });
    expect(conversationLoads()).toBeGreaterThan(before);
    // Polling stopped at the end, and the POST was never sent again.
    const polls = statusPolls();
    await timers.advance(120_000);
    expect(statusPolls()).toBe(polls);
    expect(scripted.posts()).toHaveLength(1);
  });

  it('through the proxy, its events are replayed from the first: the files and the end come back whole', async () => {
    const page = createScriptedStore();
    page.scripted.scriptReplays(true);
    page.scripted.setDefaultProject((projectId) => project(projectId, 'generating'));
    void page.store.getState().followUp('p1', { prompt });
    page.scripted.streams[0]!.refuse(networkError());
    await settle();
    await page.timers.advance(3_000);
    await settle();
    const [replay] = page.scripted.replays;
    expect(page.scripted.replayRequests).toEqual([{ method: 'GET', path: '/projects/p1/events', query: undefined }]);
    replay!.open();
    const events: AgentEvent[] = [
      { type: 'file_created', path: 'src/App.tsx', action: 'modified' },
      { type: 'file_created', path: 'src/Menu.tsx', action: 'created' },
      { type: 'stream_end', project_id: 'p1', app_url: 'https://p1.apps.example.test' },
    ];
    events.forEach((event, index) => replay!.handlers.onEvent(event, index + 1));
    replay!.close();
    await settle();
    await page.timers.advance(100);
    expect(page.store.getState().generations.p1).toMatchObject({
      status: 'completed',
      refused: false,
      fileCount: 2,
      modifiedCount: 1,
      prompt,
    });
    expect(page.scripted.posts()).toHaveLength(1);
  });

  it('after a build this page followed, the replay asks for the generation after it: never that build again', async () => {
    const page = createScriptedStore();
    page.scripted.scriptReplays(true);
    void page.store.getState().generate({ prompt: 'A landing page for a bakery' });
    await untilSent(page.scripted);
    const build = page.scripted.streams[0]!;
    build.open();
    [created('p1'), end('p1')].forEach((event, index) => build.handlers.onEvent(event, index + 1));
    build.close();
    await settle();
    page.scripted.setDefaultProject((projectId) => project(projectId, 'generating'));
    void page.store.getState().followUp('p1', { prompt });
    await untilSent(page.scripted);
    page.scripted.streams[1]!.refuse(networkError());
    await settle();
    await page.timers.advance(3_000);
    await settle();
    // The proxy answers nothing (204) while that build is still its latest, and the change from its first event once
    // the proxy has recorded it.
    expect(page.scripted.replayRequests.at(-1)).toEqual({
      method: 'GET',
      path: '/projects/p1/events',
      query: { after: firstEventIdOfGeneration(2) - 1 },
    });
    page.store.destroy();
  });

  it('one the server starts after the first look is caught by a later one (10 s, 30 s); the looks stop there', async () => {
    const { store, scripted, timers, server, statusPolls, view } = await lostChange('ready');
    await timers.advance(3_000);
    await settle();
    // The first look finds the app as it was: nothing builds yet, and nothing is polled on.
    expect(statusPolls()).toBe(1);
    expect(view().building).toBe(false);
    expect(mayHaveStarted(store.getState().generations.p1)).toBe(true);
    server.status = 'generating';
    await timers.advance(6_000);
    await settle();
    expect(statusPolls()).toBe(1);
    await timers.advance(1_000);
    await settle();
    expect(store.getState().generations.p1).toMatchObject({ refused: false, status: 'recovering' });
    expect(view()).toMatchObject({ phase: 'recovering', building: true });
    server.status = 'ready';
    await timers.advance(6_000);
    await settle();
    expect(view()).toMatchObject({ phase: 'ready', building: false });
    // Found and followed to its end: the look at 30 s is not taken.
    const polls = statusPolls();
    await timers.advance(120_000);
    expect(statusPolls()).toBe(polls);
    expect(scripted.posts()).toHaveLength(1);
  });

  it('a change the server never builds costs three looks, at 3, 10 and 30 s', async () => {
    const { timers, statusPolls, view } = await lostChange('ready');
    const failedAt = timers.now();
    const looks: number[] = [];
    for (const second of [3, 10, 30, 120]) {
      await timers.advance(failedAt + second * 1_000 - timers.now());
      await settle();
      looks.push(statusPolls());
    }
    expect(looks).toEqual([1, 2, 3, 3]);
    expect(view().building).toBe(false);
  });

  it('a change refused while the project builds elsewhere: the view builds, as the poll says', async () => {
    const { store, scripted } = createScriptedStore();
    scripted.setDefaultProject((projectId) => project(projectId, 'generating'));
    void store.getState().followUp('p1', { prompt });
    scripted.streams[0]!.refuse(new AgentApiError('rate_limited', 'Too Many Attempts.', { status: 429 }));
    await settle();
    // A part of the screen watches the project (ProjectStatus, the builder): its poll says another build runs.
    const stop = store.getState().watchProject('p1');
    await settle();
    // The refusal built nothing and left the project as the poll has it: building, followed to its end, with no
    // second reading of the refusal (a phase of `generating` beside `building: false` held nothing back).
    expect(selectProjectView(store.getState(), 'p1')).toMatchObject({
      phase: 'generating',
      building: true,
      busy: false,
    });
    expect(store.getState().generations.p1).toMatchObject({ status: 'failed', refused: true });
    stop();
    store.destroy();
  });

  it('a change refused with a status is not asked about', async () => {
    const { store, scripted, timers } = createScriptedStore();
    scripted.setDefaultProject((projectId) => project(projectId, 'generating'));
    void store.getState().followUp('p1', { prompt });
    scripted.streams[0]!.refuse(new AgentApiError('rate_limited', 'Too Many Attempts.', { status: 429 }));
    await settle();
    await timers.advance(60_000);
    expect(scripted.gets().filter((r) => r.path === '/agent/project/p1')).toHaveLength(0);
    expect(selectProjectView(store.getState(), 'p1').building).toBe(false);
  });
});
