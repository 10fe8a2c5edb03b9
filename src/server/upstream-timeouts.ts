/**
 * Deadlines on the upstream side of the proxy: how long the Agent API may take to send response headers,
 * and how long a relayed event stream may stay silent before the proxy gives up on it.
 */
import type { RelayTimers } from './event-stream-relay.js';

/** Default time to upstream response headers. */
export const defaultHeadersTimeoutMs = 30_000;
/** Default time a relayed upstream stream may send no complete event (its own comments count). */
export const defaultIdleTimeoutMs = 120_000;

/** What a fetch under a headers deadline gave. */
export type DeadlineFetchResult =
  { kind: 'response'; response: Response } | { kind: 'timeout' } | { kind: 'unreachable'; error: unknown };

/**
 * Fetches with a deadline on the response headers only: once they arrive, the body may take as long as the
 * idle deadline allows. A timed-out request is aborted, so the upstream sees it cancelled; never retried.
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
  const handle =
    timeoutMs > 0
      ? timers.setTimeout(() => {
          timedOut = true;
          controller.abort(new Error(`no upstream response headers within ${timeoutMs} ms`));
        }, timeoutMs)
      : undefined;
  try {
    const response = await fetchImpl(url, { ...init, signal: controller.signal });
    if (timedOut) {
      await response.body?.cancel().catch(() => undefined);
      return { kind: 'timeout' };
    }
    return { kind: 'response', response };
  } catch (error) {
    return timedOut ? { kind: 'timeout' } : { kind: 'unreachable', error };
  } finally {
    if (handle !== undefined) timers.clearTimeout(handle);
  }
}

/** An upstream stream under an idle deadline, and a way to end it early (a drain). */
export interface LimitedUpstream<T> {
  body: ReadableStream<T>;
  /** Cancels the upstream read and closes `body` cleanly, as the idle deadline does. */
  stop(): void;
}

/**
 * Wraps an upstream stream (of whole events) so that `idleMs` without one ends it: the upstream read is
 * cancelled and the wrapped stream closes cleanly (no terminal event, so the browser sees an interruption).
 * An upstream dripping bytes that never complete an event is idle too; the proxy's own heartbeats never
 * reach this wrapper. `idleMs` 0: no deadline.
 */
export function withIdleDeadline<T>(
  upstream: ReadableStream<T>,
  idleMs: number,
  timers: RelayTimers,
  onIdle: () => void,
): LimitedUpstream<T> {
  const reader = upstream.getReader();
  let handle: unknown;
  let stopped = false;
  let wake: (() => void) | undefined;
  const disarm = () => {
    if (handle !== undefined) timers.clearTimeout(handle);
    handle = undefined;
  };
  const stop = (reason: string) => {
    if (stopped) return;
    stopped = true;
    disarm();
    reader.cancel(new Error(reason)).catch(() => undefined);
    wake?.();
  };
  const arm = () => {
    disarm();
    if (idleMs <= 0 || stopped) return;
    handle = timers.setTimeout(() => {
      onIdle();
      stop(`upstream idle for ${idleMs} ms`);
    }, idleMs);
  };
  const body = new ReadableStream<T>({
    start() {
      arm();
    },
    async pull(controller) {
      // A cancelled read may not settle on every runtime, so stopping also wakes the pull itself.
      const woken = new Promise<'stopped'>((resolve) => (wake = () => resolve('stopped')));
      const result = await Promise.race([reader.read(), woken]).catch((error: unknown) => {
        if (stopped) return 'stopped' as const;
        disarm();
        throw error;
      });
      wake = undefined;
      if (result === 'stopped' || stopped || result.done) {
        disarm();
        controller.close();
        return;
      }
      arm();
      controller.enqueue(result.value);
    },
    cancel(reason) {
      stopped = true;
      disarm();
      return reader.cancel(reason);
    },
  });
  return { body, stop: () => stop('proxy draining') };
}
