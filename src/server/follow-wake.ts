/**
 * How a follower of a project's events waits for the next ones: woken by the store when something is
 * recorded (on any instance), with a timeout as a safety net for a lost wake-up.
 */
import type { RelayTimers } from './event-stream-relay.js';

/** A follower's wake-up: `notify` from the store's watch, `wait` in the follow loop. */
export interface FollowWake {
  notify(): void;
  /** Resolves at once if notified since the last wait (or never waited), else on notify, timeout or abort. */
  wait(timeoutMs: number, signal: AbortSignal): Promise<void>;
}

/** Creates a wake-up; it starts notified, so the first wait re-reads what was recorded before the watch began. */
export function createFollowWake(timers: RelayTimers): FollowWake {
  let notified = true;
  let waiting: (() => void) | undefined;
  return {
    notify() {
      if (waiting === undefined) notified = true;
      else waiting();
    },
    wait(timeoutMs, signal) {
      if (notified || signal.aborted) {
        notified = false;
        return Promise.resolve();
      }
      return new Promise((resolve) => {
        const done = () => {
          timers.clearTimeout(handle);
          signal.removeEventListener('abort', done);
          waiting = undefined;
          resolve();
        };
        const handle = timers.setTimeout(done, timeoutMs);
        signal.addEventListener('abort', done, { once: true });
        waiting = done;
      });
    },
  };
}
