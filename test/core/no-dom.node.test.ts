import { describe, expect, it } from 'vitest';
import { createAgentClient, createHttpTransport } from 'agent-embed/core';

describe('the client outside a DOM', () => {
  it('refuses an event stream with a clear error and sends nothing, instead of crashing the process', async () => {
    let requests = 0;
    const client = createAgentClient({
      transport: createHttpTransport({
        baseUrl: 'http://127.0.0.1:1/api/v1',
        fetch: async () => {
          requests++;
          return new Response('', { status: 500 });
        },
      }),
    });
    await expect(client.generate({ prompt: 'A todo list app' })).rejects.toMatchObject({
      kind: 'protocol',
      message: expect.stringContaining('window and document'),
    });
    expect(requests).toBe(0);
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
