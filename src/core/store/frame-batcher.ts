/**
 * Frame batching of store notifications: changes from a stream publish in the next frame, at most once per frame;
 * what changes the picture (a new status, the project named, the end) publishes as soon as the code that applied it
 * yields (a microtask: the slice of events it came in, so the rest of that slice publishes with it, in the same
 * React render), and a person's action at once. A stream's change never publishes in the middle of a slice of
 * events: the hooks' subscribers render at the end of the task that published, so a publish there would add a whole
 * React render to the slice's task.
 */

/** Schedules a callback for the next frame and returns its cancel. */
export type ScheduleFlush = (flush: () => void) => () => void;

/** When a change publishes: at once, at the end of the running task's synchronous work, or in the next frame. */
export type PublishTiming = 'now' | 'soon' | 'frame';

/** The batcher of one store. */
export interface FrameBatcher {
  /**
   * Asks for a publish: `now`; `soon`, when the running code yields (a microtask: a slice of a stream's events ends
   * first, so what it applied after the request publishes with it, before React renders); or in the next frame (one
   * frame serves every request before it).
   */
  request(timing: PublishTiming): void;
  /** Cancels the pending frame; nothing is published afterwards. */
  stop(): void;
}

/** Creates a batcher over the store's `publish` and its test of pending changes. */
export function createFrameBatcher(options: {
  scheduleFlush: ScheduleFlush;
  publish: () => void;
  hasPending: () => boolean;
}): FrameBatcher {
  let cancelFrame: (() => void) | undefined;
  let stopped = false;
  let soonQueued = false;

  function publishSoon(): void {
    soonQueued = false;
    if (!stopped && options.hasPending()) options.publish();
  }

  function onFrame(): void {
    cancelFrame = undefined;
    // An urgent publish since the request may have taken everything already.
    if (!stopped && options.hasPending()) options.publish();
  }

  return {
    request(timing) {
      if (stopped) return;
      if (timing === 'now') options.publish();
      else if (timing === 'soon') {
        if (!soonQueued) queueMicrotask(publishSoon);
        soonQueued = true;
      } else cancelFrame ??= options.scheduleFlush(onFrame);
    },
    stop() {
      stopped = true;
      cancelFrame?.();
      cancelFrame = undefined;
    },
  };
}
