/** Reads a proxy's SSE answer into events with their ids, optionally stopping (and cutting) after N events. */

/** One event as the browser sees it. */
export interface SseEvent {
  id: number | undefined;
  data: string;
}

/**
 * Reads events until the stream ends or `stopAfter` events arrived (then cancels, like a closed tab);
 * `onRead` hears how many events have been read after each chunk.
 */
export async function readSse(
  response: Response,
  stopAfter = Infinity,
  onRead?: (events: number) => void,
): Promise<SseEvent[]> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  const events: SseEvent[] = [];
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true }).replace(/\r\n?/g, '\n');
    let end = text.indexOf('\n\n');
    while (end !== -1) {
      const block = text.slice(0, end);
      text = text.slice(end + 2);
      const lines = block.split('\n');
      const data = lines.filter((line) => line.startsWith('data: ')).map((line) => line.slice(6));
      const id = lines.find((line) => line.startsWith('id: '))?.slice(4);
      if (data.length > 0) events.push({ id: id === undefined ? undefined : Number(id), data: data.join('\n') });
      if (events.length >= stopAfter) {
        await reader.cancel();
        return events;
      }
      end = text.indexOf('\n\n');
    }
    onRead?.(events.length);
  }
  return events;
}

/** The `type` of each event. */
export function typesOf(events: readonly SseEvent[]): string[] {
  return events.map((event) => (JSON.parse(event.data) as { type: string }).type);
}
