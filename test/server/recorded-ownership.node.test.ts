/**
 * What the proxy records of a generation belongs to the end user who started it, whatever the upstream says: a
 * `project_created` naming a project another end user owns (a broken or hostile upstream) records nothing into
 * that project, and a turn keeps at most 16 KiB of the browser's prompt.
 */
import { describe, expect, it } from 'vitest';
import { createMemoryProxyStore, type AgentProxyUser } from 'agent-embed/server';
import {
  createBodyReader,
  createManualTimers,
  createScriptedProxy,
  createScriptedStream,
  eventsOf,
  json,
  type UpstreamCall,
} from './scripted-upstream.js';

const appOrigin = 'https://app.example.test';
const basePath = '/api/agent';
const users: Record<string, AgentProxyUser> = {
  alice: { externalUserId: 'alice' },
  bob: { externalUserId: 'bob' },
};
const authorize = (request: Request) =>
  users[/(?:^|;\s*)session=([^;]+)/.exec(request.headers.get('cookie') ?? '')?.[1] ?? ''] ?? null;
const call = (who: string, method: string, path: string, body?: unknown) =>
  new Request(`${appOrigin}${basePath}${path}`, {
    method,
    headers: { 'content-type': 'application/json', cookie: `session=${who}` },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
const aliceStatus = {
  status: true,
  project_id: 'p-alice',
  name: 'Alice private shop',
  app_url: 'https://alice-private.example/',
  project_status: 'ready',
};

/** A proxy whose generate streams are scripted one by one; every other upstream call answers Alice's status. */
function proxyWithStreams(store = createMemoryProxyStore()) {
  const streams: ReturnType<typeof createScriptedStream>[] = [];
  const answer = (upstreamCall: UpstreamCall) => {
    if (!upstreamCall.url.pathname.includes('/agent/generate')) return json(aliceStatus);
    const stream = createScriptedStream();
    streams.push(stream);
    return stream.response();
  };
  const scripted = createScriptedProxy(answer, {
    basePath,
    authorize,
    store,
    appUrl: appOrigin,
    timers: createManualTimers(),
    heartbeatMs: 0,
    statusCacheMs: 0,
  });
  /** Runs one generate for `who` whose upstream stream names `projectId`, to its end. */
  const generate = async (who: string, prompt: string, projectId: string, file: string) => {
    const response = await scripted.proxy(call(who, 'POST', '/agent/generate', { prompt }));
    const body = createBodyReader(response.body).rest();
    const stream = streams.at(-1)!;
    stream.event({ type: 'project_created', project_id: projectId, app_url: 'https://built.example/' });
    stream.event({ type: 'file_created', path: file });
    stream.event({ type: 'stream_end', project_id: projectId, app_url: 'https://built.example/' });
    stream.close();
    return body;
  };
  return { ...scripted, streams, generate };
}

describe('a generation the upstream attributes to another end user’s project', () => {
  it("writes nothing into Alice's project: her conversation and event log stay hers, and the proxy says why", async () => {
    const { proxy, store, logs, generate } = proxyWithStreams();
    await generate('alice', 'Alice secret business plan site', 'p-alice', 'src/alice.tsx');
    expect(await store.getProjectOwner('p-alice')).toBe('alice');

    // Bob's generate: the upstream names Alice's project. Bob's browser still gets his stream, which names no
    // project and no address: neither Alice's id nor her app's.
    const bobStream = await generate('bob', 'Bob confidential prompt text', 'p-alice', 'src/bob-secret.tsx');
    expect(bobStream).toContain('bob-secret');
    expect(bobStream).not.toContain('p-alice');
    expect(bobStream).not.toContain('built.example');
    expect(eventsOf(bobStream).map(({ data }) => JSON.parse(data) as unknown)).toEqual([
      { type: 'project_created', project_id: null, app_url: null },
      { type: 'file_created', path: 'src/bob-secret.tsx' },
      { type: 'stream_end', project_id: null, app_url: null },
    ]);

    expect(await store.getProjectOwner('p-alice')).toBe('alice');
    const conversation = (await (await proxy(call('alice', 'GET', '/projects/p-alice/conversation'))).json()) as {
      turns: { prompt: string }[];
    };
    expect(conversation.turns.map((turn) => turn.prompt)).toEqual(['Alice secret business plan site']);
    const events = await (await proxy(call('alice', 'GET', '/projects/p-alice/events'))).text();
    expect(events).toContain('src/alice.tsx');
    expect(events).not.toContain('bob-secret');
    // Bob reaches nothing of it.
    expect((await proxy(call('bob', 'GET', '/projects/p-alice/conversation'))).status).toBe(404);
    expect(logs).toContainEqual(
      expect.objectContaining({
        level: 'error',
        event: 'upstream_refused',
        externalUserId: 'bob',
        projectId: 'p-alice',
        reason: 'the upstream named a project another end user owns: not recorded',
      }),
    );
    expect(logs.filter((entry) => entry.event === 'ownership_recorded')).toHaveLength(1);
  });

  it("never lists a seeded project of Alice's as Bob's, nor shows him her status answers through his list", async () => {
    // Alice's project predates the proxy: its owner is seeded, as docs/proxy.md says to do.
    const { proxy, store, generate } = proxyWithStreams(createMemoryProxyStore({ owners: { 'p-alice': 'alice' } }));
    await generate('bob', 'Bob builds a todo list app', 'p-alice', 'src/todo.tsx');
    expect(await store.getProjectOwner('p-alice')).toBe('alice');
    // Alice polls her project (allowed: she owns it); its answer is recorded in her summary.
    expect((await proxy(call('alice', 'GET', '/agent/project/p-alice'))).status).toBe(200);

    const bobs = (await (await proxy(call('bob', 'GET', '/projects'))).json()) as { projects: unknown[] };
    expect(bobs.projects).toEqual([]);
    const alices = (await (await proxy(call('alice', 'GET', '/projects'))).json()) as {
      projects: { project_id: string; name: string | null }[];
    };
    expect(alices.projects).toEqual([expect.objectContaining({ project_id: 'p-alice', name: 'Alice private shop' })]);
  });
});

describe('an upstream that holds the connection open after its terminal event', () => {
  it('ends the browser’s stream, records the turn as ended and lets the upstream go, without waiting for a limit', async () => {
    const { proxy, logs, streams } = proxyWithStreams();
    const response = await proxy(call('alice', 'POST', '/agent/generate', { prompt: 'A recipe box with tags' }));
    const body = createBodyReader(response.body).rest();
    const stream = streams.at(-1)!;
    stream.event({ type: 'project_created', project_id: 'p-alice', app_url: 'https://built.example/' });
    stream.event({ type: 'file_created', path: 'src/a.tsx' });
    stream.event({ type: 'stream_end', project_id: 'p-alice', app_url: 'https://built.example/' });
    // Never closed, and no timer ever fires (manual timers): only the terminal event can end it.
    expect(await body).toContain('stream_end');
    await expect.poll(() => stream.state.cancelled).toBe(true);
    const conversation = (await (await proxy(call('alice', 'GET', '/projects/p-alice/conversation'))).json()) as {
      turns: { outcome: { status: string } | null }[];
    };
    expect(conversation.turns.map((turn) => turn.outcome?.status)).toEqual(['completed']);
    expect(logs.find((entry) => entry.event === 'stream_closed')?.reason).toBe('upstream completed');
  });
});

describe('a turn’s prompt', () => {
  it('keeps at most 16 KiB of a prompt (cut and marked), and a prompt a person writes whole', async () => {
    const { proxy, generate } = proxyWithStreams();
    // A body well under the proxy's 256 KiB cap, far over what a person writes.
    const long = `Make it blue ${'x'.repeat(250 * 1024)}`;
    await generate('alice', long, 'p-alice', 'src/a.tsx');
    const conversation = (await (await proxy(call('alice', 'GET', '/projects/p-alice/conversation'))).json()) as {
      turns: { prompt: string }[];
    };
    const [kept] = conversation.turns.map((turn) => turn.prompt);
    expect(kept).toHaveLength(16 * 1024);
    expect(kept).toBe(`${long.slice(0, 16 * 1024 - 1)}…`);

    const { proxy: other, generate: generateOther } = proxyWithStreams();
    const written = `A recipe box with tags — ${'🍅'.repeat(8 * 1024)}`;
    await generateOther('alice', written, 'p-alice', 'src/a.tsx');
    const turns = (await (await other(call('alice', 'GET', '/projects/p-alice/conversation'))).json()) as {
      turns: { prompt: string }[];
    };
    // Cut where a character ends: no half of a surrogate pair.
    expect(turns.turns[0]?.prompt.endsWith('🍅…')).toBe(true);
    expect(turns.turns[0]?.prompt.length).toBeLessThanOrEqual(16 * 1024);

    await generateOther('alice', 'Add a print view for recipes', 'p-alice', 'src/b.tsx');
    const next = (await (await other(call('alice', 'GET', '/projects/p-alice/conversation'))).json()) as {
      turns: { prompt: string }[];
    };
    expect(next.turns.at(-1)?.prompt).toBe('Add a print view for recipes');
  });
});
