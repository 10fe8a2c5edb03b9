/**
 * Everything the store touches in the world (clock, timers, frames, storage, page visibility), with the
 * platform's defaults in this one place, so tests inject fakes and no other module reads a global.
 */
import type { ScheduleFlush } from './frame-batcher.js';
import type { AgentStorage } from './persistence.js';
import { yieldToBrowser } from '../wire/time-slice.js';

/** What the store needs from the platform; every field can be injected through the store's options. */
export interface Platform {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  /** Schedules a flush for the next frame (by default in the task right after it) and returns its cancel. */
  scheduleFlush: ScheduleFlush;
  /**
   * Resolves in a new task, after the browser has had its turn: where frames run, a change that cannot wait for the
   * next frame (a new status, the end) publishes there, so that React's render is a task of its own, not part of the
   * slice of events that made the change. By default `yieldToBrowser`.
   */
  yieldTask(): Promise<void>;
  /** Whether the page is hidden; polling pauses meanwhile. */
  isHidden(): boolean;
  /**
   * Whether animation frames run now, so an urgent change may wait for the next one: by default in a visible page
   * whose frames the store schedules with requestAnimationFrame (never in Node, a hidden tab or a test's own frames).
   */
  framesRun(): boolean;
  onVisibilityChange(listener: () => void): () => void;
  /** Where the last project is kept; `null` for nowhere. */
  storage: AgentStorage | null;
}

/** The platform options of `createAgentStore`, each replacing one default. */
export type PlatformOptions = Partial<Omit<Platform, 'storage'>> & { storage?: AgentStorage | null };

function hasDocument(): boolean {
  return typeof document !== 'undefined' && typeof document.addEventListener === 'function';
}

/** sessionStorage when the platform has it and allows it, else null. */
export function defaultStorage(): AgentStorage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    // Access can throw (sandboxed iframes, storage disabled).
    return null;
  }
}

/**
 * The platform with the given overrides: the task after the next animation frame (else 16 ms), sessionStorage,
 * `document` visibility.
 */
export function resolvePlatform(options: PlatformOptions): Platform {
  const setTimer = options.setTimeout ?? ((callback: () => void, ms: number) => globalThis.setTimeout(callback, ms));
  const clearTimer =
    options.clearTimeout ??
    ((handle: unknown) => globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>));
  const isHidden = options.isHidden ?? (() => hasDocument() && document.visibilityState === 'hidden');
  const pageFrames = options.scheduleFlush === undefined && typeof requestAnimationFrame === 'function';
  return {
    now: options.now ?? (() => Date.now()),
    setTimeout: setTimer,
    clearTimeout: clearTimer,
    scheduleFlush:
      options.scheduleFlush ??
      ((flush) => {
        if (typeof requestAnimationFrame === 'function' && typeof cancelAnimationFrame === 'function') {
          let cancelled = false;
          // In the task after the frame, not in it: React's render and the browser's style, layout and paint are then
          // two tasks instead of one twice as long; the change shows in the next frame.
          const id = requestAnimationFrame(() => void yieldToBrowser().then(() => cancelled || flush()));
          return () => {
            cancelled = true;
            cancelAnimationFrame(id);
          };
        }
        const handle = setTimer(flush, 16);
        return () => clearTimer(handle);
      }),
    yieldTask: options.yieldTask ?? yieldToBrowser,
    isHidden,
    framesRun: options.framesRun ?? (() => pageFrames && !isHidden()),
    onVisibilityChange:
      options.onVisibilityChange ??
      ((listener) => {
        if (!hasDocument()) return () => {};
        document.addEventListener('visibilitychange', listener);
        return () => document.removeEventListener('visibilitychange', listener);
      }),
    storage: options.storage === undefined ? defaultStorage() : options.storage,
  };
}
