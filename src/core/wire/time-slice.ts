/**
 * Time slicing of stream ingestion: events are applied in slices of a few milliseconds, and in a browser the
 * main thread is handed back between slices, so a burst of thousands of buffered events (the in-browser
 * mock, a replay of a whole build, a fast proxy) never becomes one long task. Outside a browser nothing
 * waits for a page to paint, so the same loop runs without yielding (and without reading a clock).
 */

/** How an event stream shares the thread it runs on; inject both to test the slicing deterministically. */
export interface StreamSlicing {
  /** The clock of the slice's deadline, in milliseconds. */
  now(): number;
  /** Resolves in a new task, after the browser has had its turn (rendering, input). */
  yieldTask(): Promise<void>;
}

/** Work done before the thread is handed back, in milliseconds, and how many events pass between clock reads. */
export const sliceMs = 8;
export const eventsPerCheck = 32;

/** Resolves in a new task: `scheduler.yield()` where it exists (it keeps the task's priority), else a message. */
export function yieldToBrowser(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  // A message is a new task that is not clamped to 4 ms as nested timeouts are.
  return new Promise((resolve) => {
    const { port1, port2 } = new MessageChannel();
    port1.onmessage = () => {
      port1.close();
      resolve();
    };
    port2.postMessage(0);
  });
}

/** In a page's main thread: the platform's clock and `yieldToBrowser`; elsewhere (Node, workers) no slicing. */
export function defaultStreamSlicing(): StreamSlicing | undefined {
  const inPage = typeof document === 'object' && typeof window === 'object' && typeof MessageChannel === 'function';
  return inPage ? { now: () => performance.now(), yieldTask: yieldToBrowser } : undefined;
}
