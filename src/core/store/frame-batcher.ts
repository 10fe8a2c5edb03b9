/**
 * Frame batching of store notifications: changes from a stream publish in the next frame, at most once per frame;
 * what changes the picture (a new status, the project named, the end) publishes as soon as the code that applied it
 * has ended (the slice of events it came in, so the rest of that slice publishes with it, in the same React render),
 * unless the page already rendered a publish since its last frame: then it waits for the next one, so that a frame
 * gets one commit. Where frames run, "as soon as" is a task of its own: the hooks' subscribers render at the end of
 * the task that published, and in the slice's task that render would make it twice as long. Elsewhere (Node, a
 * hidden tab) it is a microtask. A person's action publishes at once; one that starts work (a build's POST) publishes
 * first, in a task of its own where frames run (`publishThen`). A stream's change never publishes in the middle of a
 * slice of events.
 */

/** Schedules a callback for the next frame and returns its cancel. */
export type ScheduleFlush = (flush: () => void) => () => void;

/** When a change publishes: at once, at the end of the running task's synchronous work, or in the next frame. */
export type PublishTiming = 'now' | 'soon' | 'frame';

/** The batcher of one store. */
export interface FrameBatcher {
  /**
   * Asks for a publish: `now`; `soon`, once the running code has ended (where frames run, in a new task; else in a
   * microtask: a slice of a stream's events ends first, so what it applied after the request publishes with it), or
   * with the next frame if one was already published since the last frame; or in the next frame (one frame serves
   * every request before it).
   */
  request(timing: PublishTiming): void;
  /** Runs `callback` once what is pending has been published (at once if nothing is). */
  afterPublish(callback: () => void): void;
  /**
   * Publishes a person's action, then runs `then` (the work it starts): where frames run, the publish comes in a task
   * of its own and `then` in the task after it, so the action's task, the render of its publish and the work it
   * starts are three tasks instead of one three times as long; elsewhere both at once.
   */
  publishThen(then: () => void): void;
  /** Publishes what waits for a frame now (the page was hidden: no frame will come until it is shown). */
  flush(): void;
  /** Cancels the pending frame and runs what waited for a publish; nothing is published afterwards. */
  stop(): void;
}

/** Creates a batcher over the store's `publish` and its test of pending changes. */
export function createFrameBatcher(options: {
  scheduleFlush: ScheduleFlush;
  publish: () => void;
  hasPending: () => boolean;
  /** Whether frames run now (a visible page): only then may an urgent change wait for one. */
  framesRun: () => boolean;
  /** Resolves in a new task: where frames run, an urgent change publishes there. */
  yieldTask: () => Promise<void>;
}): FrameBatcher {
  let cancelFrame: (() => void) | undefined;
  let stopped = false;
  let soonQueued = false;
  // A publish since the last frame: an urgent change after it waits for the next frame (one commit per frame).
  let publishedSinceFrame = false;
  const waiting: (() => void)[] = [];

  const runWaiting = () => {
    for (const callback of waiting.splice(0)) callback();
  };
  const awaitFrame = () => {
    cancelFrame ??= options.scheduleFlush(onFrame);
  };

  function publish(): void {
    if (!stopped && options.hasPending()) {
      options.publish();
      // Where frames run, the next one ends this frame's turn, whether or not it has anything to publish. A frame
      // already asked for is asked for again: its callback may have run with its publish task still to come (other
      // tasks go first), and that task would publish a second time with no frame between.
      if (options.framesRun()) {
        publishedSinceFrame = true;
        cancelFrame?.();
        cancelFrame = undefined;
        awaitFrame();
      }
    }
    runWaiting();
  }

  function publishSoon(): void {
    soonQueued = false;
    if (publishedSinceFrame && !stopped && options.framesRun()) awaitFrame();
    else publish();
  }

  function onFrame(): void {
    cancelFrame = undefined;
    publishedSinceFrame = false;
    // An urgent publish since the request may have taken everything already: then it only runs what waited.
    publish();
  }

  return {
    request(timing) {
      if (stopped) return;
      if (timing === 'now') publish();
      else if (timing === 'soon') {
        if (soonQueued) return;
        soonQueued = true;
        if (options.framesRun()) void options.yieldTask().then(publishSoon);
        else queueMicrotask(publishSoon);
      } else awaitFrame();
    },
    afterPublish(callback) {
      if (stopped || !options.hasPending()) callback();
      else waiting.push(callback);
    },
    publishThen(then) {
      if (stopped || !options.framesRun()) {
        publish();
        then();
        return;
      }
      // The render of the publish runs in the publish's task (React renders a store's change before it ends).
      waiting.push(() => void options.yieldTask().then(then));
      void options.yieldTask().then(publish);
    },
    flush() {
      if (stopped) return;
      cancelFrame?.();
      onFrame();
    },
    stop() {
      stopped = true;
      cancelFrame?.();
      cancelFrame = undefined;
      runWaiting();
    },
  };
}
