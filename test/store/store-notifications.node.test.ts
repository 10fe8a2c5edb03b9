/** The store's notifications: one per frame for a burst, a new status and the end at once, and the work per event. */
import { describe, expect, it, vi } from 'vitest';
import { createAgentClient, createAgentStore, type AgentEvent, type AgentLogEntry } from 'agent-embed/core';
import {
  createManualTimers,
  createScriptedTransport,
  project,
  settle,
  setupStore as setup,
  created,
  end,
  untilSent,
} from './fakes.js';

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

  it('applies 10 000 events with one notification per frame; a new status and the end once their chunk is applied', async () => {
    const { store, scripted, frames, notifications } = setup();
    const promise = store.getState().generate({ prompt: 'A big generated application' });
    expect(notifications()).toBe(1); // submitting
    const stream = scripted.streams[0]!;
    stream.open();
    stream.emit(created('big'));
    expect(notifications()).toBe(1); // not in the middle of the chunk that named it…
    await settle();
    expect(notifications()).toBe(2); // …but as soon as that code yields, before anything renders
    const events = burst(10_000);
    // The first file moves provisioning to generating: published with the rest of its chunk.
    stream.emit(events[0]!);
    await settle();
    expect(notifications()).toBe(3);
    let framesRun = 0;
    for (let index = 1; index < events.length; index++) {
      stream.emit(events[index]!);
      if (index % 1000 === 999) {
        frames.runFrame();
        framesRun++;
      }
    }
    expect(framesRun).toBe(10);
    // Then one notification per frame, never per event.
    expect(notifications()).toBe(3 + framesRun);
    stream.emit(end('big'));
    await settle();
    expect(notifications()).toBe(4 + framesRun); // the terminal event flushes without waiting for a frame
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

  it('a new status publishes with the rest of its slice: the first rows come with the first event, in one notification', async () => {
    const { store, scripted, notifications } = setup();
    void store.getState().generate({ prompt: 'A big generated application' });
    const stream = scripted.streams[0]!;
    stream.open();
    const before = notifications();
    // One network chunk: the project named, then its first files (no frame runs in between).
    stream.emit(created('big'));
    for (const path of ['a.ts', 'b.ts', 'c.ts']) stream.emit({ type: 'file_created', path });
    await settle();
    expect(notifications() - before).toBe(1);
    const generation = store.getState().generations.big!;
    expect(generation.status).toBe('generating');
    expect(generation.files.map((file) => file.path)).toEqual(['a.ts', 'b.ts', 'c.ts']);
  });

  it('with no frame at all, 10 000 events cost two notifications: the first chunk and the final state', async () => {
    const { store, scripted, notifications } = setup();
    const promise = store.getState().generate({ prompt: 'A big generated application' });
    const stream = scripted.streams[0]!;
    stream.open();
    const before = notifications();
    const [first, ...rest] = burst(10_000);
    stream.emit(first!);
    await settle();
    for (const event of rest) stream.emit(event);
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

  it('a stream event never publishes in the middle of a slice: one frame publishes every event before it', async () => {
    const { store, scripted, frames, notifications } = setup();
    void store.getState().generate({ prompt: 'A todo app with tags' });
    const stream = scripted.streams[0]!;
    stream.emit(created('p1'));
    stream.emit({ type: 'file_created', path: 'a.ts' });
    await settle();
    // The publish of the new status ends the frame's turn: the next frame publishes nothing of its own.
    frames.runFrame();
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

  it('details that come while a new status waits for its publish go with it, and ask for no frame', async () => {
    const { store, scripted, frames, notifications } = setup();
    void store.getState().generate({ prompt: 'A todo app with tags' });
    const stream = scripted.streams[0]!;
    stream.emit(created('p1'));
    const before = notifications();
    for (const path of ['a.ts', 'b.ts', 'c.ts']) stream.emit({ type: 'file_created', path });
    expect(frames.pending).toBe(0);
    expect(notifications()).toBe(before);
    await settle();
    expect(notifications()).toBe(before + 1);
    expect(store.getState().generations.p1).toMatchObject({ status: 'generating', fileCount: 3 });
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
    // The first file starts generating (a new status, published with its slice); the second waits for the frame.
    scripted.streams[0]!.emit({ type: 'file_created', path: 'a.ts' });
    await settle();
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

  describe('where the page’s frames run (framesRun)', () => {
    it('an urgent change between a frame and its publish task takes the frame: the task does not publish again', async () => {
      // The platform's frame in two steps, as in a page: the frame's callback runs, and its publish comes in a task
      // after it, which other tasks (a stream's slices, an urgent publish) may come before.
      type Entry = { flush: () => void; cancelled: boolean };
      const requested: Entry[] = [];
      const fired: Entry[] = [];
      let framesFired = 0;
      const frame = () => {
        framesFired++;
        fired.push(...requested.splice(0));
      };
      const frameTasks = () => {
        for (const entry of fired.splice(0)) if (!entry.cancelled) entry.flush();
      };
      const tasks: (() => void)[] = [];
      const runTasks = async () => {
        for (const task of tasks.splice(0)) task();
        await settle();
      };
      const { store, scripted, notifications } = setup({
        framesRun: () => true,
        yieldTask: () => new Promise<void>((resolve) => tasks.push(resolve)),
        scheduleFlush: (flush) => {
          const entry = { flush, cancelled: false };
          requested.push(entry);
          return () => void (entry.cancelled = true);
        },
      });
      // Publishes between two frames, each with the number of the last frame fired before it.
      const publishes: number[] = [];
      store.subscribe(() => publishes.push(framesFired));
      void store.getState().generate({ prompt: 'A big generated application' });
      await runTasks(); // the click's publish, in a task of its own
      await runTasks(); // its POST, in the task after
      frame();
      frameTasks();
      const stream = scripted.streams[0]!;
      stream.open();
      stream.emit(created('big'));
      await settle();
      await runTasks();
      frame();
      frameTasks();
      expect(notifications()).toBe(2);
      // A detail waits for the frame; the frame comes, but its publish task has not run yet…
      stream.emit({ type: 'container_progress', message: 'Installing', percentage: 40 });
      frame();
      // …when an urgent change (the status) publishes in its own task, with the detail…
      stream.emit({ type: 'container_ready', message: 'Ready' });
      await settle();
      await runTasks();
      expect(notifications()).toBe(3);
      expect(store.getState().generations.big?.status).toBe('generating');
      // …and more detail comes. The frame's task, late, leaves it for the next frame: one publish per frame.
      stream.emit({ type: 'file_created', path: 'a.ts' });
      await settle();
      frameTasks();
      expect(notifications()).toBe(3);
      frame();
      frameTasks();
      expect(notifications()).toBe(4);
      expect(store.getState().generations.big?.files).toHaveLength(1);
      const perFrame = new Map<number, number>();
      for (const at of publishes) perFrame.set(at, (perFrame.get(at) ?? 0) + 1);
      expect(Math.max(...perFrame.values())).toBe(1);
    });

    it('an urgent change after a publish in the same frame waits for the next frame: one notification per frame', async () => {
      // Tasks the test runs by hand: where frames run, an urgent change publishes in a task of its own.
      const tasks: (() => void)[] = [];
      const { store, scripted, frames, notifications } = setup({
        framesRun: () => true,
        yieldTask: () => new Promise<void>((resolve) => tasks.push(resolve)),
      });
      void store.getState().generate({ prompt: 'A big generated application' });
      expect(notifications()).toBe(0);
      expect(scripted.streams).toHaveLength(0);
      tasks.shift()!();
      await settle();
      expect(notifications()).toBe(1); // the click's own, in a task of its own…
      expect(scripted.streams).toHaveLength(0);
      tasks.shift()!();
      await settle();
      expect(scripted.streams).toHaveLength(1); // …and its POST in the task after it
      const stream = scripted.streams[0]!;
      stream.open();
      stream.emit(created('big'));
      await settle();
      expect(tasks).toHaveLength(1);
      tasks[0]!();
      await settle();
      expect(notifications()).toBe(1); // this frame already has the click's commit
      frames.runFrame();
      expect(notifications()).toBe(2);
      expect(store.getState().generations.big?.status).toBe('provisioning');
      frames.runFrame(); // a frame with nothing to publish: the next urgent change needs no wait for a frame…
      stream.emit({ type: 'file_created', path: 'a.ts' });
      stream.emit({ type: 'file_created', path: 'b.ts' });
      await settle();
      // …but it publishes in a task of its own, not in the slice's: React's render would make that task twice as long.
      expect(notifications()).toBe(2);
      expect(tasks).toHaveLength(2);
      tasks[1]!();
      await settle();
      expect(notifications()).toBe(3);
      expect(store.getState().generations.big?.status).toBe('generating');
      expect(store.getState().generations.big?.files).toHaveLength(2); // the rest of the slice came with it
    });

    it('a click stopped, reset or the store destroyed before its POST went sends none, and its run settles', async () => {
      for (const stop of ['stopWatching', 'reset', 'destroy'] as const) {
        const tasks: (() => void)[] = [];
        const { store, scripted, notifications } = setup({
          framesRun: () => true,
          yieldTask: () => new Promise<void>((resolve) => tasks.push(resolve)),
        });
        const run = store.getState().generate({ prompt: 'A big generated application' });
        tasks.shift()!();
        await settle();
        expect(notifications()).toBe(1); // the click shows: submitting…
        if (stop === 'destroy') store.destroy();
        else store.getState()[stop]();
        // …and the POST's task comes after the person stopped it: nothing is sent.
        for (const task of tasks.splice(0)) task();
        await settle();
        expect(scripted.streams).toHaveLength(0);
        expect((await run).outcome, stop).toBe('aborted');
      }
    });

    it('the status poll a stream event starts, and its answer, publish with the frames: never in the slice, one per frame', async () => {
      const tasks: (() => void)[] = [];
      const { store, scripted, frames, notifications } = setup({
        framesRun: () => true,
        yieldTask: () => new Promise<void>((resolve) => tasks.push(resolve)),
      });
      scripted.setDefaultProject(project('big', 'generating'));
      void store.getState().generate({ prompt: 'A big generated application' });
      // The build log, mounted, watches the project: its first poll's "loading" waits for the frame as well.
      const unwatch = store.getState().watchProject('big');
      // The click's publish, then its POST, each in a task of its own.
      for (let task = 0; task < 2; task++) {
        tasks.shift()!();
        await settle();
      }
      const stream = scripted.streams[0]!;
      stream.open();
      expect(notifications()).toBe(1); // the click's own
      // The first event names the project, which refreshes its status: nothing publishes inside the slice.
      stream.emit(created('big'));
      stream.emit({ type: 'file_created', path: 'a.ts' });
      expect(notifications()).toBe(1);
      // The poll's answer lands before the next frame: this frame already has the click's commit, so it waits.
      await settle();
      for (const task of tasks.splice(0)) task();
      await settle();
      expect(scripted.gets().length).toBeGreaterThan(0);
      expect(notifications()).toBe(1);
      frames.runFrame();
      expect(notifications()).toBe(2);
      const state = store.getState();
      expect(state.generations.big?.files).toHaveLength(1);
      expect(state.projects.big?.project?.project_status).toBe('generating');
      unwatch();
    });

    it('where no frame runs (Node, a hidden tab), an urgent change publishes as soon as its slice ends, in a microtask', async () => {
      const yieldTask = vi.fn(() => new Promise<void>(() => {}));
      const { store, scripted, notifications } = setup({ framesRun: () => false, yieldTask });
      void store.getState().generate({ prompt: 'A big generated application' });
      const stream = scripted.streams[0]!;
      stream.open();
      stream.emit(created('big'));
      expect(notifications()).toBe(1);
      await settle();
      expect(notifications()).toBe(2);
      expect(yieldTask).not.toHaveBeenCalled();
    });

    it('a run resolves once its end is published, so whoever awaits it reads the end', async () => {
      const { store, scripted, frames } = setup({ framesRun: () => true });
      let seen: string | undefined;
      const promise = store
        .getState()
        .generate({ prompt: 'A big generated application' })
        .then((result) => {
          seen = store.getState().generations[result.key]?.status;
          return result;
        });
      await untilSent(scripted);
      const stream = scripted.streams[0]!;
      stream.open();
      stream.emit(created('big'));
      frames.runFrame();
      stream.emit({ type: 'file_created', path: 'a.ts' });
      frames.runFrame(); // a frame publishes the file
      stream.emit(end('big'));
      stream.close();
      await settle();
      // The end came after this frame's publish: it waits for the next frame, and so does the run.
      expect(seen).toBeUndefined();
      expect(store.getState().generations.big?.status).toBe('generating');
      frames.runFrame();
      expect((await promise).outcome).toBe('completed');
      expect(seen).toBe('completed');
    });

    it('a page hidden while the end waits for a frame publishes it at once, and the run resolves', async () => {
      let visible = true;
      const { store, scripted, frames, setHidden, visibilityListenerCount } = setup({ framesRun: () => visible });
      let settled = false;
      const promise = store.getState().generate({ prompt: 'A big generated application' });
      void promise.then(() => (settled = true));
      await untilSent(scripted);
      const stream = scripted.streams[0]!;
      stream.open();
      stream.emit(created('big'));
      frames.runFrame();
      stream.emit({ type: 'file_created', path: 'a.ts' });
      frames.runFrame();
      stream.emit(end('big'));
      stream.close();
      await settle();
      expect(settled).toBe(false); // waiting for the next frame
      visible = false;
      setHidden(true); // no frame will come now
      await settle();
      expect(settled).toBe(true);
      expect(store.getState().generations.big?.status).toBe('completed');
      store.destroy();
      expect(visibilityListenerCount()).toBe(0);
    });

    it('by default a frame’s changes publish in the task after the frame, not in it, and destroy cancels that task', async () => {
      // In the frame's callback, React's render would share one task with the frame's style, layout and paint.
      const frameCallbacks: FrameRequestCallback[] = [];
      vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => frameCallbacks.push(callback));
      vi.stubGlobal('cancelAnimationFrame', () => {});
      try {
        const scripted = createScriptedTransport();
        const store = createAgentStore({
          client: createAgentClient({ transport: scripted.transport }),
          storage: null,
          framesRun: () => true,
        });
        let notified = 0;
        store.subscribe(() => void notified++);
        const notifications = () => notified;
        void store.getState().generate({ prompt: 'A big generated application' });
        await untilSent(scripted);
        const stream = scripted.streams[0]!;
        stream.open();
        stream.emit(created('big'));
        await settle();
        expect(frameCallbacks).toHaveLength(1); // the click published in this frame: the new status waits
        const before = notifications();
        frameCallbacks.shift()!(0);
        await settle();
        expect(notifications()).toBe(before);
        await vi.waitFor(() => expect(notifications()).toBe(before + 1));
        expect(store.getState().generations.big?.status).toBe('provisioning');

        stream.emit({ type: 'file_created', path: 'a.ts' });
        stream.emit({ type: 'file_created', path: 'b.ts' });
        await settle();
        frameCallbacks.shift()!(0);
        store.destroy();
        await new Promise((resolve) => setTimeout(resolve, 20));
        expect(notifications()).toBe(before + 1);
      } finally {
        vi.unstubAllGlobals();
      }
    });

    it('in a hidden tab, where no frame runs, the end publishes and the run resolves as soon as its slice ends', async () => {
      const { store, scripted, frames } = setup({ framesRun: () => false });
      const promise = store.getState().generate({ prompt: 'A big generated application' });
      const stream = scripted.streams[0]!;
      stream.open();
      stream.emit(created('big'));
      frames.runFrame();
      stream.emit(end('big'));
      stream.close();
      expect((await promise).outcome).toBe('completed');
      expect(store.getState().generations.big?.status).toBe('completed');
    });
  });
});
