/**
 * Frame batching of store notifications: changes from a stream publish in the next frame, at most once per
 * frame; urgent ones (terminal events, lifecycle actions) at once. A stream's change never publishes in the
 * middle of a slice of events: the hooks' subscribers render synchronously at the end of the task that
 * published, so a publish there would add a whole React render to the slice's task.
 */

/** Schedules a callback for the next frame and returns its cancel. */
export type ScheduleFlush = (flush: () => void) => () => void;

/** The batcher of one store. */
export interface FrameBatcher {
  /** Asks for a publish: now if `immediate`, else in the next frame (one frame serves every request before it). */
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
    // An urgent publish since the request may have taken everything already.
    if (!stopped && options.hasPending()) options.publish();
  }

  return {
    request(immediate) {
      if (stopped) return;
      if (immediate) options.publish();
      else cancelFrame ??= options.scheduleFlush(onFrame);
    },
    stop() {
      stopped = true;
      cancelFrame?.();
      cancelFrame = undefined;
    },
  };
}
