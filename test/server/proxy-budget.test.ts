/**
 * The proxy keeps the agency under the upstream rate limit, over real HTTP on 127.0.0.1: the library's
 * client -> the proxy -> the mock Agent API enforcing the spec's limit of 10 requests per minute.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { isAgentApiError, type AgentApiError } from 'agent-embed/core';
import { rawRequest, sessionCookie, startMockStack, basePath } from './proxy-stack.js';

const prompt = 'A landing page for a neighbourhood bakery';
const cleanup: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const close of cleanup.splice(0).reverse()) await close();
});

async function outcome<T>(promise: Promise<T>): Promise<{ ok: true; value: T } | { ok: false; error: AgentApiError }> {
  try {
    return { ok: true, value: await promise };
  } catch (thrown) {
    if (!isAgentApiError(thrown)) throw thrown;
    return { ok: false, error: thrown };
  }
}

describe('request budget', () => {
  it('serves 30 concurrent status polls of one project with one upstream request', async () => {
    // A frozen clock: the cache cannot expire mid-test, so the count does not depend on timing.
    const stack = await startMockStack({
      mock: { rateLimit: { limit: 10, windowMs: 60_000 } },
      proxy: { now: () => 1_000_000 },
    });
    cleanup.push(stack.close);
    const alice = stack.client('alice');
    const run = await alice.generate({ prompt });
    const projectId = run.projectId ?? '';
    const projects = await Promise.all(Array.from({ length: 30 }, () => alice.getProject(projectId)));
    expect(projects.map((project) => project.project_id)).toEqual(Array(30).fill(projectId));
    expect(projects.every((project) => project.project_status === 'ready')).toBe(true);
    const polls = stack.mock.api.admin.requests.filter(
      (request) => request.method === 'GET' && request.path === `/api/v1/agent/project/${projectId}`,
    );
    expect(polls).toHaveLength(1);
    const served = stack.logs.filter((entry) => entry.route === 'getProject' && entry.event === 'request');
    expect(served.filter((entry) => entry.cache === 'miss')).toHaveLength(1);
    expect(served.filter((entry) => entry.cache === 'hit' || entry.cache === 'coalesced')).toHaveLength(29);
  });

  it('answers a burst over the budget with 429 and Retry-After, so the upstream never sees a 429', async () => {
    // Both count every endpoint; the proxy may send the whole window at once here.
    const stack = await startMockStack({
      mock: { rateLimit: { limit: 10, windowMs: 60_000, scope: 'all' } },
      proxy: { rateLimit: { limit: 10, windowMs: 60_000, burst: 10 } },
    });
    cleanup.push(stack.close);
    const alice = stack.client('alice');
    const burst = await Promise.all(Array.from({ length: 15 }, () => outcome(alice.codehost.listConnections())));
    const refused = burst.flatMap((result) => (result.ok ? [] : [result.error]));
    expect(burst.filter((result) => result.ok)).toHaveLength(10);
    expect(refused).toHaveLength(5);
    for (const error of refused) {
      expect(error.kind).toBe('rate_limited');
      expect(error.message).toBe('Too Many Attempts.');
      expect(error.retryAfterMs).toBeGreaterThan(55_000);
    }
    const raw = await rawRequest(stack.origin, 'GET', `${basePath}/codehost/connections`, {
      headers: { cookie: sessionCookie('bob') },
    });
    expect(raw.status).toBe(429);
    expect(Number(raw.headers['retry-after'])).toBeGreaterThan(55);
    expect(raw.headers['access-control-expose-headers']).toBe('Retry-After');
    expect(JSON.parse(raw.body)).toEqual({ success: false, message: 'Too Many Attempts.', data: null, errors: null });
    expect(stack.upstream).toHaveLength(10);
    expect(stack.upstream.map((exchange) => exchange.status)).not.toContain(429);
    expect(stack.mock.api.admin.requests).toHaveLength(10);
  });

  it('spreads a lone user past the first burst instead of spending the window at once', async () => {
    const stack = await startMockStack({
      mock: { rateLimit: { limit: 10, windowMs: 60_000, scope: 'all' } },
      proxy: { rateLimit: { limit: 10, windowMs: 60_000 } },
    });
    cleanup.push(stack.close);
    const alice = stack.client('alice');
    const burst = await Promise.all(Array.from({ length: 5 }, () => outcome(alice.codehost.listConnections())));
    expect(burst.filter((result) => result.ok)).toHaveLength(3);
    for (const result of burst) if (!result.ok) expect(result.error.retryAfterMs).toBeLessThanOrEqual(18_000);
    expect(stack.mock.api.admin.requests).toHaveLength(3);
  });

  it('passes an upstream 429 through with its Retry-After, then holds further requests back itself', async () => {
    // The upstream allows less than the proxy thinks (another service shares the token).
    const stack = await startMockStack({
      mock: { rateLimit: { limit: 2, windowMs: 60_000, scope: 'all' } },
      proxy: { rateLimit: { limit: 10, windowMs: 60_000, scope: 'all' } },
    });
    cleanup.push(stack.close);
    const alice = stack.client('alice');
    expect((await outcome(alice.codehost.listConnections())).ok).toBe(true);
    expect((await outcome(alice.codehost.listConnections())).ok).toBe(true);
    const passed = await rawRequest(stack.origin, 'GET', `${basePath}/codehost/connections`, {
      headers: { cookie: sessionCookie('alice') },
    });
    expect(passed.status).toBe(429);
    expect(JSON.parse(passed.body)).toEqual({ status: false, message: 'Too Many Attempts.' });
    const upstreamRetryAfter = Number(passed.headers['retry-after']);
    expect(upstreamRetryAfter).toBeGreaterThan(0);
    expect(passed.headers['access-control-expose-headers']).toBe('Retry-After');
    const held = await outcome(stack.client('bob').codehost.listConnections());
    expect(held.ok).toBe(false);
    if (!held.ok) expect(held.error.retryAfterMs).toBeLessThanOrEqual(upstreamRetryAfter * 1000);
    expect(stack.mock.api.admin.requests).toHaveLength(3);
    expect(stack.logs.filter((entry) => entry.event === 'upstream_rate_limited')).toHaveLength(1);
  });
});
