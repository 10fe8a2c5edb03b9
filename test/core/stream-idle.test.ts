/**
 * The client's idle limit on event streams (issue 13): a stream that goes silent ends as `interrupted`
 * after `streamIdleTimeoutMs`, heartbeats keep it alive, the store then recovers by polling, and the
 * generation POST is never sent again. Real HTTP on 127.0.0.1.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgentClient, createAgentStore, createHttpTransport, defaultStreamIdleTimeoutMs } from 'agent-embed/core';

interface SilentServer {
  baseUrl: string;
  posts: number;
  polls: number;
  close(): Promise<void>;
}

const servers: SilentServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const sse = (event: object) => `data: ${JSON.stringify(event)}\n\n`;
const created = { type: 'project_created', project_id: 'p1', app_url: 'https://p1.apps.test/' };
const streamEnd = { type: 'stream_end', project_id: 'p1', app_url: 'https://p1.apps.test/' };

/** A server whose generate stream is written by `script`; status polls answer `ready`. */
async function silentServer(script: (response: ServerResponse) => void): Promise<SilentServer> {
  const state: SilentServer = { baseUrl: '', posts: 0, polls: 0, close: async () => {} };
  const server = createServer((request, response) => {
    if (request.method === 'POST') {
      state.posts++;
      request.resume();
      request.on('end', () => {
        response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        response.flushHeaders();
        script(response);
      });
      return;
    }
    state.polls++;
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({ status: true, project_id: 'p1', project_status: 'ready', app_url: 'https://p1.apps.test/' }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  servers.push(state);
  return state;
}

const clientFor = (baseUrl: string, streamIdleTimeoutMs?: number) =>
  createAgentClient({
    transport: createHttpTransport({
      baseUrl,
      ...(streamIdleTimeoutMs === undefined ? {} : { streamIdleTimeoutMs }),
    }),
  });

describe('stream idle limit', () => {
  it('defaults to three of the proxy heartbeat intervals', () => {
    expect(defaultStreamIdleTimeoutMs).toBe(45_000);
  });

  it('ends a stream that goes silent as interrupted with code stream_idle, and sends nothing again', async () => {
    const server = await silentServer((response) => response.write(sse(created)));
    const started = Date.now();
    const result = await clientFor(server.baseUrl, 300).generate({ prompt: 'A todo list app' });
    expect(result).toMatchObject({ outcome: 'interrupted', projectId: 'p1', error: { code: 'stream_idle' } });
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(server.posts).toBe(1);
  });

  it('counts heartbeat comments as life: a stream that only pings past the limit still completes', async () => {
    const server = await silentServer((response) => {
      response.write(sse(created));
      let pings = 0;
      const timer = setInterval(() => {
        if (++pings <= 6) {
          response.write(': ping\n\n');
          return;
        }
        clearInterval(timer);
        response.end(sse(streamEnd));
      }, 100);
    });
    const result = await clientFor(server.baseUrl, 300).generate({ prompt: 'A todo list app' });
    expect(result.outcome).toBe('completed');
    expect(server.posts).toBe(1);
  });

  it('0 turns the limit off', async () => {
    const server = await silentServer((response) => {
      response.write(sse(created));
      setTimeout(() => response.end(sse(streamEnd)), 400);
    });
    const result = await clientFor(server.baseUrl, 0).generate({ prompt: 'A todo list app' });
    expect(result.outcome).toBe('completed');
  });

  it('the store recovers a silent stream by polling the status, with one POST', async () => {
    const server = await silentServer((response) => response.write(sse(created)));
    const store = createAgentStore({ client: clientFor(server.baseUrl, 300), storage: null, pollIntervalMs: 50 });
    const seen: string[] = [];
    store.subscribe((state) => {
      const status = state.generations.p1?.status;
      if (status !== undefined && seen.at(-1) !== status) seen.push(status);
    });
    const result = await store.getState().generate({ prompt: 'A todo list app' });
    expect(result).toMatchObject({ outcome: 'completed', projectId: 'p1' });
    expect(seen).toContain('recovering');
    expect(store.getState().generations.p1?.status).toBe('completed');
    expect(server.posts).toBe(1);
    expect(server.polls).toBeGreaterThanOrEqual(1);
    store.destroy();
  });
});
