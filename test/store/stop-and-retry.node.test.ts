/**
 * The generation lifecycle as store actions (#21): `stopWatching` closes the stream or the recovery and follows
 * the build by polling until it ends; `retry` looks for an interrupted outcome again (no POST) or sends a failed
 * prompt once more (one POST per call). Components only dispatch them.
 */
import { describe, expect, it } from 'vitest';
import { AgentApiError, isDeployable, resourceSpecs, selectProjectView } from 'agent-embed/core';
import { created, project, settle, createScriptedStore } from './fakes.js';

/** A page whose build of p1 the person stopped watching once the project was named. */
async function stoppedOnAPage() {
  const page = createScriptedStore({ maxPollIntervalMs: 8000 });
  void page.store.getState().generate({ prompt: 'A todo app with tags' });
  page.scripted.streams[0]!.open();
  page.scripted.streams[0]!.emit(created('p1'));
  page.store.getState().stopWatching();
  await settle();
  return page;
}

function setup() {
  const { store, scripted, timers } = createScriptedStore({ maxPollIntervalMs: 8000 });
  return { store, scripted, timers };
}

describe('stopWatching', () => {
  it('closes a live stream, then polls until the build ends: stopped, then ready and deployable', async () => {
    const { store, scripted, timers } = setup();
    scripted.queueProject(project('p1', 'generating'), project('p1', 'ready'));
    const promise = store.getState().generate({ prompt: 'A todo app with tags' });
    scripted.streams[0]!.open();
    scripted.streams[0]!.emit(created('p1'));
    store.getState().stopWatching();
    expect(scripted.streams[0]!.aborted).toBe(true);
    expect((await promise).outcome).toBe('aborted');
    expect(store.getState().generations.p1?.status).toBe('aborted');
    expect(scripted.posts()).toHaveLength(1);
    expect(selectProjectView(store.getState())).toMatchObject({ phase: 'stopped', busy: false, building: true });
    await settle();
    await timers.advance(1000);
    await settle();
    expect(selectProjectView(store.getState())).toMatchObject({ phase: 'ready', hasApp: true });
    expect(isDeployable(store.getState().generations.p1)).toBe(true);
    // Settled: the polling it started has ended.
    const polls = scripted.gets().length;
    await timers.advance(20_000);
    expect(scripted.gets()).toHaveLength(polls);
    expect(scripted.posts()).toHaveLength(1);
  });

  it('after a reload, goes on polling a build stopped before it until the build ends', async () => {
    const first = await stoppedOnAPage();
    first.store.destroy();
    // The next page over the same storage.
    const { store, scripted, timers } = createScriptedStore({ maxPollIntervalMs: 8000, storage: first.storage });
    scripted.queueProject(project('p1', 'generating'), project('p1', 'ready'));
    store.getState().resume();
    expect(selectProjectView(store.getState())).toMatchObject({ phase: 'stopped', building: true });
    await settle();
    await timers.advance(1000);
    await settle();
    expect(selectProjectView(store.getState())).toMatchObject({ phase: 'ready', hasApp: true });
    expect(scripted.posts()).toHaveLength(0);
  });

  it('settles the stopped turn of the conversation when the poll sees the build end, after a reload too', async () => {
    const first = await stoppedOnAPage();
    expect(first.store.getState().conversations.p1?.map((turn) => turn.outcome?.status)).toEqual(['stopped']);
    // The conversation is written in a task of its own.
    await new Promise((resolve) => setTimeout(resolve, 0));
    first.store.destroy();
    const { store, scripted, timers } = createScriptedStore({ maxPollIntervalMs: 8000, storage: first.storage });
    scripted.queueProject(project('p1', 'generating'), project('p1', 'ready'));
    store.getState().resume();
    expect(store.getState().conversations.p1?.map((turn) => turn.outcome?.status)).toEqual(['stopped']);
    await settle();
    await timers.advance(1000);
    await settle();
    expect(selectProjectView(store.getState())).toMatchObject({ phase: 'ready' });
    expect(store.getState().conversations.p1?.map((turn) => turn.outcome?.status)).toEqual(['completed']);
  });

  it('asks the proxy for the project list again when a stopped build ends, as when it stopped', async () => {
    const { store, scripted, timers } = setup();
    // Every GET is answered from one script here: the list's answer is not read, only counted.
    let status = 'generating';
    scripted.setDefaultProject(() => project('p1', status));
    await store.getState().fetchResource(resourceSpecs.projects);
    const listLoads = () => scripted.gets().filter((request) => request.path.endsWith('/projects')).length;
    void store.getState().generate({ prompt: 'A todo app with tags' });
    scripted.streams[0]!.open();
    scripted.streams[0]!.emit(created('p1'));
    store.getState().stopWatching();
    await settle();
    const afterStop = listLoads();
    expect(afterStop).toBe(2);
    status = 'ready';
    await timers.advance(1000);
    await settle();
    expect(selectProjectView(store.getState())).toMatchObject({ phase: 'ready' });
    expect(listLoads()).toBe(afterStop + 1);
  });

  it('stopped before its project is named: reads on until it is, then closes and polls until the build ends', async () => {
    const { store, scripted, timers } = setup();
    scripted.queueProject(project('p1', 'generating'), project('p1', 'ready'));
    const promise = store.getState().generate({ prompt: 'A todo app with tags' });
    scripted.streams[0]!.open();
    store.getState().stopWatching();
    expect((await promise).outcome).toBe('aborted');
    expect(selectProjectView(store.getState())).toMatchObject({
      phase: 'stopped',
      projectId: undefined,
      building: false,
    });
    // Nothing is polled yet: there is no project to ask about, and the stream stays open for its name.
    expect(scripted.streams[0]!.aborted).toBe(false);
    scripted.streams[0]!.emit({ type: 'container_progress', percentage: 10, message: 'Preparing' });
    expect(store.getState().generations.p1).toBeUndefined();
    scripted.streams[0]!.emit(created('p1'));
    expect(scripted.streams[0]!.aborted).toBe(true);
    await settle();
    expect(store.getState().generations.p1?.status).toBe('aborted');
    expect(selectProjectView(store.getState())).toMatchObject({ phase: 'stopped', projectId: 'p1', building: true });
    await timers.advance(1000);
    await settle();
    expect(selectProjectView(store.getState())).toMatchObject({ phase: 'ready', hasApp: true });
    expect(scripted.posts()).toHaveLength(1);
  });

  it('stopped before its project is named, then refused or failed: says so, and reads nothing more', async () => {
    const refused = setup();
    void refused.store.getState().generate({ prompt: 'A todo app with tags' });
    refused.store.getState().stopWatching();
    refused.scripted.streams[0]!.refuse(
      new AgentApiError('insufficient_credits', 'Not enough credits.', { status: 402, code: 'insufficient_credits' }),
    );
    await settle();
    const [refusedGeneration] = Object.values(refused.store.getState().generations);
    expect(refusedGeneration).toMatchObject({ status: 'credits_exhausted', refused: true });

    const failed = setup();
    void failed.store.getState().generate({ prompt: 'A todo app with tags' });
    failed.scripted.streams[0]!.open();
    failed.store.getState().stopWatching();
    failed.scripted.streams[0]!.emit({ type: 'error', message: 'The build failed.' });
    expect(failed.scripted.streams[0]!.aborted).toBe(true);
    await settle();
    expect(selectProjectView(failed.store.getState())).toMatchObject({ phase: 'failed', building: false });
  });

  it('a name that comes after the person moved on changes neither the project on screen nor the saved one', async () => {
    const { store, scripted, storage } = createScriptedStore({ maxPollIntervalMs: 8000 });
    scripted.setDefaultProject((projectId) => project(projectId, 'generating'));
    void store.getState().generate({ prompt: 'A todo app with tags' });
    scripted.streams[0]!.open();
    store.getState().stopWatching();
    // The person opens p1 (the list names it) and follows it, before the stopped stream names it too.
    await store.getState().openProject('p1');
    const opened = store.getState().generations.p1;
    const saved = () => [...storage.values.values()].find((value) => value.includes('"projectId"'));
    expect(saved()).toContain('"projectId":"p1"');
    scripted.streams[0]!.emit(created('p1'));
    await settle();
    expect(store.getState().generations.p1).toBe(opened);
    expect(Object.keys(store.getState().generations)).toEqual(['p1']);
    expect(store.getState().currentKey).toBe('p1');

    // A second stopped build, named after a new project took the screen: the saved project stays the new one.
    void store.getState().generate({ prompt: 'A recipe box for my family' });
    scripted.streams[1]!.open();
    store.getState().stopWatching();
    store.getState().newProject();
    void store.getState().generate({ prompt: 'A booking site for a yoga studio' });
    scripted.streams[2]!.open();
    scripted.streams[2]!.emit(created('p3'));
    scripted.streams[1]!.emit(created('p2'));
    await settle();
    expect(store.getState().currentKey).toBe('p3');
    expect(saved()).toContain('"projectId":"p3"');
  });

  // A click stopped before its POST went sends none: store-notifications.node.test.ts.
  it('closes the stream read on for a name when the store is destroyed', async () => {
    const { store, scripted } = setup();
    void store.getState().generate({ prompt: 'A todo app with tags' });
    scripted.streams[0]!.open();
    store.getState().stopWatching();
    expect(scripted.streams[0]!.aborted).toBe(false);
    store.destroy();
    expect(scripted.streams[0]!.aborted).toBe(true);
  });

  it('stops a recovery the same way: stopped (not lost), and the poll that sees the end settles it', async () => {
    const { store, scripted, timers } = setup();
    scripted.setDefaultProject(project('p1', 'generating'));
    const promise = store.getState().generate({ prompt: 'A todo app with tags' });
    scripted.streams[0]!.emit(created('p1'));
    scripted.streams[0]!.close();
    await settle();
    expect(store.getState().generations.p1?.status).toBe('recovering');
    store.getState().stopWatching('p1');
    expect((await promise).outcome).toBe('aborted');
    expect(selectProjectView(store.getState(), 'p1').phase).toBe('stopped');
    scripted.setDefaultProject(project('p1', 'failed'));
    await timers.advance(8000);
    await settle();
    expect(store.getState().generations.p1?.status).toBe('failed');
  });
});

describe('retry', () => {
  it('looks for an interrupted outcome again, without a POST', async () => {
    const { store, scripted } = setup();
    scripted.queueProject(new AgentApiError('forbidden', 'No access.', { status: 403 }));
    const first = store.getState().generate({ prompt: 'A todo app with tags' });
    scripted.streams[0]!.emit(created('p1'));
    scripted.streams[0]!.close();
    expect((await first).outcome).toBe('interrupted');
    scripted.queueProject(project('p1', 'ready'));
    const again = store.getState().retry('p1');
    expect(store.getState().generations.p1?.status).toBe('recovering');
    expect((await again)?.outcome).toBe('completed');
    expect(scripted.posts()).toHaveLength(1);
  });

  it('sends a failed prompt once more (one POST per call), and offers nothing for a completed generation', async () => {
    const { store, scripted } = setup();
    const first = store.getState().generate({ prompt: 'A todo app with tags', mode: 'design' });
    scripted.streams[0]!.emit(created('p1'));
    scripted.streams[0]!.emit({ type: 'error', message: 'The build failed.' });
    scripted.streams[0]!.close();
    expect((await first).outcome).toBe('failed');
    const again = store.getState().retry('p1');
    expect(again).toBeDefined();
    // A second click while it runs gets the same request back; the running generation itself has nothing to retry.
    expect(store.getState().retry('p1')).toBe(again);
    expect(store.getState().retry()).toBeUndefined();
    expect(scripted.posts()).toHaveLength(2);
    expect(scripted.requests.at(-1)?.body).toMatchObject({ prompt: 'A todo app with tags', mode: 'design' });
    scripted.streams[1]!.emit(created('p2'));
    scripted.streams[1]!.emit({ type: 'stream_end', project_id: 'p2', app_url: 'https://p2.apps.example.test' });
    scripted.streams[1]!.close();
    expect((await again)?.outcome).toBe('completed');
    expect(store.getState().retry('p2')).toBeUndefined();
  });
});
