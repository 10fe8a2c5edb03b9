/**
 * Reads an upstream SSE body into the data of its events, once, for every part of the relay. Only the data
 * goes on: the relay re-emits each event with the proxy's own `id:` line, so comments, `event:`, upstream
 * `id:` and `retry:` lines, unknown fields and an unterminated last event never reach the browser, whatever
 * they carry. Keep-alive events without data are dropped too, so they never count as progress.
 */
import { createParser } from 'eventsource-parser';

/** An event larger than this (16 MiB without a blank line) fails the stream rather than growing without bound. */
export const maxEventChars = 16 * 1024 * 1024;

/**
 * Line endings made LF before the parser reads them: eventsource-parser 3 rescans a chunk holding a CR from every
 * line start, so an upstream's comment lines with one CR per chunk cost it 23 times the time of their bytes. The SSE
 * spec reads CRLF, CR and LF alike, so only the cost changes. A CR that ends a chunk waits for the next one, which
 * may start with its LF; at the end of the stream it ends its line.
 */
function createLineEndings() {
  let heldCR = false;
  return {
    next(text: string): string {
      const joined = heldCR ? `\r${text}` : text;
      heldCR = joined.endsWith('\r');
      if (!joined.includes('\r')) return joined;
      return (heldCR ? joined.slice(0, -1) : joined).replace(/\r\n?/g, '\n');
    },
    end(): string {
      const rest = heldCR ? '\n' : '';
      heldCR = false;
      return rest;
    },
  };
}

/**
 * Each upstream event with data, as `read` makes it of the data (the proxy's: the event allow-list and the token
 * redactor) before anyone sees it; an event it gives nothing for is dropped.
 * Pulled, not piped: a piped stream that errors discards what it has queued, so an upstream drop would lose
 * events the upstream had already sent. Here an upstream failure surfaces only once every event read before it
 * has been taken.
 */
export function parseUpstreamEvents<T>(
  upstream: ReadableStream<Uint8Array>,
  read: (data: string) => T | undefined,
): ReadableStream<T> {
  const decoder = new TextDecoder();
  const lineEndings = createLineEndings();
  const reader = upstream.getReader();
  let failure: Error | undefined;
  let ended = false;
  const parsed: T[] = [];
  // Characters read since the last event ended. The parser's own cap counts an event's data and its unfinished
  // line only: `event:` and `id:` lines (never relayed) would let one event hold three times the bound.
  let sinceEvent = 0;
  const parser = createParser({
    maxBufferSize: maxEventChars,
    onEvent: (message) => {
      sinceEvent = 0;
      // The stream ends where it broke: nothing after a failure goes on.
      if (failure !== undefined || message.data === '') return;
      try {
        const event = read(message.data);
        if (event !== undefined) parsed.push(event);
      } catch {
        // An event that cannot be redacted never goes on; the events before it still do.
        failure = new Error('an upstream event could not be redacted');
      }
    },
    onError: (error) => {
      if (error.type === 'max-buffer-size-exceeded')
        failure ??= new Error(`an upstream event exceeded ${maxEventChars} characters`);
    },
  });
  return new ReadableStream<T>(
    {
      // Called only when a reader waits and nothing is queued, so an error here discards nothing.
      async pull(controller) {
        while (parsed.length === 0) {
          if (failure !== undefined) {
            // Raised only once the events parsed before it (from the same chunk too) have been taken; nothing
            // after it is read, so the upstream is let go.
            void reader.cancel(failure).catch(() => undefined);
            throw failure;
          }
          if (ended) {
            // What is left is an unterminated event: no browser would act on it, so it is dropped.
            parser.reset();
            controller.close();
            return;
          }
          const { done, value } = await reader.read();
          ended = done;
          const text = done ? lineEndings.end() : lineEndings.next(decoder.decode(value, { stream: true }));
          // An event that ends in this chunk starts the count again, and the rest of the chunk goes uncounted: one
          // event may pass the bound by one chunk (a network read: 128 KiB in Node), never more.
          sinceEvent += text.length;
          parser.feed(text);
          if (sinceEvent > maxEventChars)
            failure ??= new Error(`an upstream event exceeded ${maxEventChars} characters`);
        }
        for (const data of parsed.splice(0)) controller.enqueue(data);
      },
      cancel: (reason) => reader.cancel(reason),
    },
    { highWaterMark: 0 },
  );
}
