import { describe, expect, it } from 'vitest';
import {
  AgentApiError,
  createAgentClient,
  createAgentStore,
  selectProjectView,
  type AgentEvent,
  type AgentLogEntry,
  type AgentStoreOptions,
} from 'agent-embed/core';
import {
  createScriptedStore,
  createManualTimers,
  createMemoryStorage,
  createScriptedTransport,
  project,
  settle,
} from './fakes.js';

function setup(overrides: Partial<AgentStoreOptions> = {}) {
  let hidden = false;
  const visibilityListeners = new Set<() => void>();
  const { store, scripted, timers, frames, storage } = createScriptedStore({
    isHidden: () => hidden,
    onVisibilityChange: (listener) => {
      visibilityListeners.add(listener);
      return () => visibilityListeners.delete(listener);
    },
    maxPollIntervalMs: 8000,
    ...overrides,
  });
  let notifications = 0;
  store.subscribe(() => {
    notifications++;
  });
  return {
    store,
    scripted,
    timers,
    frames,
    storage,
    notifications: () => notifications,
    setHidden(value: boolean) {
      hidden = value;
      for (const listener of [...visibilityListeners]) listener();
    },
    visibilityListenerCount: () => visibilityListeners.size,
  };
}

const created = (id: string): AgentEvent => ({
  type: 'project_created',
  project_id: id,
  app_url: `https://${id}.apps.example.test`,
});
const end = (id: string): AgentEvent => ({
  type: 'stream_end',
  project_id: id,
  app_url: `https://${id}.apps.example.test`,
});

describe('generation state machine', () => {
  it('walks submitting → provisioning → generating → completed and re-keys the generation by project id', async () => {
    const { store, scripted } = setup();
    const promise = store.getState().generate({ prompt: 'A todo app with tags', mode: 'design' });
    const pendingKey = store.getState().currentKey as string;
    expect(pendingKey).toMatch(/^pending:/);
    expect(store.getState().generations[pendingKey]?.status).toBe('submitting');
    expect(store.getState().generations[pendingKey]?.mode).toBe('design');

    const stream = scripted.streams[0]!;
    expect(stream.request.body).toEqual({ prompt: 'A todo app with tags', mode: 'design' });
    stream.open();
    stream.emit(created('p1'));
    expect(store.getState().currentKey).toBe('p1');
    expect(store.getState().generations[pendingKey]).toBeUndefined();
    expect(store.getState().generations.p1?.status).toBe('provisioning');
    stream.emit({ type: 'container_progress', message: 'Installing', percentage: 40 });
    stream.emit({ type: 'container_ready', message: 'Ready' });
    stream.emit({ type: 'file_created', path: 'src/App.tsx' });
    stream.emit({ type: 'tool_progress', tool: 'write_file', message: 'Writing', status: 'running' });
    stream.emit({ type: 'tool_progress', tool: 'write_file', message: 'Written', status: 'completed' });
    stream.emit({ type: 'tool_progress', tool: 'lint', message: 'Linting' });
    stream.emit(end('p1'));
    stream.close();
    const result = await promise;

    expect(result).toMatchObject({
      outcome: 'completed',
      projectId: 'p1',
      appUrl: 'https://p1.apps.example.test',
      key: 'p1',
    });
    const generation = store.getState().generations.p1!;
    expect(generation.status).toBe('completed');
    expect(generation.container).toEqual({ percentage: 100, message: 'Ready', ready: true });
    expect(generation.files.map((file) => file.path)).toEqual(['src/App.tsx']);
    // The running step was updated in place; a finished step is followed by a new one.
    expect(generation.tools.map((step) => [step.tool, step.message, step.status])).toEqual([
      ['write_file', 'Written', 'completed'],
      ['lint', 'Linting', undefined],
    ]);
    expect(generation.toolCount).toBe(2);
    expect(generation.eventCount).toBe(8);
    expect(generation.endedAt).toBeDefined();
  });

  it('de-duplicates files by path, keeps first-seen order and counts modified files', () => {
    const { store, scripted } = setup();
    void store.getState().generate({ prompt: 'A todo app with tags' });
    const stream = scripted.streams[0]!;
    stream.open();
    stream.emit(created('p1'));
    stream.emit({ type: 'file_created', path: 'a.ts' });
    stream.emit({ type: 'file_created', file_path: 'b.ts' });
    stream.emit({ type: 'file_created', filename: 'a.ts' });
    stream.emit({ type: 'file_created', file: { path: 'c.ts' }, action: 'modified' });
    stream.emit({ type: 'file_created', path: 'a.ts' });
    stream.emit({ type: 'file_created' });
    stream.emit({ type: 'unknown', originalType: 'thinking', data: {} });
    stream.emit(end('p1'));
    const generation = store.getState().generations.p1!;
    expect(generation.files).toEqual([
      { path: 'a.ts', action: 'modified', updates: 3 },
      { path: 'b.ts', action: 'created', updates: 1 },
      { path: 'c.ts', action: 'modified', updates: 1 },
    ]);
    expect(generation.modifiedCount).toBe(2);
    expect(generation.unknownEventCount).toBe(2);
  });

  it('ignores anything after a terminal event, and keeps what the events said over the result', async () => {
    const { store, scripted } = setup();
    const promise = store.getState().generate({ prompt: 'A todo app with tags' });
    const stream = scripted.streams[0]!;
    stream.open();
    stream.emit(created('p1'));
    stream.emit({ type: 'stream_end', project_id: 'p1', app_url: 'https://first.example.test' });
    stream.emit({ type: 'file_created', path: 'late.ts' });
    stream.emit({ type: 'stream_end', project_id: 'p1', app_url: 'https://second.example.test' });
    stream.close();
    const result = await promise;
    const generation = store.getState().generations.p1!;
    expect(generation.files).toHaveLength(0);
    expect(generation.eventCount).toBe(2);
    expect(generation.appUrl).toBe('https://first.example.test');
    expect(result.appUrl).toBe('https://first.example.test');
  });

  it('keeps published snapshots immutable while later events arrive', () => {
    const { store, scripted, frames } = setup();
    void store.getState().generate({ prompt: 'A todo app with tags' });
    const stream = scripted.streams[0]!;
    stream.emit(created('p1'));
    stream.emit({ type: 'file_created', path: 'a.ts' });
    frames.runFrame();
    const before = store.getState().generations.p1!;
    expect(before.files).toHaveLength(1);
    stream.emit({ type: 'file_created', path: 'a.ts' });
    stream.emit({ type: 'file_created', path: 'b.ts' });
    stream.emit({ type: 'container_progress', message: 'late', percentage: 10 });
    frames.runFrame();
    const after = store.getState().generations.p1!;
    expect(before.files).toEqual([{ path: 'a.ts', action: 'created', updates: 1 }]);
    expect(before.container.message).toBeUndefined();
    expect(after.files).toHaveLength(2);
    expect(after.container.message).toBe('late');
  });
});

describe('batched notifications and work per event', () => {
  function burst(count: number) {
    const events: AgentEvent[] = [];
    for (let index = 0; index < count; index++) {
      events.push(
        index % 4 === 3
          ? { type: 'tool_progress', tool: `tool-${index % 7}`, message: `step ${index}` }
          : { type: 'file_created', path: `src/file-${index % 5000}.ts` },
      );
    }
    return events;
  }

  it('applies 10 000 events with one notification per frame; a new status and the end at once', async () => {
    const { store, scripted, frames, notifications } = setup();
    const promise = store.getState().generate({ prompt: 'A big generated application' });
    expect(notifications()).toBe(1); // submitting
    const stream = scripted.streams[0]!;
    stream.open();
    stream.emit(created('big'));
    expect(notifications()).toBe(2); // the project named, at once
    const events = burst(10_000);
    let framesRun = 0;
    for (let index = 0; index < events.length; index++) {
      stream.emit(events[index]!);
      if (index % 1000 === 999) {
        frames.runFrame();
        framesRun++;
      }
    }
    expect(framesRun).toBe(10);
    // The first file moved provisioning to generating (at once); then one notification per frame, never per event.
    expect(notifications()).toBe(3 + framesRun);
    stream.emit(end('big'));
    expect(notifications()).toBe(4 + framesRun); // the terminal event flushes at once
    expect(store.getState().generations.big?.status).toBe('completed');
    stream.close();
    await promise;
    frames.runFrame();
    expect(notifications()).toBe(4 + framesRun); // settling changed nothing visible: no extra notification

    const stats = store.getStats();
    expect(stats.events).toBe(10_002);
    expect(stats.flushes).toBe(notifications());
    const generation = store.getState().generations.big!;
    expect(generation.eventCount).toBe(10_002);
    // Every fourth event is a tool step; the 7500 file events name 3750 distinct paths.
    expect(generation.files).toHaveLength(3750);
    expect(generation.files[0]?.path).toBe('src/file-0.ts');
    expect(generation.modifiedCount).toBe(3750);
    expect(generation.toolCount).toBe(2500);
    expect(generation.tools).toHaveLength(200);
    expect('log' in store.getState()).toBe(false);
    // Work is proportional to flushes × list size, not to events: at most 3750 files + 200 steps per flush
    // (the log is no longer state). Copying the lists on every event would have been ~20 million items.
    expect(stats.copiedItems).toBeLessThanOrEqual(stats.flushes * (3750 + 200));
    expect(stats.copiedItems).toBeLessThan(100_000);
  });

  it('with no frame at all, 10 000 events cost two notifications: the first event and the final state', async () => {
    const { store, scripted, notifications } = setup();
    const promise = store.getState().generate({ prompt: 'A big generated application' });
    const stream = scripted.streams[0]!;
    stream.open();
    const before = notifications();
    for (const event of burst(10_000)) stream.emit(event);
    stream.emit(end('big'));
    stream.close();
    await promise;
    expect(notifications() - before).toBe(2);
    expect(store.getStats().events).toBe(10_001);
  });

  it('reads the clock once per burst of events (one network chunk), not once per event', async () => {
    let clock = 1_000;
    let reads = 0;
    const { store, scripted } = setup({
      now: () => {
        reads++;
        return clock;
      },
    });
    const promise = store.getState().generate({ prompt: 'A big generated application' });
    const stream = scripted.streams[0]!;
    stream.open();
    const before = reads;
    stream.emit(created('big'));
    for (const event of burst(1_000)) stream.emit(event);
    expect(reads - before).toBe(1);
    // The next chunk arrives in a later task, at a later time.
    await Promise.resolve();
    clock = 2_000;
    stream.emit({ type: 'tool_progress', tool: 'lint', message: 'Linting' });
    stream.emit(end('big'));
    stream.close();
    await promise;
    const { tools, endedAt } = store.getState().generations.big!;
    expect(tools.at(-2)?.at).toBe(1_000);
    expect(tools.at(-1)).toMatchObject({ tool: 'lint', at: 2_000 });
    expect(endedAt).toBe(2_000);
  });

  it('a stream event never publishes in the middle of a slice: one frame publishes every event before it', () => {
    const { store, scripted, frames, notifications } = setup();
    void store.getState().generate({ prompt: 'A todo app with tags' });
    const stream = scripted.streams[0]!;
    stream.emit(created('p1'));
    stream.emit({ type: 'file_created', path: 'a.ts' });
    const published = notifications();
    expect(frames.pending).toBe(0);
    stream.emit({ type: 'file_created', path: 'b.ts' });
    stream.emit({ type: 'file_created', path: 'c.ts' });
    expect(notifications()).toBe(published);
    expect(frames.pending).toBe(1);
    frames.runFrame();
    expect(notifications()).toBe(published + 1);
    expect(store.getState().generations.p1?.files).toHaveLength(3);
    // A frame is asked for only when something waits for it.
    expect(frames.pending).toBe(0);
  });

  it('outside a DOM, frames fall back to 16 ms timers and visibility is assumed', async () => {
    expect(typeof requestAnimationFrame).toBe('undefined');
    const scripted = createScriptedTransport();
    const timers = createManualTimers();
    scripted.setDefaultProject(project('p1', 'generating'));
    const store = createAgentStore({
      client: createAgentClient({ transport: scripted.transport }),
      storage: null,
      setTimeout: timers.setTimeout,
      clearTimeout: timers.clearTimeout,
      now: timers.now,
    });
    let notifications = 0;
    store.subscribe(() => void notifications++);
    void store.getState().generate({ prompt: 'A todo app with tags' });
    scripted.streams[0]!.emit(created('p1'));
    // The first file starts generating (a new status, at once); the second waits for the frame.
    scripted.streams[0]!.emit({ type: 'file_created', path: 'a.ts' });
    scripted.streams[0]!.emit({ type: 'file_created', path: 'b.ts' });
    const before = notifications;
    expect(timers.pending()).toEqual([16]);
    await timers.advance(16);
    expect(notifications).toBe(before + 1);
    expect(store.getState().generations.p1?.files).toHaveLength(2);
    store.getState().watchProject('p1');
    await settle();
    expect(store.getState().projects.p1?.status).toBe('polling');
    store.destroy();
  });

  it('hands every log line to onLog, none to the state', () => {
    const log: AgentLogEntry[] = [];
    const { store, scripted } = setup({ onLog: (entry) => log.push(entry) });
    void store.getState().generate({ prompt: 'A todo app with tags' });
    const stream = scripted.streams[0]!;
    for (let index = 0; index < 20; index++) stream.emit({ type: 'file_created', path: `f${index}` });
    stream.emit(end('p1'));
    expect(log).toHaveLength(22);
    expect(log[0]).toMatchObject({ kind: 'action', text: 'Generate (build)' });
    expect(log[1]).toMatchObject({ kind: 'event', text: 'File: f0' });
    expect(log.at(-1)).toMatchObject({ kind: 'event', text: 'Generation completed', key: 'p1' });
    expect(log[0]!.id).toBeLessThan(log[21]!.id);
    expect('log' in store.getState()).toBe(false);
  });
});

describe('generate and followUp are idempotent per user action', () => {
  it('a second generate while one runs returns the same promise and sends no second POST', async () => {
    const { store, scripted } = setup();
    const first = store.getState().generate({ prompt: 'A todo app with tags' });
    const second = store.getState().generate({ prompt: 'A todo app with tags' });
    expect(second).toBe(first);
    expect(scripted.posts()).toHaveLength(1);
    scripted.streams[0]!.emit(created('p1'));
    expect(store.getState().generate({ prompt: 'Something else entirely' })).toBe(first);
    scripted.streams[0]!.emit(end('p1'));
    scripted.streams[0]!.close();
    await first;
    expect(scripted.posts()).toHaveLength(1);
    // Once settled, a new action sends a new request.
    void store.getState().generate({ prompt: 'A second project please' });
    expect(scripted.posts()).toHaveLength(2);
  });

  it('a second followUp on the same project returns the same promise', async () => {
    const { store, scripted } = setup();
    const first = store.getState().followUp('p1', { prompt: 'Make the header blue' });
    expect(store.getState().followUp('p1', { prompt: 'Make the header blue' })).toBe(first);
    expect(scripted.posts()).toEqual([
      { method: 'POST', path: '/agent/generate/p1', body: { prompt: 'Make the header blue' } },
    ]);
    expect(store.getState().currentKey).toBe('p1');
    expect(store.getState().generations.p1).toMatchObject({ kind: 'followUp', status: 'submitting', projectId: 'p1' });
    scripted.streams[0]!.emit({ type: 'file_created', path: 'src/Header.tsx', action: 'modified' });
    expect(store.getState().generations.p1?.status).toBe('generating');
    scripted.streams[0]!.emit(end('p1'));
    scripted.streams[0]!.close();
    expect((await first).outcome).toBe('completed');
  });
});

describe('refusals, cancel and end states', () => {
  it('a validation refusal ends in failed with the field errors kept, and the action resolves', async () => {
    const { store, scripted } = setup();
    const promise = store.getState().generate({ prompt: 'short' });
    scripted.streams[0]!.refuse(
      new AgentApiError('validation', 'The prompt must be at least 10 characters.', {
        status: 422,
        fieldErrors: { prompt: ['The prompt must be at least 10 characters.'] },
      }),
    );
    const result = await promise;
    expect(result.outcome).toBe('failed');
    const generation = store.getState().generations[result.key]!;
    expect(generation.status).toBe('failed');
    expect(generation.error?.fieldErrors).toEqual({ prompt: ['The prompt must be at least 10 characters.'] });
    expect(generation.refused).toBe(true);
  });

  it('a 400 "not enough credits" refusal ends in credits_exhausted, like the event during a stream', async () => {
    const { store, scripted } = setup();
    const refused = store.getState().generate({ prompt: 'A todo app with tags' });
    scripted.streams[0]!.refuse(
      new AgentApiError('insufficient_credits', 'Not enough credits. Please purchase more credits to continue.', {
        status: 400,
      }),
    );
    const first = await refused;
    expect(first.outcome).toBe('credits_exhausted');
    expect(store.getState().generations[first.key]?.status).toBe('credits_exhausted');
    // Refused, it built nothing: the project's view stays idle (the prompt form tells the refusal, once).
    const refusedView = selectProjectView(store.getState(), first.key);
    expect(refusedView).toMatchObject({ phase: 'idle', error: undefined, hasApp: false });
    expect(refusedView.refusal?.kind).toBe('insufficient_credits');

    const during = store.getState().generate({ prompt: 'A todo app with tags' });
    const stream = scripted.streams[1]!;
    stream.open();
    stream.emit(created('p2'));
    stream.emit({ type: 'credits_exhausted', message: 'Credits ran out.' });
    stream.close();
    const second = await during;
    expect(second.outcome).toBe('credits_exhausted');
    expect(store.getState().generations.p2).toMatchObject({ status: 'credits_exhausted', projectId: 'p2' });
    expect(store.getState().generations.p2?.error?.message).toBe('Credits ran out.');
    // Started, it is the build's own ending: the view says so (the build log tells it).
    expect(selectProjectView(store.getState(), 'p2')).toMatchObject({ phase: 'credits_exhausted', refusal: undefined });
  });

  it('a follow-up keeps the app to preview from its first moment to after it failed, with no status poll needed', async () => {
    const { store, scripted } = setup();
    const generated = store.getState().generate({ prompt: 'A todo app with tags' });
    scripted.streams[0]!.open();
    scripted.streams[0]!.emit(created('p1'));
    scripted.streams[0]!.emit(end('p1'));
    scripted.streams[0]!.close();
    await generated;
    const appUrl = 'https://p1.apps.example.test/';
    expect(selectProjectView(store.getState(), 'p1')).toMatchObject({ phase: 'ready', previewUrl: appUrl });
    const change = store.getState().followUp('p1', { prompt: 'Add a dark theme to the app' });
    // Submitting: nothing from the stream or a poll yet, the app built before is still the one to show.
    expect(selectProjectView(store.getState(), 'p1')).toMatchObject({ phase: 'submitting', previewUrl: appUrl });
    scripted.streams[1]!.open();
    scripted.streams[1]!.emit({ type: 'error', message: 'The build failed.' });
    scripted.streams[1]!.close();
    await change;
    expect(selectProjectView(store.getState(), 'p1')).toMatchObject({
      phase: 'failed',
      hasApp: false,
      previewUrl: appUrl,
    });
  });

  it('a stream error event ends in failed with its message', async () => {
    const { store, scripted } = setup();
    const promise = store.getState().generate({ prompt: 'A todo app with tags' });
    scripted.streams[0]!.open();
    scripted.streams[0]!.emit(created('p1'));
    scripted.streams[0]!.emit({ type: 'error', message: 'The model is overloaded.' });
    scripted.streams[0]!.close();
    expect((await promise).outcome).toBe('failed');
    expect(store.getState().generations.p1?.error?.message).toBe('The model is overloaded.');
  });

  it('stopWatching aborts the request and ends in aborted', async () => {
    const { store, scripted } = setup();
    const promise = store.getState().generate({ prompt: 'A todo app with tags' });
    scripted.streams[0]!.open();
    scripted.streams[0]!.emit(created('p1'));
    store.getState().stopWatching();
    expect(scripted.streams[0]!.aborted).toBe(true);
    expect((await promise).outcome).toBe('aborted');
    expect(store.getState().generations.p1?.status).toBe('aborted');
    expect(scripted.posts()).toHaveLength(1);
  });

  it('reset forgets a generation, its persisted id, and no longer blocks a new generation', async () => {
    const { store, scripted, storage } = setup();
    const first = store.getState().generate({ prompt: 'A todo app with tags' });
    scripted.streams[0]!.emit(created('p1'));
    expect(storage.values.size).toBe(1);
    store.getState().reset();
    expect(store.getState().generations.p1).toBeUndefined();
    expect(store.getState().currentKey).toBeUndefined();
    expect(storage.values.size).toBe(0);
    const second = store.getState().generate({ prompt: 'A fresh project please' });
    expect(second).not.toBe(first);
    expect(scripted.posts()).toHaveLength(2);
    expect((await first).outcome).toBe('aborted');
    expect(store.getState().generations.p1).toBeUndefined();
  });

  it('never throws out of an action when the client itself throws something unexpected', async () => {
    const store = createAgentStore({
      client: {
        ...createAgentClient({ transport: createScriptedTransport().transport }),
        generate: () => Promise.reject(new TypeError('boom')),
      },
      storage: null,
    });
    const result = await store.getState().generate({ prompt: 'A todo app with tags' });
    expect(result.outcome).toBe('failed');
    expect(result.error?.kind).toBe('network');
  });
});

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

  it('ignores unreadable storage', () => {
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
    expect(env.visibilityListenerCount()).toBe(0);
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
