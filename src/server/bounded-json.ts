/**
 * JSON the proxy reads from either side, within bounds: a nesting depth checked on the text before parsing
 * (a deep document overflows the stack of `JSON.stringify`, not of the check), and upstream bodies read as a
 * stream under a size cap, an idle deadline and a total deadline, never buffered whole past the cap.
 */
import type { RelayTimers } from './event-stream-relay.js';

/** Default deepest nesting accepted in a JSON document, both ways. */
export const defaultMaxJsonDepth = 64;
/** Default largest upstream JSON answer, in bytes. */
export const defaultMaxUpstreamBodyBytes = 5 * 1024 * 1024;
/** Default longest pause between two chunks of an upstream JSON answer. */
export const defaultUpstreamBodyIdleMs = 10_000;
/** Default longest time to read a whole upstream JSON answer once its headers have arrived. */
export const defaultUpstreamBodyTotalMs = 30_000;

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Whether a JSON text nests objects and arrays deeper than `maxDepth` (strings are skipped, escapes honoured). */
export function jsonDeeperThan(text: string, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === BACKSLASH) index++;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) inString = true;
    else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      if (++depth > maxDepth) return true;
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) depth--;
  }
  return false;
}

/** Limits of one upstream body read. */
export interface BodyLimits {
  maxBytes: number;
  /** Longest pause between chunks (0: none). */
  idleMs: number;
  /** Longest time for the whole body (0: none). */
  totalMs: number;
  timers: RelayTimers;
}

/** What reading an upstream body gave. */
export type BodyRead =
  | { kind: 'text'; text: string }
  | { kind: 'too_large' }
  | { kind: 'stalled' }
  /** The connection failed before the body ended. */
  | { kind: 'cut' };

/** Reads a body (a request's or a response's) as text within `limits`; the read is cancelled as soon as a limit is passed. */
export async function readBoundedBody(body: ReadableStream<Uint8Array> | null, limits: BodyLimits): Promise<BodyRead> {
  if (body === null) return { kind: 'text', text: '' };
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let size = 0;
  let idleHandle: unknown;
  let totalHandle: unknown;
  let late: (() => void) | undefined;
  const stalled = new Promise<'stalled'>((resolve) => (late = () => resolve('stalled')));
  const armIdle = () => {
    if (idleHandle !== undefined) limits.timers.clearTimeout(idleHandle);
    if (limits.idleMs > 0) idleHandle = limits.timers.setTimeout(() => late?.(), limits.idleMs);
  };
  if (limits.totalMs > 0) totalHandle = limits.timers.setTimeout(() => late?.(), limits.totalMs);
  armIdle();
  const stop = () => void reader.cancel().catch(() => undefined);
  try {
    for (;;) {
      const read = await Promise.race([reader.read(), stalled]).catch(() => 'cut' as const);
      if (read === 'stalled' || read === 'cut') {
        stop();
        return { kind: read };
      }
      if (read.done) break;
      size += read.value.byteLength;
      if (size > limits.maxBytes) {
        stop();
        return { kind: 'too_large' };
      }
      text += decoder.decode(read.value, { stream: true });
      armIdle();
    }
    return { kind: 'text', text: text + decoder.decode() };
  } finally {
    if (idleHandle !== undefined) limits.timers.clearTimeout(idleHandle);
    if (totalHandle !== undefined) limits.timers.clearTimeout(totalHandle);
  }
}
