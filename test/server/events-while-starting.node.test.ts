/**
 * Between a follow-up's POST reaching the upstream and the upstream's answer, the upstream may already say
 * `generating` while the proxy's record still ends with the build before it. A browser that resumes the project then
 * with no event id (the list shows it building, a record saved without one) asks the events route for the latest generation;
 * it must not be shown the ended build as the change. The proxy holds the project from the moment the upstream hears
 * of the follow-up, on every instance that shares its store.
 */
import { describe, expect, it } from 'vitest';
import { createMemoryProxyStore, type ProxyStore } from 'agent-embed/server';
import { createManualTimers, json } from './scripted-upstream.js';
import { appOrigin, basePath } from './recording-helpers.js';
import { createRelayingProxy } from './relaying-proxy.js';

type RelayingProxy = ReturnType<typeof createRelayingProxy>;

/** Runs a follow-up of p-alice to its end, so the record's latest generation is an ended build. */
async function recordEndedBuild(proxied: RelayingProxy) {
  const followUp = await proxied.post('/agent/generate/p-alice');
  const stream = proxied.streams.at(-1)!;
  stream.event({ type: 'file_created', path: 'src/Old.tsx' });
  await proxied.endUpstream(stream);
  await followUp.body?.cancel();
}

const eventsOf = (proxied: RelayingProxy, after?: number) =>
  proxied.proxy(
    new Request(`${appOrigin}${basePath}/projects/p-alice/events${after === undefined ? '' : `?after=${after}`}`),
  );

describe('the events route while a follow-up is on its way to the upstream', () => {
  it('answers a request without an id with nothing, not the ended build, until the change is recorded', async () => {
    const proxied = createRelayingProxy();
    await recordEndedBuild(proxied);
    const before = await eventsOf(proxied);
    expect(before.status).toBe(200);
    expect(await before.text()).toContain('src/Old.tsx');

    const open = proxied.gatePost();
    const followUp = proxied.post('/agent/generate/p-alice');
    await proxied.untilPosted(2);
    expect((await eventsOf(proxied)).status).toBe(204);
    expect((await eventsOf(proxied, 0)).status).toBe(204);
    // The status route tells the same: a build is on its way, whatever the upstream's first status says.
    expect(await proxied.status()).toBe('generating');
    // An id names its generation: a browser finishing the ended build's replay still gets it.
    const resumed = await eventsOf(proxied, 1);
    expect(resumed.status).toBe(200);
    expect(await resumed.text()).toContain('stream_end');

    open();
    const answered = await followUp;
    expect(answered.status).toBe(200);
    const stream = proxied.streams.at(-1)!;
    stream.event({ type: 'file_created', path: 'src/New.tsx' });
    // The change is recorded: a browser without an id follows it.
    const live = await eventsOf(proxied);
    expect(live.status).toBe(200);
    const reader = live.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain('src/New.tsx');
    expect(first).not.toContain('src/Old.tsx');
    await reader.cancel();
    await proxied.endUpstream(stream);
    await answered.body?.cancel();
    // Once the change has ended, it is the latest build and is replayed.
    const replay = await (await eventsOf(proxied)).text();
    expect(replay).toContain('src/New.tsx');
    expect(replay).not.toContain('src/Old.tsx');
  });

  it.each([
    ['refuses the change (no credits)', () => json({ status: false, message: 'Insufficient credits' }, 402)],
    ['fails', () => json({ status: false, message: 'Internal error' }, 500)],
    ['answers 200 with JSON, not a stream', () => json({ status: true, project_id: 'p-alice', extra: 'x' })],
    [
      'answers an event stream under another content type, with odd headers',
      () =>
        new Response('data: {"type":"stream_end","project_id":"p-alice"}\n\n', {
          headers: { 'content-type': 'text/html', 'set-cookie': 'a=1', location: 'https://evil.example' },
        }),
    ],
    ['redirects', () => new Response(null, { status: 307, headers: { location: 'https://evil.example/x' } })],
  ])('lets go of the project when the upstream %s: the ended build is the latest again', async (_, refusal) => {
    const proxied = createRelayingProxy();
    await recordEndedBuild(proxied);
    const open = proxied.gatePost();
    const followUp = proxied.post('/agent/generate/p-alice');
    await proxied.untilPosted(2);
    expect((await eventsOf(proxied)).status).toBe(204);

    open(refusal());
    expect((await followUp).status).toBeGreaterThanOrEqual(400);
    const replay = await eventsOf(proxied);
    expect(replay.status).toBe(200);
    expect(await replay.text()).toContain('src/Old.tsx');
    expect(await proxied.status()).toBe('ready');
  });

  it('lets no other user touch the hold, nor a follow-up with another identity take one', async () => {
    const proxied = createRelayingProxy({
      authorize: (request) => ({ externalUserId: request.headers.get('x-user') ?? 'alice' }),
    });
    await recordEndedBuild(proxied);
    const asBob = (method: string, path: string, body?: unknown) =>
      proxied.proxy(
        new Request(`${appOrigin}${basePath}${path}`, {
          method,
          headers: { 'content-type': 'application/json', 'x-user': 'bob' },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        }),
      );
    // Alice's follow-up naming Bob in its body is refused before anything is held or sent.
    const forged = await proxied.proxy(
      new Request(`${appOrigin}${basePath}/agent/generate/p-alice`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ prompt: 'Add a dark mode toggle please', external_user_id: 'bob' }),
      }),
    );
    expect(forged.status).toBe(403);
    expect((await eventsOf(proxied)).status).toBe(200);

    const open = proxied.gatePost();
    const followUp = proxied.post('/agent/generate/p-alice');
    await proxied.untilPosted(2);
    // Bob reaches nothing of Alice's project while it is held, and sends nothing upstream.
    for (const [method, path] of [
      ['GET', '/projects/p-alice/events'],
      ['GET', '/agent/project/p-alice'],
      ['POST', '/agent/generate/p-alice'],
    ] as const) {
      const response = await asBob(method, path, method === 'POST' ? { prompt: 'Make it red please' } : undefined);
      expect(response.status, path).toBe(404);
    }
    expect(proxied.upstream.calls.filter((call) => call.method === 'POST')).toHaveLength(2);
    // Alice's hold is still on.
    expect((await eventsOf(proxied)).status).toBe(204);
    open(json({ status: false, message: 'Insufficient credits' }, 402));
    await followUp;
    expect((await eventsOf(proxied)).status).toBe(200);
  });

  it('holds the project after the browser left, until the upstream answers (the change may start anyway)', async () => {
    const proxied = createRelayingProxy();
    await recordEndedBuild(proxied);
    const open = proxied.gatePost();
    const leave = new AbortController();
    const followUp = proxied.post('/agent/generate/p-alice', leave.signal);
    await proxied.untilPosted(2);
    leave.abort();
    expect((await eventsOf(proxied)).status).toBe(204);
    open(json({ status: false, message: 'Internal error' }, 500));
    await followUp.catch(() => undefined);
    await expect.poll(async () => (await eventsOf(proxied)).status).toBe(200);
  });

  it('lets go of the project when the upstream never answers, at the headers deadline', async () => {
    const timers = createManualTimers();
    const proxied = createRelayingProxy({ timers, upstreamHeadersTimeoutMs: 30_000 });
    await recordEndedBuild(proxied);
    proxied.gatePost();
    const followUp = proxied.post('/agent/generate/p-alice');
    await proxied.untilPosted(2);
    expect((await eventsOf(proxied)).status).toBe(204);
    timers.fireAll();
    expect((await followUp).status).toBe(504);
    expect((await eventsOf(proxied)).status).toBe(200);
  });

  it('holds the project on every instance that shares the store (relay leases)', async () => {
    // Two proxies over one store with leases stand for two instances (the Redis suite runs leases on a real Redis).
    const memory = createMemoryProxyStore({ owners: { 'p-alice': 'alice' } });
    const leases = new Map<string, Set<string>>();
    const store: ProxyStore = {
      ...memory,
      async holdRelay(projectId, holder) {
        leases.set(projectId, (leases.get(projectId) ?? new Set()).add(holder));
      },
      async releaseRelay(projectId, holder) {
        leases.get(projectId)?.delete(holder);
      },
      async isRelayed(projectId) {
        return (leases.get(projectId)?.size ?? 0) > 0;
      },
    };
    const relaying = createRelayingProxy({ store });
    const other = createRelayingProxy({ store });
    await recordEndedBuild(relaying);
    const open = relaying.gatePost();
    const followUp = relaying.post('/agent/generate/p-alice');
    await relaying.untilPosted(2);
    await expect.poll(async () => (await eventsOf(other)).status).toBe(204);
    open(json({ status: false, message: 'Insufficient credits' }, 402));
    await followUp;
    await expect.poll(async () => (await eventsOf(other)).status).toBe(200);
  });
});
