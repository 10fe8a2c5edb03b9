/**
 * Issue 11, the browser half: after a drop and on reload the store resumes through the proxy's events
 * route (after the last event id it applied; from 0 with a fresh generation after a reload), and only
 * when that has nothing (204/404) or fails does it poll the status. It never sends a POST again.
 */
import { describe, expect, it } from 'vitest';
import { AgentApiError, firstEventIdOfGeneration, type AgentEvent, type AgentStoreOptions } from 'agent-embed/core';
import { createMemoryStorage, project, settle, createScriptedStore, untilSent } from './fakes.js';

function setup(overrides: Partial<AgentStoreOptions> = {}) {
  const stack = createScriptedStore(overrides);
  stack.scripted.scriptReplays(true);
  return stack;
}

const build: AgentEvent[] = [
  { type: 'project_created', project_id: 'p1', app_url: 'https://p1.apps.example.test' },
  { type: 'container_progress', message: 'Allocating', percentage: 40 },
  { type: 'container_ready', message: 'Container ready.' },
  { type: 'file_created', path: 'src/App.tsx', action: 'created' },
  { type: 'tool_progress', tool: 'write_file', message: 'Writing', status: 'running' },
  { type: 'file_created', path: 'src/main.tsx', action: 'created' },
  { type: 'file_created', path: 'src/App.tsx', action: 'modified' },
  { type: 'file_created', path: 'index.html', action: 'created' },
  { type: 'stream_end', project_id: 'p1', app_url: 'https://p1.apps.example.test' },
];

/** Emits `events` on a scripted stream with their SSE ids, numbered from `firstId`. */
function emitNumbered(
  stream: { handlers: { onEvent(event: AgentEvent, id?: number): void } },
  events: AgentEvent[],
  firstId: number,
) {
  events.forEach((event, index) => stream.handlers.onEvent(event, firstId + index));
}

/** The state of a generation that received the whole build in one stream. */
async function uninterrupted() {
  const { store, scripted } = setup();
  const done = store.getState().generate({ prompt: 'A todo app with tags' });
  scripted.streams[0]!.open();
  emitNumbered(scripted.streams[0]!, build, 1);
  scripted.streams[0]!.close();
  await done;
  return store.getState().generations.p1!;
}

/** A generation whose stream dropped after the build's first five events: it waits for its replay. */
async function droppedAfterFive(overrides: Partial<AgentStoreOptions> = {}) {
  const stack = setup(overrides);
  const done = stack.store.getState().generate({ prompt: 'A todo app with tags' });
  await untilSent(stack.scripted);
  const stream = stack.scripted.streams[0]!;
  stream.open();
  emitNumbered(stream, build.slice(0, 5), 1);
  stream.fail(new AgentApiError('network', 'The connection dropped.'));
  await settle();
  return { ...stack, done };
}

describe('resume through the events route', () => {
  it('after a drop mid-stream, replays after the last id applied: the file list equals the original, no POST', async () => {
    const reference = await uninterrupted();
    const { store, scripted, done } = await droppedAfterFive();
    expect(store.getState().generations.p1?.status).toBe('recovering');
    expect(scripted.replayRequests).toEqual([{ method: 'GET', path: '/projects/p1/events', query: { after: 5 } }]);
    const replay = scripted.replays[0]!;
    replay.open();
    emitNumbered(replay, build.slice(5), 6);
    replay.close();
    const result = await done;
    expect(result).toMatchObject({ outcome: 'completed', projectId: 'p1' });
    const generation = store.getState().generations.p1!;
    expect(generation.files).toEqual(reference.files);
    expect(generation.modifiedCount).toBe(reference.modifiedCount);
    expect(generation.toolCount).toBe(reference.toolCount);
    expect(generation.container).toEqual(reference.container);
    expect(generation.status).toBe('completed');
    expect(scripted.posts()).toHaveLength(1);
    expect(scripted.gets()).toHaveLength(0); // nobody watches the status: no recovery polling at all
  });

  it('a replay that reached the end while its publish waits for a frame does not poll the status', async () => {
    const { store, scripted, frames, done } = await droppedAfterFive({ framesRun: () => true });
    frames.runFrame();
    const replay = scripted.replays[0]!;
    replay.open();
    emitNumbered(replay, build.slice(5, 8), 6);
    await settle(); // the replayed files publish: back to generating
    emitNumbered(replay, build.slice(8), 9);
    replay.close();
    // The replay's call returns; the end waits for the frame (it followed a publish in this one).
    for (let turn = 0; turn < 5; turn++) await settle();
    expect(store.getState().generations.p1?.status).not.toBe('completed');
    frames.runFrame();
    expect(await done).toMatchObject({ outcome: 'completed', projectId: 'p1' });
    expect(scripted.gets()).toHaveLength(0);
  });

  it('falls back to status polling when the route has nothing recorded (204)', async () => {
    const { store, scripted, timers } = setup();
    scripted.setDefaultProject(project('p1', 'ready'));
    const done = store.getState().generate({ prompt: 'A todo app with tags' });
    const stream = scripted.streams[0]!;
    stream.open();
    emitNumbered(stream, build.slice(0, 3), 1);
    stream.fail(new AgentApiError('network', 'The connection dropped.'));
    await settle();
    const replay = scripted.replays[0]!;
    replay.refuse(new AgentApiError('protocol', 'Expected an event stream.', { status: 204 }));
    await timers.advance(0);
    const result = await done;
    expect(result).toMatchObject({ outcome: 'completed', projectId: 'p1', appUrl: 'https://p1.apps.example.test' });
    expect(scripted.gets().length).toBeGreaterThanOrEqual(1);
    expect(scripted.posts()).toHaveLength(1);
  });

  it('tries a replay that found nothing recorded (204) again once a later poll says the build goes on, and follows it', async () => {
    // The proxy records a change only once the upstream has answered it: until then its route has nothing.
    const { store, scripted, timers } = await droppedAfterFive();
    scripted.queueProject(project('p1', 'generating'), project('p1', 'generating'));
    scripted.replays[0]!.refuse(new AgentApiError('protocol', 'Expected an event stream.', { status: 204 }));
    await timers.advance(0);
    await settle();
    // The poll that answers at once comes too soon after the 204: the next one tries again.
    expect(scripted.replayRequests).toHaveLength(1);
    await timers.advance(1000);
    await settle();
    expect(scripted.replayRequests).toHaveLength(2);
    expect(scripted.replayRequests[1]).toEqual({ method: 'GET', path: '/projects/p1/events', query: { after: 5 } });
    const replay = scripted.replays[1]!;
    replay.open();
    emitNumbered(replay, build.slice(5), 6);
    replay.close();
    await settle();
    expect(store.getState().generations.p1?.status).toBe('completed');
    expect(store.getState().generations.p1?.files.map((file) => file.path)).toEqual([
      'src/App.tsx',
      'src/main.tsx',
      'index.html',
    ]);
    expect(scripted.posts()).toHaveLength(1);
  });

  it('tries it again at most five times, only while polls say it builds, and never after a 404', async () => {
    const refused = (status: number) => new AgentApiError('protocol', 'Expected an event stream.', { status });
    const { scripted, timers, done } = await droppedAfterFive();
    scripted.setDefaultProject(project('p1', 'generating'));
    for (let attempt = 0; attempt < 20; attempt++) {
      scripted.replays.at(-1)?.refuse(refused(204));
      await timers.advance(1000);
      await settle();
    }
    expect(scripted.replayRequests).toHaveLength(6);
    scripted.setDefaultProject(project('p1', 'ready'));
    await timers.advance(1000);
    expect(await done).toMatchObject({ outcome: 'completed' });

    // Without the proxy's route (404) there is nothing to wait for: polled only.
    const other = await droppedAfterFive();
    other.scripted.setDefaultProject(project('p1', 'generating'));
    other.scripted.replays[0]!.refuse(refused(404));
    for (let attempt = 0; attempt < 3; attempt++) {
      await other.timers.advance(1000);
      await settle();
    }
    expect(other.scripted.replayRequests).toHaveLength(1);
    expect(other.scripted.gets().length).toBeGreaterThanOrEqual(3);
  });

  it('falls back to polling when the replay itself breaks before the end', async () => {
    const { store, scripted, timers } = setup();
    scripted.setDefaultProject(project('p1', 'failed'));
    const done = store.getState().generate({ prompt: 'A todo app with tags' });
    scripted.streams[0]!.open();
    emitNumbered(scripted.streams[0]!, build.slice(0, 2), 1);
    scripted.streams[0]!.fail(new AgentApiError('network', 'The connection dropped.'));
    await settle();
    scripted.replays[0]!.open();
    emitNumbered(scripted.replays[0]!, build.slice(2, 4), 3);
    scripted.replays[0]!.close();
    await timers.advance(0);
    expect(await done).toMatchObject({ outcome: 'failed', error: { code: 'generation_failed' } });
    expect(store.getState().generations.p1?.files.map((file) => file.path)).toEqual(['src/App.tsx']);
    expect(scripted.posts()).toHaveLength(1);
  });

  it('a reload replays the whole generation from the first event into a fresh generation', async () => {
    const reference = await uninterrupted();
    const first = setup();
    void first.store.getState().generate({ prompt: 'A todo app with tags' });
    first.scripted.streams[0]!.open();
    emitNumbered(first.scripted.streams[0]!, build.slice(0, 4), 1);
    // The page reloads here: a new store over the same storage.
    const second = setup({ storage: first.storage });
    second.store.getState().resume();
    expect(second.store.getState().generations.p1?.status).toBe('recovering');
    expect(second.scripted.replayRequests).toEqual([{ method: 'GET', path: '/projects/p1/events', query: undefined }]);
    const replay = second.scripted.replays[0]!;
    replay.open();
    emitNumbered(replay, build.slice(0, 6), 1);
    await settle();
    expect(second.store.getState().generations.p1?.status).toBe('generating');
    emitNumbered(replay, build.slice(6), 7);
    replay.close();
    await settle();
    const generation = second.store.getState().generations.p1!;
    expect(generation.status).toBe('completed');
    expect(generation.files).toEqual(reference.files);
    expect(generation.toolCount).toBe(reference.toolCount);
    expect(generation.container).toEqual(reference.container);
    expect(second.scripted.posts()).toHaveLength(0);
  });

  it('events without ids (no proxy) are not replayed twice: the store polls at once', async () => {
    const { store, scripted, timers } = setup();
    scripted.setDefaultProject(project('p1', 'ready'));
    const done = store.getState().generate({ prompt: 'A todo app with tags' });
    scripted.streams[0]!.open();
    for (const event of build.slice(0, 4)) scripted.streams[0]!.emit(event);
    scripted.streams[0]!.fail(new AgentApiError('network', 'The connection dropped.'));
    await timers.advance(0);
    expect((await done).outcome).toBe('completed');
    expect(scripted.replayRequests).toHaveLength(0);
    expect(store.getState().generations.p1?.files).toHaveLength(1);
  });

  it('stopWatching while replaying aborts the replay: stopped, as from a live stream', async () => {
    const { store, scripted } = setup();
    const done = store.getState().generate({ prompt: 'A todo app with tags' });
    scripted.streams[0]!.open();
    emitNumbered(scripted.streams[0]!, build.slice(0, 2), 1);
    scripted.streams[0]!.fail(new AgentApiError('network', 'The connection dropped.'));
    await settle();
    store.getState().stopWatching();
    expect((await done).outcome).toBe('aborted');
    expect(scripted.replays[0]!.aborted).toBe(true);
    expect(scripted.posts()).toHaveLength(1);
  });
});

describe('the last event id saved with the project (a reload)', () => {
  const change: AgentEvent[] = [
    { type: 'file_created', path: 'src/Header.tsx', action: 'created' },
    { type: 'stream_end', project_id: 'p1', app_url: 'https://p1.apps.example.test' },
  ];
  const afterFirstBuild = firstEventIdOfGeneration(2) - 1;

  /** A page that followed the whole build (ids 1–9) through the proxy: its project is saved, finished. */
  async function builtPage() {
    const page = setup();
    const done = page.store.getState().generate({ prompt: 'A todo app with tags' });
    await untilSent(page.scripted);
    page.scripted.streams[0]!.open();
    emitNumbered(page.scripted.streams[0]!, build, 1);
    page.scripted.streams[0]!.close();
    await done;
    return page;
  }

  it("a follow-up after the reload replays the generation after the saved build's, never that build", async () => {
    const first = await builtPage();
    const second = setup({ storage: first.storage });
    second.store.getState().resume();
    expect(second.store.getState().generations.p1?.status).toBe('completed');
    void second.store.getState().followUp('p1', { prompt: 'Make the header sticky' });
    await untilSent(second.scripted);
    second.scripted.streams[0]!.open();
    second.scripted.streams[0]!.fail(new AgentApiError('network', 'The connection dropped.'));
    await settle();
    expect(second.scripted.replayRequests).toEqual([
      { method: 'GET', path: '/projects/p1/events', query: { after: afterFirstBuild } },
    ]);
    expect(second.scripted.posts()).toHaveLength(1);
  });

  it('a reload during a follow-up replays that follow-up from its first event, whether or not it had one', async () => {
    for (const applied of [0, 1]) {
      const first = await builtPage();
      void first.store.getState().followUp('p1', { prompt: 'Make the header sticky' });
      await untilSent(first.scripted);
      first.scripted.streams[1]!.open();
      emitNumbered(first.scripted.streams[1]!, change.slice(0, applied), afterFirstBuild + 1);
      await settle();
      const second = setup({ storage: first.storage });
      second.store.getState().resume();
      expect(second.store.getState().generations.p1?.status).toBe('recovering');
      expect(second.scripted.replayRequests).toEqual([
        { method: 'GET', path: '/projects/p1/events', query: { after: afterFirstBuild } },
      ]);
      const replay = second.scripted.replays[0]!;
      replay.open();
      emitNumbered(replay, change, afterFirstBuild + 1);
      replay.close();
      await settle();
      expect(second.store.getState().generations.p1).toMatchObject({ status: 'completed', kind: 'followUp' });
      expect(second.store.getState().generations.p1?.files.map((file) => file.path)).toEqual(['src/Header.tsx']);
    }
  });

  it('a saved id that is not a positive whole number is ignored: the reload replays the latest generation', async () => {
    for (const lastEventId of [-1, 0, 1.5, '5', 2 ** 60, null]) {
      const storage = createMemoryStorage();
      const saved = { projectId: 'p1', status: 'generating', kind: 'followUp', mode: 'build', lastEventId };
      storage.setItem('agent-embed:last-project', JSON.stringify(saved));
      const page = setup({ storage });
      page.store.getState().resume();
      expect(page.scripted.replayRequests).toEqual([{ method: 'GET', path: '/projects/p1/events', query: undefined }]);
    }
  });
});
