/**
 * client.projects.events against a scripted proxy on 127.0.0.1: SSE ids reach the handler, `after` is
 * sent, the replay folds to an outcome like generate's, and 204/404 are "nothing recorded". No POST ever.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgentClient, createHttpTransport, type AgentEvent } from 'agent-embed/core';

const recorded: object[] = [
  { type: 'project_created', project_id: 'p1', app_url: 'https://p1.apps.test/' },
  { type: 'container_ready', message: 'Container ready.' },
  { type: 'file_created', path: 'src/App.tsx' },
  { type: 'file_created', path: 'src/main.tsx' },
  { type: 'stream_end', project_id: 'p1', app_url: 'https://p1.apps.test/' },
];

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** A proxy whose events route replays `recorded` for p1, answers 204 for p2 and 404 for anything else. */
async function scriptedProxy() {
  const seen: { method: string; url: string; lastEventId: string | undefined }[] = [];
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    seen.push({
      method: request.method ?? '',
      url: url.pathname + url.search,
      lastEventId: request.headers['last-event-id'] as string | undefined,
    });
    if (url.pathname === '/api/agent/projects/p1/events') {
      const after = Number(url.searchParams.get('after') ?? 0);
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      recorded.forEach((event, index) => {
        if (index + 1 > after) response.write(`id: ${index + 1}\ndata: ${JSON.stringify(event)}\n\n`);
      });
      response.end();
      return;
    }
    if (url.pathname === '/api/agent/projects/p2/events') {
      response.writeHead(204).end();
      return;
    }
    response.writeHead(404, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ status: false, message: 'Project not found.' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/agent`;
  return { client: createAgentClient({ transport: createHttpTransport({ baseUrl }) }), seen };
}

describe('client.projects.events', () => {
  it('replays the whole generation with its ids and resolves with the outcome', async () => {
    const { client, seen } = await scriptedProxy();
    const events: [AgentEvent['type'], number | undefined][] = [];
    const result = await client.projects.events('p1', { onEvent: (event, id) => events.push([event.type, id]) });
    expect(events).toEqual([
      ['project_created', 1],
      ['container_ready', 2],
      ['file_created', 3],
      ['file_created', 4],
      ['stream_end', 5],
    ]);
    expect(result).toMatchObject({
      outcome: 'completed',
      replayed: true,
      lastEventId: 5,
      projectId: 'p1',
      appUrl: 'https://p1.apps.test/',
    });
    expect(seen).toEqual([{ method: 'GET', url: '/api/agent/projects/p1/events', lastEventId: undefined }]);
  });

  it('sends after=N and gets only the later events', async () => {
    const { client, seen } = await scriptedProxy();
    const ids: (number | undefined)[] = [];
    const result = await client.projects.events('p1', { after: 3, onEvent: (_event, id) => ids.push(id) });
    expect(ids).toEqual([4, 5]);
    expect(result.outcome).toBe('completed');
    expect(seen[0]?.url).toBe('/api/agent/projects/p1/events?after=3');
  });

  it('a replay that ends without a terminal event is interrupted', async () => {
    const { client } = await scriptedProxy();
    recorded.push({ type: 'tool_progress', tool: 'x' });
    const saved = recorded.splice(4, 1);
    try {
      const result = await client.projects.events('p1', {});
      expect(result).toMatchObject({ outcome: 'interrupted', error: { code: 'stream_interrupted' } });
    } finally {
      recorded.splice(4, 1, ...saved);
    }
  });

  it('204 and 404 resolve as nothing recorded', async () => {
    const { client, seen } = await scriptedProxy();
    expect(await client.projects.events('p2', {})).toMatchObject({ outcome: 'nothing_recorded', replayed: false });
    const other = await client.projects.events('p3', {});
    expect(other).toMatchObject({ outcome: 'nothing_recorded', error: { code: 'project_not_found' } });
    expect(seen.every((request) => request.method === 'GET')).toBe(true);
  });
});
