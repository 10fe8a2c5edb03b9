/**
 * Frame batching of store notifications: the first change publishes at once (leading edge), later ones
 * at most once per scheduled frame, and urgent ones (terminal events, actions) at once.
 */

/** Schedules a callback for the next frame and returns its cancel. */
export type ScheduleFlush = (flush: () => void) => () => void;

/** The batcher of one store. */
export interface FrameBatcher {
  /** Asks for a publish: now if `immediate` or no frame window is open, else at the window's end. */
  request(immediate: boolean): void;
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

  function onFrame(): void {
    cancelFrame = undefined;
    // A frame with nothing new closes the window, so the next change is published at once again.
    if (stopped || !options.hasPending()) return;
    options.publish();
    cancelFrame = options.scheduleFlush(onFrame);
  }

  return {
    request(immediate) {
      if (stopped) return;
      if (immediate) {
        options.publish();
        return;
      }
      if (cancelFrame !== undefined) return;
      options.publish();
      cancelFrame = options.scheduleFlush(onFrame);
    },
    stop() {
      stopped = true;
      cancelFrame?.();
      cancelFrame = undefined;
    },
  };
}
