/**
 * Relays upstream events to the browser one by one as they complete, with a heartbeat comment between
 * them while the upstream is quiet, and, while asked to, hands each event's data to an inspector before
 * the event is sent.
 */
import { frameEventStream, type SseFrame } from './sse-frames.js';

/** Timers the relay uses; injected so tests control them. */
export interface RelayTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** Options of `relayEventStream`. */
export interface EventStreamRelayOptions {
  /** A comment `: ping` is sent after this long without an upstream event; 0 turns it off. */
  heartbeatMs: number;
  timers: RelayTimers;
  /** Aborted when the browser goes away (the request's signal). */
  signal?: AbortSignal;
  /** Whether events should still be handed to `inspect` (checked per event, so it can stop early). */
  wantsEvents?(): boolean;
  /** Sees the data of each event while wanted; awaited before the event goes to the browser. */
  inspect?(data: string): void | Promise<void>;
  /** The browser went away while the upstream stream was still open (called once). */
  onBrowserGone?(): void;
}

/** How the relay ended, for logs. */
export interface RelayOutcome {
  /** The upstream stream reached its end (rather than failing). */
  upstreamCompleted: boolean;
  /** The browser went away before the upstream ended. */
  browserDisconnected: boolean;
  error?: unknown;
}

/** The body to send to the browser, and a promise of how the relay ended (it never rejects). */
export interface EventStreamRelay {
  body: ReadableStream<Uint8Array>;
  done: Promise<RelayOutcome>;
}

const heartbeat = new TextEncoder().encode(': ping\n\n');

/** Relays an upstream SSE body (bytes) to the browser, as `relayEvents` does with its events. */
export function relayEventStream(
  upstream: ReadableStream<Uint8Array>,
  options: EventStreamRelayOptions,
): EventStreamRelay {
  return relayEvents(frameEventStream(upstream), options);
}

/**
 * Starts relaying at once. The upstream is read to its end even after the browser has gone: the
 * generation goes on upstream regardless (and is paid for), and its events must still be inspected.
 */
export function relayEvents(upstream: ReadableStream<SseFrame>, options: EventStreamRelayOptions): EventStreamRelay {
  const reader = upstream.getReader();
  let browser: ReadableStreamDefaultController<Uint8Array> | undefined;
  let browserOpen = true;
  let timer: unknown;
  let upstreamOpen = true;

  const stopHeartbeat = () => {
    if (timer !== undefined) options.timers.clearTimeout(timer);
    timer = undefined;
  };
  const armHeartbeat = () => {
    stopHeartbeat();
    if (options.heartbeatMs <= 0 || !browserOpen) return;
    timer = options.timers.setTimeout(() => {
      timer = undefined;
      send(heartbeat);
      armHeartbeat();
    }, options.heartbeatMs);
  };
  const detach = () => {
    const wasOpen = browserOpen;
    browserOpen = false;
    stopHeartbeat();
    if (wasOpen && upstreamOpen) options.onBrowserGone?.();
  };
  const send = (bytes: Uint8Array) => {
    if (!browserOpen || browser === undefined) return;
    try {
      browser.enqueue(bytes);
    } catch {
      detach();
    }
  };
  const onAbort = () => {
    detach();
    try {
      browser?.close();
    } catch {
      // Already closed or cancelled by the browser side.
    }
  };

  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      browser = controller;
    },
    cancel() {
      detach();
    },
  });
  if (options.signal?.aborted) onAbort();
  else options.signal?.addEventListener('abort', onAbort, { once: true });

  const pump = async (): Promise<RelayOutcome> => {
    armHeartbeat();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) {
          upstreamOpen = false;
          break;
        }
        if (value.data !== undefined && (options.wantsEvents?.() ?? true)) await options.inspect?.(value.data);
        send(value.bytes);
        armHeartbeat();
      }
      const browserDisconnected = !browserOpen;
      detach();
      try {
        browser?.close();
      } catch {
        // The browser side was cancelled meanwhile.
      }
      return { upstreamCompleted: true, browserDisconnected };
    } catch (error) {
      upstreamOpen = false;
      const browserDisconnected = !browserOpen;
      detach();
      try {
        // Closing (not erroring) keeps the events already queued for the browser: an error would discard
        // them. The browser's client reads a close without a terminal event as interrupted and recovers.
        browser?.close();
      } catch {
        // The browser side was cancelled meanwhile.
      }
      return { upstreamCompleted: false, browserDisconnected, error };
    } finally {
      options.signal?.removeEventListener('abort', onAbort);
    }
  };

  return { body, done: pump() };
}
