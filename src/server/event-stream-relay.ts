/**
 * Relays events to the browser one by one as they complete, re-emitted from their parsed data (never the
 * upstream's bytes), with a heartbeat comment between them while the upstream is quiet. A browser that reads
 * slowly holds at most a bounded buffer: the relay waits for it to make room, and drops it with a resumable
 * close when it stays behind (it resumes from its `Last-Event-ID` through the events route).
 */
import { createSlicer, type StreamSlicing } from '../core/index.js';
import { relayedEvent } from './event-shapes.js';
import { parseUpstreamEvents } from './upstream-events.js';

/** Timers the relay uses; injected so tests control them. */
export interface RelayTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** One event on its way to the browser: its data, and the proxy's SSE id when it has one. */
export interface RelayedEvent {
  id?: number;
  data: string;
}

/** Default most bytes queued for one browser before the relay waits for it. */
export const defaultMaxBufferedBytes = 1024 * 1024;
/** Default longest wait for a browser to make room before it is dropped with a resumable close. */
export const defaultSlowReaderMs = 10_000;
/** The log's reason for a browser dropped for reading too slowly (`slow_reader`), on every route that relays. */
export const slowReaderReason = 'the browser read too slowly; closed for it to resume';

/** Options of `relayEventStream`. */
export interface EventStreamRelayOptions {
  /**
   * A comment `: ping` is sent at the end of each period of this long in which no event was sent (so after between
   * one and two periods of quiet); 0 turns it off.
   */
  heartbeatMs: number;
  timers: RelayTimers;
  /** Aborted when the browser goes away (the request's signal). */
  signal?: AbortSignal;
  /** The browser went away while the upstream stream was still open (called once). */
  onBrowserGone?(): void;
  /** Most bytes queued for a browser that reads slowly (default 1 MiB). */
  maxBufferedBytes?: number;
  /** How long a full buffer may wait for the browser before it is dropped (default 10 s; 0: never dropped). */
  slowReaderMs?: number;
  /** The browser was dropped for reading too slowly (called once). */
  onSlowReader?(): void;
  /**
   * Hands the thread back every few milliseconds of relaying (a proxy in a page's main thread: the in-browser
   * mock), so a burst is never one long task; without it (Node) events are relayed without a pause.
   */
  slicing?: StreamSlicing | undefined;
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

const encoder = new TextEncoder();
/** The heartbeat comment, the only bytes of the proxy's own between events. */
export const heartbeatBytes = encoder.encode(': ping\n\n');

/** One event as SSE: the proxy's `id:` line, then its data line by line. */
export function encodeEvent(event: RelayedEvent): Uint8Array {
  const id = event.id === undefined ? '' : `id: ${event.id}\n`;
  return encoder.encode(`${id}data: ${event.data.split('\n').join('\ndata: ')}\n\n`);
}

/** The headers of every event stream the proxy sends (a fixed set: nothing of the upstream's). */
export function eventStreamHeaders(): Headers {
  return new Headers({
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache, no-transform',
    'x-accel-buffering': 'no',
    'x-content-type-options': 'nosniff',
  });
}

/**
 * Relays an upstream SSE body (bytes): each event is rebuilt from its type's allow-list (`relayedEvent`; data that is
 * not a JSON object is dropped) and re-emitted, as `relayEvents` does. The proxy's own routes also redact the token.
 */
export function relayEventStream(
  upstream: ReadableStream<Uint8Array>,
  options: EventStreamRelayOptions,
): EventStreamRelay {
  const reader = parseUpstreamEvents(upstream, (data) => relayedEvent(data, (text) => text)?.data).getReader();
  // Pulled like the parse, so an upstream drop loses none of the events read before it.
  const events = new ReadableStream<RelayedEvent>(
    {
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue({ data: value });
      },
      cancel: (reason) => reader.cancel(reason),
    },
    { highWaterMark: 0 },
  );
  return relayEvents(events, options);
}

/**
 * Starts relaying at once. The upstream is read to its end even after the browser has gone: the
 * generation goes on upstream regardless (and is paid for), and its events must still be inspected.
 */
export function relayEvents(
  upstream: ReadableStream<RelayedEvent>,
  options: EventStreamRelayOptions,
): EventStreamRelay {
  const reader = upstream.getReader();
  const maxBufferedBytes = options.maxBufferedBytes ?? defaultMaxBufferedBytes;
  const slowReaderMs = options.slowReaderMs ?? defaultSlowReaderMs;
  let browser: ReadableStreamDefaultController<Uint8Array> | undefined;
  let browserOpen = true;
  let timer: unknown;
  let upstreamOpen = true;
  let roomMade: (() => void) | undefined;

  // Whether an event went out in the heartbeat's current period: one timer runs for the whole stream and an event
  // only sets this flag (re-arming a timer per event cost a tenth of the in-browser burst's main thread).
  let sentThisPeriod = false;
  const stopHeartbeat = () => {
    if (timer !== undefined) options.timers.clearTimeout(timer);
    timer = undefined;
  };
  const armHeartbeat = () => {
    if (timer !== undefined || options.heartbeatMs <= 0 || !browserOpen) return;
    timer = options.timers.setTimeout(() => {
      timer = undefined;
      // A period with an event needed no ping; a browser with a full buffer has had no use for one.
      if (!sentThisPeriod && hasRoom()) send(heartbeatBytes);
      sentThisPeriod = false;
      armHeartbeat();
    }, options.heartbeatMs);
  };
  const detach = () => {
    const wasOpen = browserOpen;
    browserOpen = false;
    stopHeartbeat();
    roomMade?.();
    if (wasOpen && upstreamOpen) options.onBrowserGone?.();
  };
  const closeBrowser = () => {
    try {
      // Closing (not erroring) keeps the events already queued for the browser: an error would discard
      // them. The browser's client reads a close without a terminal event as interrupted and resumes.
      browser?.close();
    } catch {
      // Already closed or cancelled by the browser side.
    }
  };
  const send = (bytes: Uint8Array) => {
    if (!browserOpen || browser === undefined) return;
    try {
      browser.enqueue(bytes);
    } catch {
      detach();
    }
  };
  const hasRoom = () => (browser?.desiredSize ?? 1) > 0;
  /** Waits until the browser has read enough to make room; drops it if it does not within `slowReaderMs`. */
  const waitForRoom = async () => {
    if (!browserOpen || hasRoom()) return;
    const made = new Promise<boolean>((resolve) => {
      roomMade = () => resolve(true);
      if (slowReaderMs > 0) {
        const handle = options.timers.setTimeout(() => resolve(false), slowReaderMs);
        roomMade = () => {
          options.timers.clearTimeout(handle);
          resolve(true);
        };
      }
    });
    const inTime = await made;
    roomMade = undefined;
    if (inTime || !browserOpen) return;
    options.onSlowReader?.();
    detach();
    closeBrowser();
  };
  const onAbort = () => {
    detach();
    closeBrowser();
  };

  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        browser = controller;
      },
      pull() {
        roomMade?.();
      },
      cancel() {
        detach();
      },
    },
    { highWaterMark: maxBufferedBytes, size: (chunk) => chunk.byteLength },
  );
  if (options.signal?.aborted) onAbort();
  else options.signal?.addEventListener('abort', onAbort, { once: true });

  const slicer = createSlicer(options.slicing);
  const pump = async (): Promise<RelayOutcome> => {
    armHeartbeat();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) {
          upstreamOpen = false;
          break;
        }
        // Each await costs a promise per event: only what may wait is awaited.
        send(encodeEvent(value));
        sentThisPeriod = true;
        if (browserOpen && !hasRoom()) await waitForRoom();
        if (slicer.due()) await slicer.pause();
      }
      const browserDisconnected = !browserOpen;
      detach();
      closeBrowser();
      return { upstreamCompleted: true, browserDisconnected };
    } catch (error) {
      upstreamOpen = false;
      const browserDisconnected = !browserOpen;
      detach();
      closeBrowser();
      return { upstreamCompleted: false, browserDisconnected, error };
    } finally {
      options.signal?.removeEventListener('abort', onAbort);
    }
  };

  return { body, done: pump() };
}
