/**
 * A generation whose stream ends with `credits_exhausted` before any `file_created` built nothing for the end user: the
 * team ran out of credits, so the end user's quota gives it back, once, also when the browser leaves at that moment.
 * A file written first keeps it counted.
 */
import { describe, expect, it } from 'vitest';
import type { AgentProxyOptions, GenerationRecord } from 'agent-embed/server';
import { browserRequest, createScriptedStream, createTwoUserProxy, type UpstreamCall } from './scripted-upstream.js';

const sse = (text: string) => new Response(text, { headers: { 'content-type': 'text/event-stream' } });
const data = (event: unknown) => `data: ${JSON.stringify(event)}\n\n`;
const creditsOut = { type: 'credits_exhausted', message: 'Not enough credits.' };
const built = (id: string) =>
  data({ type: 'project_created', project_id: id, app_url: 'https://built.example/' }) +
  data({ type: 'stream_end', project_id: id, app_url: 'https://built.example/' });

const prompt = { prompt: 'A landing page for a bakery' };
const generate = () => browserRequest('POST', '/agent/generate', prompt);
const followUp = () => browserRequest('POST', '/agent/generate/p-alice', prompt);

/** A proxy for alice (who owns p-alice) whose upstream streams the next scripted text of `streams`. */
function setup(streams: string[], options: Partial<AgentProxyOptions> = {}) {
  const answer = (call: UpstreamCall) => {
    const text = streams.shift();
    return sse(text ?? built(/\/agent\/generate\/([^/]+)/.exec(call.url.pathname)?.[1] ?? 'p-new'));
  };
  return createTwoUserProxy(answer, { quota: { generations: 1, per: 'day' }, ...options });
}

async function build(proxy: ReturnType<typeof setup>['proxy'], request: Request) {
  const response = await proxy(request);
  expect(response.status).toBe(200);
  return response.text();
}

const usageOf = async (proxy: ReturnType<typeof setup>['proxy']) =>
  (await proxy(browserRequest('GET', '/usage'))).json() as Promise<{ used: number; limit: number }>;

describe('credits_exhausted before anything was built', () => {
  it.each([
    ['a generate', generate, data(creditsOut)],
    ['a generate, after comments', generate, `: ping\n\n:\n\n${data(creditsOut)}`],
    ['a follow-up', followUp, data(creditsOut)],
    ['a generate whose upstream sends more after it', generate, data(creditsOut) + built('p-late')],
    [
      'a generate whose project and container were set up first',
      generate,
      data({ type: 'project_created', project_id: 'p-new', app_url: 'https://built.example/' }) +
        data({ type: 'container_progress', message: 'Allocating a container', percentage: 40 }) +
        data({ type: 'container_ready', message: 'Container ready' }) +
        data(creditsOut),
    ],
    [
      'a follow-up whose agent ran a tool but wrote no file',
      followUp,
      data({ type: 'tool_progress', tool: 'read_file', message: 'Reading' }) + data(creditsOut),
    ],
  ])('%s is not counted, and a user with a limit of 1 can build again', async (_, request, stream) => {
    const { proxy, upstream } = setup([stream]);
    expect(await build(proxy, request())).toContain('"type":"credits_exhausted"');
    expect(await usageOf(proxy)).toMatchObject({ used: 0, limit: 1 });
    await build(proxy, generate());
    expect(await usageOf(proxy)).toMatchObject({ used: 1, limit: 1 });
    expect((await proxy(generate())).status).toBe(429);
    expect(upstream.calls).toHaveLength(2);
  });

  it.each([
    ['file_created', data({ type: 'file_created', path: 'index.html' })],
    [
      'project_created, then file_created',
      data({ type: 'project_created', project_id: 'p-new', app_url: 'https://built.example/' }) +
        data({ type: 'tool_progress', tool: 'write_files', message: 'Writing' }) +
        data({ type: 'file_created', path: 'index.html' }),
    ],
  ])('%s, then credits_exhausted: the generation stays counted', async (_, first) => {
    const { proxy, upstream } = setup([first + data(creditsOut)]);
    await build(proxy, generate());
    expect(await usageOf(proxy)).toMatchObject({ used: 1, limit: 1 });
    expect((await proxy(generate())).status).toBe(429);
    expect(upstream.calls).toHaveLength(1);
  });

  it('a stream with no event at all stays counted (the upstream may have started it)', async () => {
    const { proxy } = setup([': ping\n\n']);
    await build(proxy, generate());
    expect(await usageOf(proxy)).toMatchObject({ used: 1, limit: 1 });
  });

  it('a broken upstream: credits_exhausted with odd fields is still the credits running out, given back once', async () => {
    const odd = { type: 'credits_exhausted', message: 42, project_id: ['p'], debug: { team: 'secret' } };
    const { proxy } = setup([data(odd) + data(odd)], { quota: { generations: 2, per: 'day' } });
    await build(proxy, generate());
    expect(await usageOf(proxy)).toMatchObject({ used: 0, limit: 2 });
  });

  it('a broken upstream that keeps the stream open after credits_exhausted: given back, and the browser is told the end', async () => {
    const stream = createScriptedStream();
    const { proxy } = createTwoUserProxy(() => stream.response(), { quota: { generations: 1, per: 'day' } });
    const response = await proxy(generate());
    stream.event(creditsOut);
    // Comments keep coming and the body never ends.
    stream.write(': still here\n\n');
    expect(await response.text()).toContain('"type":"credits_exhausted"');
    expect(await usageOf(proxy)).toMatchObject({ used: 0, limit: 1 });
    expect(stream.state.cancelled).toBe(true);
  });

  it('gives back once when the browser leaves as credits_exhausted arrives', async () => {
    const stream = createScriptedStream();
    const ended: GenerationRecord[] = [];
    let generationEnded!: () => void;
    const recorded = new Promise<void>((resolve) => (generationEnded = resolve));
    let calls = 0;
    const { proxy } = createTwoUserProxy(() => (++calls === 2 ? stream.response() : sse(built('p-new'))), {
      quota: { generations: 2, per: 'day' },
      onGeneration: (record) => {
        ended.push(record);
        if (record.outcome === 'credits_exhausted') generationEnded();
      },
    });
    await build(proxy, generate());
    expect(await usageOf(proxy)).toMatchObject({ used: 1, limit: 2 });

    const browser = new AbortController();
    const response = await proxy(new Request(followUp(), { signal: browser.signal }));
    expect(response.status).toBe(200);
    stream.event(creditsOut);
    browser.abort();
    await response.body?.cancel();
    stream.close();
    await recorded;

    expect(ended.map((record) => record.outcome)).toEqual(['completed', 'credits_exhausted']);
    expect(await usageOf(proxy)).toMatchObject({ used: 1, limit: 2 });
    await build(proxy, generate());
    expect(await usageOf(proxy)).toMatchObject({ used: 2, limit: 2 });
    expect((await proxy(generate())).status).toBe(429);
  });
});
