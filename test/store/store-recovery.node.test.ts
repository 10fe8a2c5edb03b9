/** How the store learns an outcome it lost: polling after a drop, resuming after a reload, and the shared project pollers. */
import { describe, expect, it } from 'vitest';
import { AgentApiError } from 'agent-embed/core';
import { createMemoryStorage, project, settle, setupStore as setup, created, end } from './fakes.js';

describe('interrupted streams are recovered by polling', () => {
  it('goes to recovering, polls with the status endpoint, and maps ready → completed', async () => {
    const { store, scripted, timers } = setup();
    scripted.queueProject(
      project('p1', 'generating'),
      new AgentApiError('upstream', 'Bad gateway', { status: 502 }),
      project('p1', 'ready', 'https://p1.live.example.test'),
    );
    const promise = store.getState().generate({ prompt: 'A todo app with tags' });
    const stream = scripted.streams[0]!;
    stream.open();
    stream.emit(created('p1'));
    stream.emit({ type: 'file_created', path: 'a.ts' });
    stream.close(); // cut without stream_end: interrupted
    await settle();
    expect(store.getState().generations.p1?.status).toBe('recovering');
    expect(scripted.gets()).toHaveLength(1);
    await timers.advance(1000); // the second poll answers 502
    expect(scripted.gets()).toHaveLength(2);
    expect(store.getState().generations.p1?.status).toBe('recovering');
    await timers.advance(1000);
    expect(scripted.gets()).toHaveLength(2); // backing off: 2000 ms after a failure
    await timers.advance(1000);
    expect(scripted.gets()).toHaveLength(3);
    const result = await promise;
    expect(result).toMatchObject({ outcome: 'completed', projectId: 'p1', appUrl: 'https://p1.live.example.test' });
    const generation = store.getState().generations.p1!;
    expect(generation.status).toBe('completed');
    expect(generation.appUrl).toBe('https://p1.live.example.test');
    expect(generation.files).toHaveLength(1);
    expect(scripted.posts()).toHaveLength(1);
    expect(timers.pending()).toEqual([]); // settled: no further polls scheduled
  });

  it('maps failed and credits_exhausted project statuses to the same generation statuses', async () => {
    for (const [projectStatus, expected] of [
      ['failed', 'failed'],
      ['credits_exhausted', 'credits_exhausted'],
    ] as const) {
      const { store, scripted } = setup();
      scripted.queueProject(project('p1', projectStatus));
      const promise = store.getState().generate({ prompt: 'A todo app with tags' });
      scripted.streams[0]!.open();
      scripted.streams[0]!.emit(created('p1'));
      scripted.streams[0]!.fail(new AgentApiError('network', 'connection reset'));
      expect((await promise).outcome).toBe(expected);
      expect(store.getState().generations.p1?.status).toBe(expected);
    }
  });

  it('waits Retry-After on 429 while recovering', async () => {
    const { store, scripted, timers } = setup();
    scripted.queueProject(
      new AgentApiError('rate_limited', 'Too Many Attempts.', { status: 429, retryAfterMs: 5000 }),
      project('p1', 'ready'),
    );
    void store.getState().generate({ prompt: 'A todo app with tags' });
    scripted.streams[0]!.open();
    scripted.streams[0]!.emit(created('p1'));
    scripted.streams[0]!.close();
    await settle();
    expect(scripted.gets()).toHaveLength(1);
    await timers.advance(4999);
    expect(scripted.gets()).toHaveLength(1);
    await timers.advance(1);
    expect(scripted.gets()).toHaveLength(2);
    expect(store.getState().generations.p1?.status).toBe('completed');
  });

  it('ends in interrupted when there is no project id to poll, or the project is gone', async () => {
    const { store, scripted } = setup();
    const before = store.getState().generate({ prompt: 'A todo app with tags' });
    scripted.streams[0]!.open();
    scripted.streams[0]!.close();
    expect((await before).outcome).toBe('interrupted');
    expect(scripted.gets()).toHaveLength(0);

    scripted.queueProject(new AgentApiError('not_found', 'Project not found.', { status: 404 }));
    const gone = store.getState().generate({ prompt: 'A todo app with tags' });
    scripted.streams[1]!.open();
    scripted.streams[1]!.emit(created('p9'));
    scripted.streams[1]!.close();
    const result = await gone;
    expect(result.outcome).toBe('interrupted');
    expect(store.getState().generations.p9).toMatchObject({ status: 'interrupted' });
    expect(store.getState().generations.p9?.error?.message).toBe('Project not found.');
  });
});

describe('reload resume', () => {
  it('persists the last project and a new store resumes and recovers it without any POST', async () => {
    const first = setup();
    void first.store.getState().generate({ prompt: 'A todo app with tags' });
    first.scripted.streams[0]!.open();
    first.scripted.streams[0]!.emit(created('p1'));
    // The page reloads here: a new store over the same storage.
    const second = setup({ storage: first.storage });
    second.scripted.queueProject(project('p1', 'generating'), project('p1', 'ready'));
    second.store.getState().resume();
    second.store.getState().resume(); // StrictMode runs effects twice: still one recovery
    expect(second.store.getState().currentKey).toBe('p1');
    expect(second.store.getState().generations.p1?.status).toBe('recovering');
    await settle();
    expect(second.scripted.gets()).toHaveLength(1);
    // A click meanwhile is de-duplicated onto the recovery: nothing is sent.
    const clicked = second.store.getState().generate({ prompt: 'Another one please' });
    await second.timers.advance(1000);
    expect(second.store.getState().generations.p1).toMatchObject({
      status: 'completed',
      appUrl: 'https://p1.apps.example.test',
    });
    expect((await clicked).outcome).toBe('completed');
    expect(second.scripted.posts()).toHaveLength(0);
    expect(second.scripted.gets()).toHaveLength(2);
  });

  it('restores a finished generation as it was, without polling', () => {
    const first = setup();
    void first.store.getState().generate({ prompt: 'A todo app with tags' });
    first.scripted.streams[0]!.emit(created('p1'));
    first.scripted.streams[0]!.emit({ type: 'credits_exhausted', message: 'Out of credits.' });
    const second = setup({ storage: first.storage });
    second.store.getState().resume();
    expect(second.store.getState().generations.p1).toMatchObject({ status: 'credits_exhausted', projectId: 'p1' });
    expect(second.store.getState().generations.p1?.error?.message).toBe('Out of credits.');
    expect(second.scripted.requests).toHaveLength(0);
  });

  it('ignores unreadable storage', async () => {
    const storage = createMemoryStorage();
    storage.setItem('agent-embed:last-project', '{not json');
    const { store, scripted } = setup({ storage });
    store.getState().resume();
    expect(store.getState().currentKey).toBeUndefined();
    expect(scripted.requests).toHaveLength(0);
    const throwing = setup({
      storage: {
        getItem: () => {
          throw new Error('denied');
        },
        setItem: () => {
          throw new Error('denied');
        },
        removeItem: () => {},
      },
    });
    throwing.store.getState().resume();
    void throwing.store.getState().generate({ prompt: 'A todo app with tags' });
    throwing.scripted.streams[0]!.emit(created('p1'));
    await settle();
    expect(throwing.store.getState().generations.p1?.status).toBe('provisioning');
  });
});

describe('shared project pollers', () => {
  it('runs one poller per project however many watchers, and stops when the last leaves', async () => {
    const { store, scripted, timers } = setup();
    scripted.setDefaultProject(project('p1', 'generating'));
    const stops = [
      store.getState().watchProject('p1'),
      store.getState().watchProject('p1'),
      store.getState().watchProject('p1'),
    ];
    await settle();
    expect(scripted.gets()).toHaveLength(1);
    expect(store.getState().projects.p1).toMatchObject({
      status: 'polling',
      project: { project_status: 'generating' },
      updatedAt: timers.now(),
    });
    await timers.advance(3000);
    expect(scripted.gets()).toHaveLength(4);
    stops[0]!();
    stops[0]!(); // idempotent
    stops[1]!();
    await timers.advance(1000);
    expect(scripted.gets()).toHaveLength(5);
    stops[2]!();
    await timers.advance(10_000);
    expect(scripted.gets()).toHaveLength(5);
    expect(store.getState().projects.p1?.status).toBe('stopped');
  });

  it('spends no status request while the live stream reports on the project, and polls once when it ends', async () => {
    const { store, scripted, timers } = setup();
    scripted.setDefaultProject(project('p1', 'generating'));
    const outcome = store.getState().generate({ prompt: 'A todo app with tags' });
    const stream = scripted.streams[0]!;
    stream.open();
    stream.emit(created('p1'));
    stream.emit({ type: 'container_ready', message: 'Ready' });
    const stop = store.getState().watchProject('p1');
    await settle();
    const afterFirstPoll = scripted.gets().length;
    expect(afterFirstPoll).toBeGreaterThanOrEqual(1);
    await timers.advance(10_000);
    expect(scripted.gets()).toHaveLength(afterFirstPoll);

    scripted.setDefaultProject(project('p1', 'ready'));
    stream.emit(end('p1'));
    stream.close();
    await outcome;
    await settle();
    expect(scripted.gets()).toHaveLength(afterFirstPoll + 1);
    expect(store.getState().projects.p1).toMatchObject({ status: 'settled', project: { project_status: 'ready' } });
    stop();
  });

  it('a watcher leaving and another arriving at once (StrictMode) keeps the same poller and request', async () => {
    const { store, scripted } = setup();
    scripted.setDefaultProject(project('p1', 'generating'));
    const stop = store.getState().watchProject('p1');
    stop();
    store.getState().watchProject('p1');
    await settle();
    expect(scripted.gets()).toHaveLength(1);
  });

  it('pauses while the page is hidden and polls at once when it is visible again', async () => {
    const env = setup();
    const { store, scripted, timers } = env;
    // The store's own listener (a hidden page publishes what waits for a frame) is there from the start.
    const storeListeners = env.visibilityListenerCount();
    scripted.setDefaultProject(project('p1', 'generating'));
    store.getState().watchProject('p1');
    await settle();
    expect(scripted.gets()).toHaveLength(1);
    env.setHidden(true);
    await timers.advance(10_000);
    expect(scripted.gets()).toHaveLength(1);
    expect(store.getState().projects.p1?.status).toBe('paused');
    env.setHidden(false);
    await settle();
    expect(scripted.gets()).toHaveLength(2);
    expect(store.getState().projects.p1?.status).toBe('polling');
    expect(env.visibilityListenerCount()).toBe(storeListeners);
  });

  it('stops at a terminal status, and backs off on errors up to the maximum', async () => {
    const { store, scripted, timers } = setup();
    const failure = new AgentApiError('network', 'offline');
    scripted.queueProject(failure, failure, failure, failure, failure, project('p1', 'ready'));
    store.getState().watchProject('p1');
    await timers.advance(60_000);
    expect(scripted.gets()).toHaveLength(6);
    // Delays after each failure double from the interval, capped at the maximum.
    expect(timers.delays.filter((ms) => ms > 0)).toEqual([2000, 4000, 8000, 8000, 8000]);
    expect(store.getState().projects.p1).toMatchObject({ status: 'settled', error: undefined });
  });

  it('backs off on a status that is neither building nor an end (null, a word the spec does not name)', async () => {
    const { store, scripted, timers } = setup();
    const broken = { ...project('p1', 'ready'), project_status: null } as unknown as ReturnType<typeof project>;
    scripted.queueProject(
      broken,
      project('p1', 'queued_for_gpu'),
      broken,
      broken,
      project('p1', 'generating'),
      project('p1', 'provisioning'),
      project('p1', 'ready'),
    );
    store.getState().watchProject('p1');
    await timers.advance(60_000);
    expect(scripted.gets()).toHaveLength(7);
    // Doubled after each unknown answer, capped at the maximum; back to the interval once it says it is building.
    expect(timers.delays.filter((ms) => ms > 0)).toEqual([2000, 4000, 8000, 8000, 1000, 1000]);
    expect(store.getState().projects.p1).toMatchObject({ status: 'settled', error: undefined });
  });

  it('stops with the error when polling cannot help (401, 404)', async () => {
    const { store, scripted, timers } = setup();
    scripted.queueProject(new AgentApiError('unauthorized', 'Unauthorized.', { status: 401 }));
    store.getState().watchProject('p1');
    await timers.advance(60_000);
    expect(scripted.gets()).toHaveLength(1);
    expect(store.getState().projects.p1?.status).toBe('error');
    expect(store.getState().projects.p1?.error?.message).toBe('Unauthorized.');
  });

  it('polls a settled project again after a follow-up on it', async () => {
    const { store, scripted } = setup();
    scripted.queueProject(project('p1', 'ready'), project('p1', 'generating'));
    store.getState().watchProject('p1');
    await settle();
    expect(store.getState().projects.p1?.status).toBe('settled');
    void store.getState().followUp('p1', { prompt: 'Add a footer please' });
    scripted.streams[0]!.emit({ type: 'file_created', path: 'Footer.tsx' });
    await settle();
    expect(scripted.gets()).toHaveLength(2);
    expect(store.getState().projects.p1?.project?.project_status).toBe('generating');
  });

  it('destroy stops everything and resolves what was pending', async () => {
    const { store, scripted, timers, notifications } = setup();
    scripted.setDefaultProject(project('p1', 'generating'));
    store.getState().watchProject('p1');
    const promise = store.getState().generate({ prompt: 'A todo app with tags' });
    await settle();
    const count = notifications();
    store.destroy();
    expect((await promise).outcome).toBe('aborted');
    await timers.advance(60_000);
    expect(scripted.gets()).toHaveLength(1);
    expect(notifications()).toBe(count);
  });
});
