/**
 * Per-end-user quotas: a generation counts when the upstream accepts it, the check and the count are one
 * atomic step, a refusal before the stream starts is given back, the period resets in UTC, and over the
 * limit the proxy answers before anything goes upstream.
 */
import { describe, expect, it, vi } from 'vitest';
import {
  createMemoryProxyStore,
  type AgentProxyOptions,
  type AgentProxyUser,
  type QuotaExceededBody,
} from 'agent-embed/server';
import { createManualTimers, createScriptedProxy, json, type UpstreamCall } from './scripted-upstream.js';

const basePath = '/api/agent';
const users: Record<string, AgentProxyUser> = {
  alice: { externalUserId: 'alice' },
  bob: { externalUserId: 'bob' },
  vip: { externalUserId: 'vip' },
};
const authorize = (request: Request) => users[request.headers.get('x-user') ?? ''] ?? null;

/** An upstream that opens a generation stream (a finished one) unless told otherwise. */
const acceptGeneration = () =>
  new Response(`data: {"type":"stream_end","project_id":"p-new","app_url":"https://p-new.example"}\n\n`, {
    headers: { 'content-type': 'text/event-stream' },
  });

function setup(answer: (call: UpstreamCall) => Response | Promise<Response>, options: Partial<AgentProxyOptions>) {
  return createScriptedProxy(answer, { basePath, authorize, appUrl: 'https://app.example.test', ...options });
}

const generate = (user = 'alice') =>
  new Request(`https://app.example.test${basePath}/agent/generate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-user': user },
    body: JSON.stringify({ prompt: 'A landing page for a bakery' }),
  });
const usageOf = async (proxy: ReturnType<typeof setup>['proxy'], user = 'alice') =>
  (await proxy(new Request(`https://app.example.test${basePath}/usage`, { headers: { 'x-user': user } }))).json();

describe('per-end-user quotas', () => {
  it('lets each user start exactly their limit, then answers 429 quota_exceeded before anything goes upstream', async () => {
    const clock = Date.parse('2026-11-25T15:30:00Z');
    const { proxy, upstream } = setup(acceptGeneration, { quota: { generations: 2, per: 'day' }, now: () => clock });
    for (let index = 0; index < 2; index++) {
      const response = await proxy(generate());
      expect(response.status).toBe(200);
      await response.text();
    }
    const refused = await proxy(generate());
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe(String((Date.parse('2026-11-26T00:00:00Z') - clock) / 1000));
    expect((await refused.json()) satisfies unknown).toEqual({
      status: false,
      message: 'The build limit for this period has been reached.',
      code: 'quota_exceeded',
      used: 2,
      limit: 2,
      resets_at: '2026-11-26T00:00:00.000Z',
      period: 'day',
    } satisfies QuotaExceededBody);
    expect(upstream.calls).toHaveLength(2);
    // Another user has a quota of their own.
    expect((await proxy(generate('bob'))).status).toBe(200);
  });

  it('counts 50 concurrent generates of one user exactly up to the limit', async () => {
    const { proxy, upstream } = setup(acceptGeneration, { quota: { generations: 5, per: 'day' } });
    const statuses = await Promise.all(Array.from({ length: 50 }, async () => (await proxy(generate())).status));
    expect(statuses.filter((status) => status === 200)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(45);
    expect(upstream.calls).toHaveLength(5);
  });

  it.each([
    ['a 422', () => json({ status: false, message: 'The prompt must be at least 10 characters.' }, 422)],
    ['a 500', () => new Response('<html>oops</html>', { status: 500, headers: { 'content-type': 'text/html' } })],
    ['a JSON 200 instead of a stream', () => json({ status: true })],
    [
      'an unreachable upstream',
      () => {
        throw new TypeError('fetch failed');
      },
    ],
  ])('gives a generation back when the upstream refuses it before starting (%s)', async (_, refuse) => {
    let refusing = true;
    const { proxy, upstream } = setup(() => (refusing ? refuse() : acceptGeneration()), {
      quota: { generations: 1, per: 'day' },
    });
    expect((await proxy(generate())).status).not.toBe(200);
    expect(await usageOf(proxy)).toMatchObject({ used: 0, limit: 1 });
    refusing = false;
    expect((await proxy(generate())).status).toBe(200);
    expect(await usageOf(proxy)).toMatchObject({ used: 1, limit: 1 });
    expect(upstream.calls).toHaveLength(2);
  });

  it('keeps a generation counted when the upstream took it but sent no headers in time: it may have started', async () => {
    const timers = createManualTimers();
    let hanging = true;
    const { proxy, upstream } = setup(acceptGeneration, {
      quota: { generations: 2, per: 'day' },
      timers,
      // Holds the request until the headers deadline aborts it, as a busy upstream does.
      fetch: async (input, init) => {
        if (!hanging) return upstream.fetch(input, init);
        return new Promise<Response>((_, reject) => {
          init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
        });
      },
    });
    const answer = proxy(generate());
    await vi.waitFor(() => expect(timers.pending()).toBeGreaterThan(0));
    timers.fireAll();
    const refused = await answer;
    expect(refused.status).toBe(504);
    expect(await usageOf(proxy)).toMatchObject({ used: 1, limit: 2 });
    hanging = false;
    expect((await proxy(generate())).status).toBe(200);
    expect((await proxy(generate())).status).toBe(429);
  });

  it('resets at the end of the period, in UTC, for days, weeks, months and seconds', async () => {
    const cases: [AgentProxyOptions['quota'], string, string][] = [
      [{ generations: 1, per: 'day' }, '2026-11-25T23:59:59Z', '2026-11-26T00:00:00.000Z'],
      [{ generations: 1, per: 'week' }, '2026-11-25T12:00:00Z', '2026-11-30T00:00:00.000Z'],
      [{ generations: 1, per: 'month' }, '2026-12-31T12:00:00Z', '2027-01-01T00:00:00.000Z'],
      [{ generations: 1, per: 3600 }, '2026-11-25T12:20:00Z', '2026-11-25T13:00:00.000Z'],
    ];
    for (const [quota, start, resetsAt] of cases) {
      let clock = Date.parse(start);
      const { proxy } = setup(acceptGeneration, { ...(quota ? { quota } : {}), now: () => clock });
      expect((await proxy(generate())).status).toBe(200);
      expect((await proxy(generate())).status).toBe(429);
      expect(await usageOf(proxy)).toMatchObject({ used: 1, resets_at: resetsAt });
      clock = Date.parse(resetsAt) - 1;
      expect((await proxy(generate())).status).toBe(429);
      clock = Date.parse(resetsAt);
      expect((await proxy(generate())).status).toBe(200);
    }
  });

  it('takes a limit per end user from a function (undefined: no limit), and reports usage to the agency', async () => {
    const { proxy, upstream } = setup(acceptGeneration, {
      quota: (user) => (user.externalUserId === 'vip' ? undefined : { generations: 1, per: 'week' }),
    });
    for (let index = 0; index < 3; index++) expect((await proxy(generate('vip'))).status).toBe(200);
    expect(await usageOf(proxy, 'vip')).toEqual({ status: true, used: 0, limit: null, resets_at: null, period: null });
    expect((await proxy(generate('alice'))).status).toBe(200);
    expect((await proxy(generate('alice'))).status).toBe(429);
    expect(await proxy.usage('alice')).toMatchObject({ used: 1, limit: 1, period: 'week' });
    expect(upstream.calls).toHaveLength(4);
  });

  it('reports a misspelt fixed limit once, as unusable options, and sends nothing upstream', async () => {
    for (const quota of [
      { limit: 1, period: 'day' },
      { generations: -1, per: 'day' },
      { generations: 1, per: 'year' },
    ]) {
      const { proxy, upstream, logs } = setup(acceptGeneration, { quota: quota as never });
      expect((await proxy(generate())).status).toBe(500);
      expect((await proxy(generate())).status).toBe(500);
      expect(logs).toEqual([
        expect.objectContaining({
          event: 'invalid_options',
          reason: 'quota must give { generations, per } or undefined.',
        }),
      ]);
      expect(upstream.calls).toHaveLength(0);
    }
  });

  it('spends none of the team’s budget on a generation refused for the quota', async () => {
    const { proxy, upstream } = setup(acceptGeneration, {
      quota: { generations: 1, per: 'day' },
      rateLimit: { limit: 2, windowMs: 60_000, burst: 2 },
    });
    expect((await proxy(generate('alice'))).status).toBe(200);
    for (let index = 0; index < 5; index++) expect((await proxy(generate('alice'))).status).toBe(429);
    // The team's second slot is still free for another end user.
    expect((await proxy(generate('bob'))).status).toBe(200);
    expect(upstream.calls).toHaveLength(2);
  });

  it('answers with the refusal that called for a give-back when the store fails to give it back, and logs that', async () => {
    const logs: { event: string; reason?: string }[] = [];
    const store = createMemoryProxyStore();
    const { proxy, upstream } = setup(acceptGeneration, {
      quota: { generations: 5, per: 'day' },
      rateLimit: { limit: 1, windowMs: 60_000, burst: 1 },
      store: {
        ...store,
        returnQuota: async () => {
          throw new Error('the store is gone');
        },
      },
      onLog: (entry) => void logs.push(entry),
    });
    expect((await proxy(generate('alice'))).status).toBe(200);
    // The team's budget refuses the next one: its quota is given back, which the store fails.
    const refused = await proxy(generate('alice'));
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { message: string }).message).toBe('Too Many Attempts.');
    expect(logs).toContainEqual(
      expect.objectContaining({ event: 'internal_error', reason: 'quota not given back: Error: the store is gone' }),
    );
    expect(upstream.calls).toHaveLength(1);
  });

  it('answers the usage route with no quota set, and refuses it without a session', async () => {
    const { proxy } = setup(acceptGeneration, {});
    expect(await usageOf(proxy)).toEqual({ status: true, used: 0, limit: null, resets_at: null, period: null });
    const anonymous = await proxy(new Request(`https://app.example.test${basePath}/usage`));
    expect(anonymous.status).toBe(401);
  });
});
