/**
 * Reads an upstream SSE body into the data of its events, once, for every part of the relay. Only the data
 * goes on: the relay re-emits each event with the proxy's own `id:` line, so comments, `event:`, upstream
 * `id:` and `retry:` lines, unknown fields and an unterminated last event never reach the browser, whatever
 * they carry. Keep-alive events without data are dropped too, so they never count as progress.
 */
import { createParser } from 'eventsource-parser';

/** An event larger than this (16 MiB without a blank line) fails the stream rather than growing without bound. */
export const maxEventChars = 16 * 1024 * 1024;

/** The data of each upstream event with data, passed through `clean` (the token redactor) before anyone sees it. */
export function parseUpstreamEvents(
  upstream: ReadableStream<Uint8Array>,
  clean: (data: string) => string = (data) => data,
): ReadableStream<string> {
  const decoder = new TextDecoder();
  let failure: Error | undefined;
  let deliver: ((data: string) => void) | undefined;
  const parser = createParser({
    maxBufferSize: maxEventChars,
    onEvent: (message) => {
      if (message.data !== '') deliver?.(clean(message.data));
    },
    onError: (error) => {
      if (error.type === 'max-buffer-size-exceeded')
        failure ??= new Error(`an upstream event exceeded ${maxEventChars} characters`);
    },
  });
  return upstream.pipeThrough(
    new TransformStream<Uint8Array, string>({
      transform(chunk, controller) {
        deliver = (data) => controller.enqueue(data);
        parser.feed(decoder.decode(chunk, { stream: true }));
        if (failure !== undefined) throw failure;
      },
      flush() {
        // What is left is an unterminated event: no browser would act on it, so it is dropped.
        parser.reset();
      },
    }),
  );
}
