/** The team budget and the team-wide answers, through the proxy on a simulated clock and a scripted upstream. */
import { describe, expect, it } from 'vitest';
import {
  createAgentProxy,
  createMemoryProxyStore,
  type AgentProxyOptions,
  type ProxyLogEntry,
} from 'agent-embed/server';
import {
  createScriptedUpstream,
  fakeToken,
  json,
  specAnswer,
  upstreamBase,
  type UpstreamCall,
} from './scripted-upstream.js';

function setup(answer: (call: UpstreamCall) => Response, options: Partial<AgentProxyOptions> = {}) {
  const upstream = createScriptedUpstream(answer);
  const logs: ProxyLogEntry[] = [];
  const store = createMemoryProxyStore();
  const proxy = createAgentProxy({
    apiBaseUrl: upstreamBase,
    apiToken: fakeToken,
    // The session names the user in a cookie, as a real app would check a signed one.
    authorize: (request) => {
      const user = /(?:^|;\s*)session=([^;]+)/.exec(request.headers.get('cookie') ?? '')?.[1];
      return user === undefined ? null : { externalUserId: user };
    },
    fetch: upstream.fetch,
    store,
    onLog: (entry) => logs.push(entry),
    ...options,
  });
  return { proxy, upstream, logs, store };
}

function call(method: string, path: string, init: { user: string }): Request {
  return new Request(`http://app.test${path}`, { method, headers: { cookie: `session=${init.user}` } });
}

async function bodyOf(response: Response): Promise<unknown> {
  return JSON.parse(await response.text());
}

describe('the team budget through the proxy', () => {
  it('lets one user use the window in a burst and then spread, and gives the next slot to a waiting user', async () => {
    let clock = 0;
    const { proxy } = setup(specAnswer, {
      now: () => clock,
      rateLimit: { limit: 10, windowMs: 60_000 },
    });
    const read = (user: string) =>
      proxy(call('GET', `/codehost/connections/${user}`, { user })).then((response) => response.status);
    const alice: number[] = [];
    for (let index = 0; index < 5; index++) alice.push(await read('alice'));
    // A burst of a quarter of the limit, then one slot every 6 s on average.
    expect(alice).toEqual([200, 200, 200, 429, 429]);
    clock = 1_000;
    expect(await read('bob')).toBe(429);
    clock = 18_000;
    // Three slots free; alice asks first and takes two, but the third is kept for bob, who waits and was
    // served less recently.
    expect([await read('alice'), await read('alice'), await read('alice')]).toEqual([200, 200, 429]);
    expect(await read('bob')).toBe(200);
    expect(await read('alice')).toBe(429);
  });

  it('by default budgets every endpoint, as the spec says the rate covers all of them', async () => {
    const clock = 0;
    const { proxy, upstream, store } = setup(specAnswer, {
      now: () => clock,
      statusCacheMs: 0,
      rateLimit: { limit: 2, windowMs: 60_000, burst: 2 },
    });
    expect((await proxy(call('GET', '/codehost/connections/alice', { user: 'alice' }))).status).toBe(200);
    expect((await proxy(call('GET', '/deployments/vercel/connections/alice', { user: 'alice' }))).status).toBe(200);
    await store.setProjectOwner('p-budget', 'alice');
    expect((await proxy(call('GET', '/agent/project/p-budget', { user: 'alice' }))).status).toBe(429);
    expect(upstream.calls).toHaveLength(2);
  });

  it("with scope 'agent' budgets only generate, follow-up and status", async () => {
    const clock = 0;
    const { proxy, upstream, store } = setup(specAnswer, {
      now: () => clock,
      statusCacheMs: 0,
      rateLimit: { limit: 2, windowMs: 60_000, burst: 2, scope: 'agent' },
    });
    for (let index = 0; index < 5; index++)
      expect((await proxy(call('GET', '/codehost/connections/alice', { user: 'alice' }))).status).toBe(200);
    for (const projectId of ['p-budget', 'p-budget-2']) {
      await store.setProjectOwner(projectId, 'alice');
      expect((await proxy(call('GET', `/agent/project/${projectId}`, { user: 'alice' }))).status).toBe(200);
    }
    await store.setProjectOwner('p-budget-3', 'alice');
    expect((await proxy(call('GET', '/agent/project/p-budget-3', { user: 'alice' }))).status).toBe(429);
    expect(upstream.calls).toHaveLength(7);
  });

  it('reads the subscription plans once per teamAnswersCacheMs for every user, one request for concurrent readers', async () => {
    let clock = 0;
    const { proxy, upstream, logs } = setup(() => json({ success: true, data: [{ id: 'pro' }] }), {
      now: () => clock,
      rateLimit: { limit: 10, windowMs: 60_000 },
      teamAnswersCacheMs: 30_000,
    });
    const plans = (user: string) => proxy(call('GET', '/subscription-plans', { user }));
    const first = await Promise.all(['alice', 'bob', 'alice'].map(plans));
    expect(first.map((response) => response.status)).toEqual([200, 200, 200]);
    expect(await bodyOf(first[1] as Response)).toEqual({
      success: true,
      message: '',
      data: [{ id: 'pro' }],
      errors: null,
    });
    clock = 29_999;
    expect((await plans('carol')).status).toBe(200);
    expect(upstream.calls).toHaveLength(1);
    const served = logs.filter((entry) => entry.route === 'listPlans' && entry.event === 'request');
    expect(served.map((entry) => entry.cache)).toEqual(['miss', 'coalesced', 'coalesced', 'hit']);
    clock = 30_000;
    expect((await plans('carol')).status).toBe(200);
    expect(upstream.calls).toHaveLength(2);
  });

  it('does not keep a failed plans answer', async () => {
    let status = 500;
    const { proxy, upstream } = setup(
      () =>
        status === 500
          ? json({ success: false, message: 'Server Error' }, status)
          : json({ success: true, message: 'ok', data: [], errors: null }),
      {
        rateLimit: false,
      },
    );
    expect((await proxy(call('GET', '/subscription-plans', { user: 'alice' }))).status).toBe(500);
    status = 200;
    expect((await proxy(call('GET', '/subscription-plans', { user: 'alice' }))).status).toBe(200);
    expect((await proxy(call('GET', '/subscription-plans', { user: 'bob' }))).status).toBe(200);
    expect(upstream.calls).toHaveLength(2);
  });
});
