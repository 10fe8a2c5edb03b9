/**
 * A project id goes into a request path only if it can name a project: `encodeURIComponent` leaves `.` and `..` as
 * they are and the URL parser folds them away, so a follow-up of `.` would be POSTed to another route. Such an id from
 * a stream never names the store's project, and the client refuses it in a path.
 */
import { describe, expect, it } from 'vitest';
import { createAgentClient, createHttpTransport } from 'agent-embed/core';
import { createScriptedStore, settle } from './fakes.js';

const resolved = (path: string) => new URL(`https://proxy.example.test/api/agent${path}`).pathname;

describe('project ids in request paths', () => {
  for (const hostileId of ['..', '.']) {
    it(`a project_created naming "${hostileId}": no request path has a dot segment the URL parser folds away`, async () => {
      const { store, scripted, timers } = createScriptedStore();
      const done = store.getState().generate({ prompt: 'A todo app with tags' });
      const stream = scripted.streams[0]!;
      stream.open();
      stream.emit({ type: 'project_created', project_id: hostileId, app_url: 'https://x.apps.example.test' });
      stream.emit({ type: 'stream_end', project_id: hostileId, app_url: 'https://x.apps.example.test' });
      stream.close();
      await done;
      await timers.advance(3000);
      // The follow-up the UI offers for the current project, with the id the stream named.
      void store.getState().followUp(hostileId, { prompt: 'Make it blue please' });
      await settle();
      await timers.advance(10);
      const paths = [...scripted.requests, ...scripted.replayRequests].map((request) => request.path);
      for (const path of paths)
        expect({ path, resolved: resolved(path) }).toEqual({ path, resolved: `/api/agent${path}` });
    });
  }

  it('over the http transport, a follow-up of "." and a status poll of ".." are refused, not sent', async () => {
    const urls: string[] = [];
    const fetch: typeof globalThis.fetch = async (input) => {
      urls.push(new URL(String(input)).pathname);
      return new Response('data: {"type":"stream_end"}\n\n', { headers: { 'content-type': 'text/event-stream' } });
    };
    const client = createAgentClient({
      transport: createHttpTransport({ baseUrl: 'https://proxy.example.test/api/agent', fetch, slicing: null }),
    });
    await client.followUp('.', { prompt: 'Make it blue please' }).catch(() => undefined);
    await client.getProject('..').catch(() => undefined);
    for (const url of urls) expect(url).toMatch(/^\/api\/agent\/agent\/(generate|project)\/[A-Za-z0-9_-]+$/);
  });
});
