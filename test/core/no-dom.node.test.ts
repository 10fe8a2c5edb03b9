import { describe, expect, it } from 'vitest';
import { createAgentClient, createHttpTransport } from 'agent-embed/core';

const sse = (event: object) => `data: ${JSON.stringify(event)}\n\n`;

describe('the client outside a DOM (plain Node, no window or document)', () => {
  it('streams a generation: one POST, every event, the outcome', async () => {
    let requests = 0;
    const client = createAgentClient({
      transport: createHttpTransport({
        baseUrl: 'http://127.0.0.1:1/api/v1',
        fetch: async () => {
          requests++;
          return new Response(
            sse({ type: 'project_created', project_id: 'p1', app_url: 'https://p1.apps.test/' }) +
              ': ping\n\n' +
              sse({ type: 'file_created', path: 'src/App.tsx' }) +
              sse({ type: 'stream_end', project_id: 'p1', app_url: 'https://p1.apps.test/' }),
            { headers: { 'content-type': 'text/event-stream' } },
          );
        },
      }),
    });
    const events: string[] = [];
    const result = await client.generate(
      { prompt: 'A todo list app' },
      { onEvent: (event) => events.push(event.type) },
    );
    expect(result).toMatchObject({ outcome: 'completed', projectId: 'p1', appUrl: 'https://p1.apps.test/' });
    expect(events).toEqual(['project_created', 'file_created', 'stream_end']);
    expect(requests).toBe(1);
    expect(typeof (globalThis as { window?: unknown }).window).toBe('undefined');
  });

  it('still makes JSON calls', async () => {
    const client = createAgentClient({
      transport: createHttpTransport({
        baseUrl: 'http://127.0.0.1:1/api/v1',
        fetch: async (input) => {
          expect(String(input)).toBe('http://127.0.0.1:1/api/v1/agent/project/p1');
          return Response.json({
            status: true,
            project_id: 'p1',
            app_url: 'https://p1.apps.test/',
            project_status: 'ready',
            name: 'Todo',
          });
        },
      }),
    });
    await expect(client.getProject('p1')).resolves.toMatchObject({ project_id: 'p1', project_status: 'ready' });
  });
});
