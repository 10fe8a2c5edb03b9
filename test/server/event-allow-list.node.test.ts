/**
 * What the browser sees of a relayed event is built from an allow-list of its type's fields, as the proxy's answers
 * are: a broken or hostile upstream's extra fields, wrong types, `javascript:` addresses, prototype keys and non-JSON
 * data never reach the browser, nor the events route that replays the log.
 */
import { describe, expect, it } from 'vitest';
import { relayEventStream } from 'agent-embed/server';
import {
  appOrigin,
  createBodyReader,
  createStreamingProxy,
  eventsOf,
  proxyBasePath as basePath,
} from './scripted-upstream.js';

function call(method: string, path: string, body?: unknown): Request {
  return new Request(`${appOrigin}${basePath}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

/** The upstream sends `lines` (each one event's data) and closes; gives what the browser and a replay got. */
async function relay(lines: string[]) {
  const { proxy, stream, store } = createStreamingProxy();
  const response = await proxy(call('POST', '/agent/generate', { prompt: 'A recipe box with tags please' }));
  const text = createBodyReader(response.body).rest();
  stream.write(
    `data: ${JSON.stringify({ type: 'project_created', project_id: 'p-allow', app_url: 'https://p.example' })}\n\n`,
  );
  for (const line of lines) stream.write(`data: ${line}\n\n`);
  stream.close();
  const relayed = eventsOf(await text);
  const replayed = eventsOf(await (await proxy(call('GET', '/projects/p-allow/events'))).text());
  return { relayed: relayed.slice(1), replayed: replayed.slice(1), ids: relayed.map(({ id }) => id), store };
}

/** Each event's data, parsed. */
const data = (events: { data: string }[]) => events.map((event) => JSON.parse(event.data) as unknown);

describe('a relayed event is rebuilt from its type’s allow-list', () => {
  it('keeps each known type’s fields and drops every other field, in the relay and in the replay', async () => {
    const extra = { secret: 'internal', cost_usd: 0.42, nested: { deep: [1, 2, 3] } };
    const { relayed, replayed } = await relay([
      JSON.stringify({ type: 'container_progress', message: 'Installing', percentage: 40, ...extra }),
      JSON.stringify({ type: 'container_ready', message: 'Ready', ...extra }),
      JSON.stringify({ type: 'file_created', path: 'src/App.tsx', action: 'modified', content: 'export …', ...extra }),
      JSON.stringify({ type: 'tool_progress', tool: 'write', message: 'Writing', status: 'running', ...extra }),
      JSON.stringify({ type: 'stream_end', project_id: 'p-allow', app_url: 'https://p.example', ...extra }),
    ]);
    const expected = [
      { type: 'container_progress', message: 'Installing', percentage: 40 },
      { type: 'container_ready', message: 'Ready' },
      { type: 'file_created', path: 'src/App.tsx', action: 'modified' },
      { type: 'tool_progress', tool: 'write', message: 'Writing', status: 'running' },
      { type: 'stream_end', project_id: 'p-allow', app_url: 'https://p.example' },
    ];
    expect(data(relayed)).toEqual(expected);
    expect(data(replayed)).toEqual(expected);
  });

  it.each([
    ['credits_exhausted', { message: 'Out of credits.', project_id: 'p-allow' }],
    ['error', { message: 'The build failed.', project_id: 'p-allow' }],
  ])('keeps the message and project of %s', async (type, fields) => {
    const { relayed } = await relay([JSON.stringify({ type, ...fields, trace: 'at Worker.run (/srv/app.js:1:1)' })]);
    expect(data(relayed)).toEqual([{ type, ...fields }]);
  });

  it('drops a field of the wrong type, and keeps an explicit null', async () => {
    const { relayed } = await relay([
      JSON.stringify({ type: 'container_progress', message: 42, percentage: '40' }),
      JSON.stringify({ type: 'tool_progress', tool: ['write'], message: null, status: { code: 1 } }),
      JSON.stringify({ type: 'container_progress', message: 'Halfway', percentage: Number.MAX_VALUE }),
    ]);
    expect(data(relayed)).toEqual([
      { type: 'container_progress' },
      { type: 'tool_progress', message: null },
      { type: 'container_progress', message: 'Halfway', percentage: Number.MAX_VALUE },
    ]);
  });

  it('gives a file its path under one name, whichever the upstream used, and only a known action', async () => {
    const { relayed } = await relay([
      JSON.stringify({ type: 'file_created', file_path: 'a.ts', action: 'created' }),
      JSON.stringify({ type: 'file_created', filename: 'b.ts', action: 'deleted' }),
      JSON.stringify({ type: 'file_created', file: { path: 'c.ts', content: 'x' } }),
      JSON.stringify({ type: 'file_created', path: '', action: 'modified' }),
    ]);
    expect(data(relayed)).toEqual([
      { type: 'file_created', path: 'a.ts', action: 'created' },
      { type: 'file_created', path: 'b.ts' },
      { type: 'file_created', path: 'c.ts' },
      { type: 'file_created', action: 'modified' },
    ]);
  });

  it('makes an address that is not http(s) null, so it never becomes a link or a frame', async () => {
    const { relayed, store } = await relay([
      JSON.stringify({ type: 'stream_end', project_id: 'p-allow', app_url: 'javascript:alert(document.cookie)' }),
    ]);
    expect(data(relayed)).toEqual([{ type: 'stream_end', project_id: 'p-allow', app_url: null }]);
    expect((await store.listProjects('alice')).map((project) => project.app_url)).toEqual(['https://p.example']);
  });

  it('keeps only the type of an event this version does not know, and only if it reads as a name', async () => {
    const { relayed } = await relay([
      JSON.stringify({ type: 'thinking', text: 'The user wants…', tokens: 1200 }),
      JSON.stringify({ type: '<img src=x onerror=alert(1)>', message: 'hi' }),
      JSON.stringify({ type: ['stream_end'], message: 'an array is not a type' }),
      JSON.stringify({ message: 'no type at all' }),
    ]);
    expect(data(relayed)).toEqual([{ type: 'thinking' }, {}, {}, {}]);
  });

  it('reads only the event’s own fields: a `__proto__` key gives it none', async () => {
    const { relayed } = await relay([
      '{"type":"tool_progress","__proto__":{"message":"from the prototype","tool":"x"},"constructor":{"a":1}}',
    ]);
    expect(data(relayed)).toEqual([{ type: 'tool_progress' }]);
  });

  it('drops data that is not a JSON object, and numbers the events that go on without a gap', async () => {
    const { relayed, replayed, ids } = await relay([
      'not json at all',
      '["tool_progress"]',
      '"stream_end"',
      'null',
      '{"type":"tool_progress","message":"cut short',
      JSON.stringify({ type: 'tool_progress', message: 'kept' }),
    ]);
    expect(data(relayed)).toEqual([{ type: 'tool_progress', message: 'kept' }]);
    expect(data(replayed)).toEqual(data(relayed));
    expect(ids).toEqual(['1', '2']);
  });

  it('is what the exported relayEventStream sends too', async () => {
    const upstream = new Response(
      [
        JSON.stringify({ type: 'tool_progress', tool: 'write', secret: 'internal' }),
        'not json',
        JSON.stringify({ type: 'stream_end', project_id: 'p', app_url: 'javascript:alert(1)' }),
      ]
        .map((line) => `data: ${line}\n\n`)
        .join(''),
    ).body as ReadableStream<Uint8Array>;
    const timers = { setTimeout: () => undefined, clearTimeout: () => undefined };
    const { body } = relayEventStream(upstream, { heartbeatMs: 0, timers });
    expect(data(eventsOf(await new Response(body).text()))).toEqual([
      { type: 'tool_progress', tool: 'write' },
      { type: 'stream_end', project_id: 'p', app_url: null },
    ]);
  });
});
