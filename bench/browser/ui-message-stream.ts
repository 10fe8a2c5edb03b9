/**
 * The same build for the AI SDK's `useChat`, in the UI message stream its `DefaultChatTransport` reads (SSE of
 * `data: {json}` chunks, ended by `data: [DONE]`): one assistant message whose parts are either one `data-*`
 * part per event (`data-file_created`, `data-tool_progress`, …) or one text part with a line per event.
 */
import type { BenchEvent } from './bench-script.ts';

/** How the build reaches `useChat`: as data parts or as text. */
export type ChatVariant = 'data' | 'text';

/** The headers the AI SDK's `createUIMessageStreamResponse` sends. */
export const uiMessageStreamHeaders = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  'x-vercel-ai-ui-message-stream': 'v1',
};

/** An event as one line of the text variant, the words a chat would show for it. */
export function eventLine(event: BenchEvent): string {
  switch (event.type) {
    case 'file_created':
      return `${event.action === 'modified' ? 'Modified' : 'Created'} ${event.path}`;
    case 'tool_progress':
      return `${event.tool}: ${event.message}`;
    case 'project_created':
      return `Project ${event.project_id} created`;
    case 'stream_end':
      return `Done: ${event.app_url}`;
  }
}

/** The whole answer's body. Data parts carry no `id`: each is appended (the SDK's cheapest path, no search). */
export function uiMessageStream(events: readonly BenchEvent[], variant: ChatVariant): string {
  const chunks: object[] = [{ type: 'start', messageId: 'bench-build' }];
  if (variant === 'data') {
    for (const { type, ...data } of events) chunks.push({ type: `data-${type}`, data });
  } else {
    chunks.push({ type: 'text-start', id: 'build-log' });
    for (const event of events) chunks.push({ type: 'text-delta', id: 'build-log', delta: `${eventLine(event)}\n` });
    chunks.push({ type: 'text-end', id: 'build-log' });
  }
  chunks.push({ type: 'finish' });
  return `${chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join('')}data: [DONE]\n\n`;
}
