/** The store's generation state machine through the public core entry: its walk, one POST per action, refusals, cancel and end states. */
import { describe, expect, it } from 'vitest';
import { AgentApiError, createAgentClient, createAgentStore, selectProjectView } from 'agent-embed/core';
import { createScriptedTransport, settle, setupStore as setup, created, end } from './fakes.js';

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
    // Published once the code that applied it yields (the slice of events it came in), before React renders.
    await settle();
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

  it('a published tool step keeps what it showed when its running step reports again', async () => {
    const { store, scripted, frames } = setup();
    void store.getState().generate({ prompt: 'A todo app with tags' });
    const stream = scripted.streams[0]!;
    stream.open();
    stream.emit(created('p1'));
    stream.emit({ type: 'tool_progress', tool: 'write_file', message: 'Writing 1', status: 'running' });
    stream.emit({ type: 'tool_progress', tool: 'write_file', message: 'Writing 2', status: 'running' });
    await settle();
    const shown = store.getState().generations.p1!.tools;
    expect(shown.map((step) => step.message)).toEqual(['Writing 2']);
    const shownStep = { ...shown[0] };
    stream.emit({ type: 'tool_progress', tool: 'write_file', message: 'Writing 3', status: 'running' });
    stream.emit({ type: 'tool_progress', tool: 'write_file', message: 'Written', status: 'completed' });
    frames.runFrame();
    await settle();
    // What the first publish showed is unchanged; the next publish shows the same one step, finished.
    expect(shown).toEqual([shownStep]);
    expect(store.getState().generations.p1!.tools.map((step) => [step.id, step.message, step.status])).toEqual([
      [1, 'Written', 'completed'],
    ]);
  });

  it('de-duplicates files by path, keeps first-seen order and counts modified files', async () => {
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
    await settle();
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

  it('keeps published snapshots immutable while later events arrive', async () => {
    const { store, scripted, frames } = setup();
    void store.getState().generate({ prompt: 'A todo app with tags' });
    const stream = scripted.streams[0]!;
    stream.emit(created('p1'));
    stream.emit({ type: 'file_created', path: 'a.ts' });
    await settle();
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

  it('a build left running in the background when the person opened another project does not hold a new one', async () => {
    const { store, scripted } = setup();
    const background = store.getState().generate({ prompt: 'A todo app with tags' });
    scripted.streams[0]!.emit(created('p1'));
    await settle();
    // The person opens the project list and starts a new project while p1 goes on building.
    store.getState().newProject();
    const second = store.getState().generate({ prompt: 'A recipe book with search' });
    expect(second).not.toBe(background);
    expect(scripted.posts()).toHaveLength(2);
    // The new one is on screen now: its double click is its own twin, and p1 is still streaming.
    expect(store.getState().generate({ prompt: 'A recipe book with search' })).toBe(second);
    expect(scripted.posts()).toHaveLength(2);
    expect(store.getState().generations.p1?.status).toBe('provisioning');
    scripted.streams[0]!.emit(end('p1'));
    scripted.streams[0]!.close();
    expect(await background).toMatchObject({ outcome: 'completed', projectId: 'p1' });
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
    await settle();
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
      hasApp: true,
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
