/**
 * Cuts an upstream SSE body into whole events, once, for every part of the relay: the recorder numbers and
 * stores them, the idle deadline counts them, the relay sends them with heartbeats in between. A browser
 * acts on an event only at its blank line, so sending whole events delays nothing it could use, and lets
 * each event be redacted before anyone sees it. Bytes pass unchanged unless redaction rewrote the data.
 */

/** One event as the upstream sent it (comments included), up to and including its blank line's end. */
export interface SseFrame {
  bytes: Uint8Array;
  /** Where the blank line starts: an `id:` line goes here. */
  fieldsEnd: number;
  /** The event's data (its `data:` lines joined by LF), or undefined for a comment or an event without data. */
  data: string | undefined;
}

/** An event larger than this (no blank line for 16 MiB) fails the stream rather than growing without bound. */
export const maxEventBytes = 16 * 1024 * 1024;

const LF = 0x0a;
const CR = 0x0d;
const encoder = new TextEncoder();

function concat(parts: Uint8Array[], total: number): Uint8Array {
  if (parts.length === 1) return parts[0] as Uint8Array;
  const joined = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.length;
  }
  return joined;
}

/** Splits SSE bytes into frames; `redact` sees each event's data and may return it changed. */
export function frameEventStream(
  upstream: ReadableStream<Uint8Array>,
  redact: (data: string) => string = (data) => data,
): ReadableStream<SseFrame> {
  const decoder = new TextDecoder();
  // The current event's bytes not yet sent, and the current line's bytes (for `data:` lines).
  let eventParts: Uint8Array[] = [];
  let eventBytes = 0;
  let lineParts: Uint8Array[] = [];
  let lineBytes = 0;
  let afterCR = false;
  let dataLines: string[] = [];

  const frameOf = (bytes: Uint8Array, fieldsEnd: number): SseFrame => {
    if (dataLines.length === 0) return { bytes, fieldsEnd, data: undefined };
    const data = dataLines.join('\n');
    const clean = redact(data);
    if (clean === data) return { bytes, fieldsEnd, data };
    const fields = clean
      .split('\n')
      .map((line) => `data: ${line}\n`)
      .join('');
    return { bytes: encoder.encode(`${fields}\n`), fieldsEnd: fields.length, data: clean };
  };

  const split = new TransformStream<Uint8Array, SseFrame>({
    transform(chunk, controller) {
      let eventStart = 0;
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
        if (byte !== LF && byte !== CR) continue;
        afterCR = byte === CR;
        const lineLength = lineBytes + index - lineStart;
        if (lineLength === 0) {
          // A blank line: the event ends with this byte.
          const tail = chunk.subarray(eventStart, index + 1);
          const fieldsEnd = eventBytes + index - eventStart;
          controller.enqueue(frameOf(concat([...eventParts, tail], eventBytes + tail.length), fieldsEnd));
          eventParts = [];
          eventBytes = 0;
          eventStart = index + 1;
          dataLines = [];
        } else if (lineLength >= 5) {
          lineParts.push(chunk.subarray(lineStart, index));
          const line = decoder.decode(concat(lineParts, lineLength));
          if (line.startsWith('data:')) dataLines.push(line.slice(line.startsWith('data: ') ? 6 : 5));
        }
        lineParts = [];
        lineBytes = 0;
        lineStart = index + 1;
      }
      if (eventStart < chunk.length) {
        // A copy, since the event waits for later chunks; the line in progress is a view of it.
        const rest = chunk.slice(eventStart);
        eventParts.push(rest);
        eventBytes += rest.length;
        if (eventBytes > maxEventBytes) throw new Error(`an upstream event exceeded ${maxEventBytes} bytes`);
        if (lineStart < chunk.length) {
          lineParts.push(rest.subarray(lineStart - eventStart));
          lineBytes += chunk.length - lineStart;
        }
      }
    },
    flush(controller) {
      // An unfinished event at the end: no browser would act on it, but its bytes still pass.
      if (eventBytes > 0)
        controller.enqueue({ bytes: concat(eventParts, eventBytes), fieldsEnd: eventBytes, data: undefined });
    },
  });
  return upstream.pipeThrough(split);
}
