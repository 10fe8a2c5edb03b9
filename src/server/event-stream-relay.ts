/**
 * Relays an upstream SSE body to the browser chunk by chunk: the bytes go out exactly as they came in,
 * and a byte-level scanner beside them only tracks event boundaries (for heartbeats) and, while asked
 * to, hands complete event data to an inspector before the chunk that completes it is sent.
 */

/** Timers the relay uses; injected so tests control them. */
export interface RelayTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** Options of `relayEventStream`. */
export interface EventStreamRelayOptions {
  /** A comment `: ping` is sent after this long without upstream bytes, only at an event boundary; 0 turns it off. */
  heartbeatMs: number;
  timers: RelayTimers;
  /** Aborted when the browser goes away (the request's signal). */
  signal?: AbortSignal;
  /** Whether complete events should still be handed to `inspect` (checked per chunk, so it can stop early). */
  wantsEvents?(): boolean;
  /** Sees the data of each complete event while wanted; awaited before the chunk goes to the browser. */
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

const LF = 0x0a;
const CR = 0x0d;
const COLON = 0x3a;
const heartbeat = new TextEncoder().encode(': ping\n\n');

/** Tracks SSE line and event boundaries over raw bytes, collecting `data:` values only when asked. */
function createBoundaryScanner() {
  const decoder = new TextDecoder();
  let lineLength = 0;
  let firstByte = -1;
  let afterCR = false;
  // Fields seen since the last blank line: a heartbeat there would end an event early.
  let fieldsPending = false;
  let parts: Uint8Array[] = [];
  let dataLines: string[] = [];

  function endLine(collect: boolean, completed: string[]) {
    if (lineLength === 0) {
      if (collect && dataLines.length > 0) completed.push(dataLines.join('\n'));
      dataLines = [];
      fieldsPending = false;
    } else if (firstByte !== COLON) {
      fieldsPending = true;
      if (collect) {
        const line = decoder.decode(concat(parts));
        if (line.startsWith('data:')) dataLines.push(line.slice(line.startsWith('data: ') ? 6 : 5));
      }
    }
    lineLength = 0;
    firstByte = -1;
    parts = [];
  }

  return {
    /** Scans a chunk; returns the data of every event it completed (only when `collect`). */
    push(chunk: Uint8Array, collect: boolean): string[] {
      const completed: string[] = [];
      let lineStart = 0;
      for (let index = 0; index < chunk.length; index++) {
        const byte = chunk[index] as number;
        if (afterCR) {
          afterCR = false;
          if (byte === LF) {
            lineStart = index + 1;
            continue;
          }
        }
        if (byte === LF || byte === CR) {
          if (collect) parts.push(chunk.subarray(lineStart, index));
          endLine(collect, completed);
          afterCR = byte === CR;
          lineStart = index + 1;
        } else {
          if (lineLength === 0) firstByte = byte;
          lineLength++;
        }
      }
      if (collect && lineStart < chunk.length) parts.push(chunk.slice(lineStart));
      if (!collect) {
        parts = [];
        dataLines = [];
      }
      return completed;
    },
    /** Whether the bytes so far end between two events. */
    atBoundary(): boolean {
      return lineLength === 0 && !fieldsPending && !afterCR;
    },
  };
}

function concat(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0] as Uint8Array;
  const total = parts.reduce((sum, part) => sum + part.length, 0);
  const joined = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.length;
  }
  return joined;
}

/**
 * Starts relaying at once. The upstream is read to its end even after the browser has gone: the
 * generation goes on upstream regardless (and is paid for), and its events must still be inspected.
 */
export function relayEventStream(
  upstream: ReadableStream<Uint8Array>,
  options: EventStreamRelayOptions,
): EventStreamRelay {
  const reader = upstream.getReader();
  const scanner = createBoundaryScanner();
  let browser: ReadableStreamDefaultController<Uint8Array> | undefined;
  let browserOpen = true;
  let sentAtBoundary = true;
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
      if (sentAtBoundary) send(heartbeat);
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
        const collect = options.inspect !== undefined && (options.wantsEvents?.() ?? true);
        const events = scanner.push(value, collect);
        for (const data of events) await options.inspect?.(data);
        send(value);
        sentAtBoundary = scanner.atBoundary();
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
