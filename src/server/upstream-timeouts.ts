/**
 * Deadlines on the upstream side of the proxy: how long the Agent API may take to send response headers,
 * how long a relayed event stream may stay silent, and how long it may run in all, before the proxy gives up on it.
 */
import type { RelayTimers } from './event-stream-relay.js';

/** Default time to upstream response headers. */
export const defaultHeadersTimeoutMs = 30_000;
/** Default time a relayed upstream stream may send no event with data (its comments do not count). */
export const defaultIdleTimeoutMs = 120_000;
/** Default time a relayed upstream stream may run in all: an upstream sending an event now and then never ends. */
export const defaultStreamTimeoutMs = 3_600_000;

/** What a fetch under a headers deadline gave. */
export type DeadlineFetchResult =
  { kind: 'response'; response: Response } | { kind: 'timeout' } | { kind: 'unreachable'; error: unknown };

/**
 * Fetches with a deadline on the response headers only: once they arrive, the body may take as long as the
 * idle deadline allows. A timed-out request is aborted, so the upstream sees it cancelled; never retried. The
 * deadline holds even for a `fetch` that ignores its signal (an agency's own): its late answer is cancelled unread.
 */
export async function fetchWithHeadersDeadline(
  fetchImpl: typeof fetch,
  url: URL,
  init: RequestInit,
  timeoutMs: number,
  timers: RelayTimers,
): Promise<DeadlineFetchResult> {
  const controller = new AbortController();
  let timedOut = false;
  let handle: unknown;
  const deadline = new Promise<DeadlineFetchResult>((resolve) => {
    if (timeoutMs <= 0) return;
    handle = timers.setTimeout(() => {
      timedOut = true;
      controller.abort(new Error(`no upstream response headers within ${timeoutMs} ms`));
      resolve({ kind: 'timeout' });
    }, timeoutMs);
  });
  const fetched = (async (): Promise<DeadlineFetchResult> => {
    try {
      const response = await fetchImpl(url, { ...init, signal: controller.signal });
      if (timedOut) {
        await response.body?.cancel().catch(() => undefined);
        return { kind: 'timeout' };
      }
      return { kind: 'response', response };
    } catch (error) {
      return timedOut ? { kind: 'timeout' } : { kind: 'unreachable', error };
    }
  })();
  try {
    return await Promise.race([fetched, deadline]);
  } finally {
    if (handle !== undefined) timers.clearTimeout(handle);
  }
}

/** An upstream stream under its deadlines, and a way to end it early (a drain). */
export interface LimitedUpstream<T> {
  body: ReadableStream<T>;
  /** Cancels the upstream read and closes `body` cleanly, as a deadline does. */
  stop(): void;
}

/** The deadlines of a relayed stream; 0 turns one off. */
export interface StreamDeadlines {
  /** Longest time without a whole event. */
  idleMs: number;
  /** Longest time in all, from the first read. */
  totalMs: number;
}

/**
 * Wraps an upstream stream (of whole events) so that `idleMs` without one, or `totalMs` in all, ends it: the
 * upstream read is cancelled and the wrapped stream closes cleanly (no terminal event, so the browser sees an
 * interruption and recovers). An upstream dripping bytes that never complete an event is idle too; the proxy's
 * own heartbeats never reach this wrapper.
 */
export function withStreamDeadlines<T>(
  upstream: ReadableStream<T>,
  deadlines: StreamDeadlines,
  clock: { timers: RelayTimers; now(): number },
  onTimeout: (deadline: keyof StreamDeadlines) => void,
): LimitedUpstream<T> {
  const { timers, now } = clock;
  const reader = upstream.getReader();
  let idleHandle: unknown;
  let totalHandle: unknown;
  let lastEventAt = now();
  let stopped = false;
  let output: ReadableStreamDefaultController<T> | undefined;
  const disarmAll = () => {
    if (idleHandle !== undefined) timers.clearTimeout(idleHandle);
    if (totalHandle !== undefined) timers.clearTimeout(totalHandle);
    idleHandle = totalHandle = undefined;
  };
  const stop = (reason: string) => {
    if (stopped) return;
    stopped = true;
    disarmAll();
    reader.cancel(new Error(reason)).catch(() => undefined);
    // Closed here, not by the pending read: a cancelled read may not settle on every runtime.
    try {
      output?.close();
    } catch {
      // Already closed or cancelled by its reader.
    }
  };
  const timeout = (deadline: keyof StreamDeadlines) => {
    if (stopped) return;
    onTimeout(deadline);
    stop(`upstream ${deadline === 'idleMs' ? 'idle' : 'open'} for ${deadlines[deadline]} ms`);
  };
  // One idle timer at a time, not one per event (a burst relays thousands): an event only notes its time, and
  // the timer, when it fires, waits out what is left of the limit since the last one.
  const armIdle = (ms: number) => {
    idleHandle = timers.setTimeout(() => {
      const quiet = now() - lastEventAt;
      if (quiet >= deadlines.idleMs) timeout('idleMs');
      else if (!stopped) armIdle(deadlines.idleMs - quiet);
    }, ms);
  };
  const body = new ReadableStream<T>({
    start(controller) {
      output = controller;
      if (deadlines.idleMs > 0) armIdle(deadlines.idleMs);
      if (deadlines.totalMs > 0) totalHandle = timers.setTimeout(() => timeout('totalMs'), deadlines.totalMs);
    },
    async pull(controller) {
      let result: ReadableStreamReadResult<T>;
      try {
        result = await reader.read();
      } catch (error) {
        if (stopped) return;
        disarmAll();
        throw error;
      }
      if (stopped) return;
      if (result.done) {
        disarmAll();
        controller.close();
        return;
      }
      lastEventAt = now();
      controller.enqueue(result.value);
    },
    cancel(reason) {
      stopped = true;
      disarmAll();
      return reader.cancel(reason);
    },
  });
  return { body, stop: () => stop('proxy draining') };
}
