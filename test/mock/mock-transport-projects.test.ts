import { createAgentClient, firstEventIdOfGeneration, generationOfEventId } from 'agent-embed/core';
import { createMockTransport } from 'agent-embed/mock';
import { describe, expect, it } from 'vitest';

describe('createMockTransport: the proxy’s own routes for its one end user', () => {
  it('lists the projects it generated, with their conversation, newest first', async () => {
    const transport = createMockTransport({ speed: 'instant' });
    const client = createAgentClient({ transport });
    expect(await client.projects.list()).toEqual([]);
    const first = await client.generate({ prompt: 'Build a todo app with dark mode', mode: 'design' });
    const files: string[] = [];
    await client.followUp(
      first.projectId!,
      { prompt: 'Add a footer with links' },
      { onEvent: (event) => (event.type === 'file_created' ? files.push(event.type) : undefined) },
    );
    const second = await client.generate({ prompt: 'A recipe book with search' });
    await client.getProject(first.projectId!);

    const projects = await client.projects.list();
    expect(projects.map((project) => project.project_id)).toEqual([second.projectId, first.projectId]);
    expect(projects[1]).toMatchObject({ project_status: 'ready', app_url: first.appUrl });
    expect(projects[1]?.name).toEqual(expect.any(String));
    const turns = await client.projects.conversation(first.projectId!);
    expect(turns.map((turn) => [turn.kind, turn.prompt, turn.mode, turn.outcome?.status])).toEqual([
      ['generate', 'Build a todo app with dark mode', 'design', 'completed'],
      ['followUp', 'Add a footer with links', null, 'completed'],
    ]);
    expect((turns[1]?.outcome?.files_created ?? 0) + (turns[1]?.outcome?.files_modified ?? 0)).toBe(files.length);
  });

  it('replays the latest generation after an id on the events route, and 404s an unknown project', async () => {
    const transport = createMockTransport({ speed: 'instant' });
    const client = createAgentClient({ transport });
    const result = await client.generate({ prompt: 'Build a todo app with dark mode' });
    const replay = await createMockTransportFetch(transport, `/projects/${result.projectId}/events?after=2`);
    expect(replay.status).toBe(200);
    const text = await replay.text();
    expect(text.startsWith('id: 3\ndata: ')).toBe(true);
    expect(text).toContain('"type":"stream_end"');
    expect((await createMockTransportFetch(transport, '/projects/unknown/conversation')).status).toBe(404);
  });

  it('numbers events across generations as the proxy does, and answers 204 for a replaced generation', async () => {
    const transport = createMockTransport({ speed: 'instant' });
    const client = createAgentClient({ transport });
    const firstIds: number[] = [];
    const created = await client.generate(
      { prompt: 'Build a todo app with dark mode' },
      { onEvent: (_event, id) => firstIds.push(id ?? 0) },
    );
    const projectId = created.projectId!;
    const secondIds: number[] = [];
    await client.followUp(
      projectId,
      { prompt: 'Add a footer with links' },
      { onEvent: (_event, id) => secondIds.push(id ?? 0) },
    );
    expect(firstIds.slice(0, 3)).toEqual([1, 2, 3]);
    expect(secondIds[0]).toBe(firstEventIdOfGeneration(2));
    expect(secondIds.map(generationOfEventId)).toEqual(secondIds.map(() => 2));
    // A browser that applied the first generation up to its third event: that generation was replaced.
    expect((await createMockTransportFetch(transport, `/projects/${projectId}/events?after=3`)).status).toBe(204);
    const replay = await createMockTransportFetch(transport, `/projects/${projectId}/events?after=${secondIds[0]}`);
    expect((await replay.text()).startsWith(`id: ${secondIds[1]}\ndata: `)).toBe(true);
  });
});

/** Reaches the transport's routes through the fetch its HTTP transport uses. */
function createMockTransportFetch(transport: ReturnType<typeof createMockTransport>, path: string) {
  return transport.fetch(`${transport.api.baseUrl}${path}`, {
    headers: { authorization: `Bearer ${transport.api.token}` },
  });
}
