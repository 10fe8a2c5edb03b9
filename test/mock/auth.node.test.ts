import { createMockAgentApi } from 'agent-embed/mock';
import { describe, expect, it } from 'vitest';
import { call, callJson, generate } from './mock-helpers.js';

const day = 24 * 60 * 60 * 1000;

describe('mock authentication', () => {
  it('refuses a missing, malformed or unknown token with 401 Unauthorized. in the agent shape', async () => {
    const api = createMockAgentApi({ speed: 'instant' });
    for (const options of [
      { token: null },
      { token: 'mock_not_a_token' },
      { token: null, headers: { authorization: 'Basic abc' } },
    ] as const) {
      const { status, body } = await callJson(api, 'GET', '/agent/project/proj_x', options);
      expect(status).toBe(401);
      expect(body).toEqual({ status: false, message: 'Unauthorized.' });
    }
  });

  it('answers deployment and code-host endpoints in the envelope shape', async () => {
    const api = createMockAgentApi({ speed: 'instant' });
    for (const path of ['/deployments/vercel/connections', '/codehost/connections', '/subscription-plans']) {
      const { status, body } = await callJson(api, 'GET', path, { token: 'nope' });
      expect(status).toBe(401);
      expect(body).toEqual({ success: false, message: 'Unauthorized.', data: null, errors: null });
    }
  });

  it('expires 30, 60 and 90-day tokens on the injected clock, and never a no-expiry one', async () => {
    let time = Date.UTC(2025, 3, 1);
    const api = createMockAgentApi({ speed: 'instant', now: () => time, rateLimit: false });
    const tokens = {
      30: api.admin.createToken({ expiresInDays: 30 }),
      60: api.admin.createToken({ expiresInDays: 60 }),
      90: api.admin.createToken({ expiresInDays: 90 }),
      never: api.admin.createToken({ expiresInDays: null, name: 'forever' }),
    };
    const statusOf = async (token: string) => (await callJson(api, 'GET', '/subscription-plans', { token })).status;
    expect(await statusOf(tokens[30])).toBe(200);

    time += 30 * day - 1;
    expect(await statusOf(tokens[30])).toBe(200);
    time += 1;
    const expired = await callJson(api, 'GET', '/agent/project/proj_x', { token: tokens[30] });
    expect(expired.status).toBe(401);
    expect(expired.body).toEqual({ status: false, message: 'API token has expired.' });
    expect(await statusOf(tokens[60])).toBe(200);

    time += 30 * day;
    expect(await statusOf(tokens[60])).toBe(401);
    expect(await statusOf(tokens[90])).toBe(200);
    time += 30 * day;
    expect(await statusOf(tokens[90])).toBe(401);
    time += 10_000 * day;
    expect(await statusOf(tokens.never)).toBe(200);

    const listed = api.admin.tokens();
    expect(listed.find((token) => token.name === 'forever')).toMatchObject({
      expiresAt: 'Never',
      status: 'Active',
      maskedValue: expect.stringMatching(new RegExp(`${tokens.never.slice(-4)}$`)),
    });
    expect(listed.filter((token) => token.status === 'Expired')).toHaveLength(3);
    expect(JSON.stringify(listed)).not.toContain(tokens.never);
  });

  it('revokes immediately and expires on demand', async () => {
    const api = createMockAgentApi({ speed: 'instant' });
    const revoked = api.admin.createToken();
    const expired = api.admin.createToken();
    expect((await callJson(api, 'GET', '/codehost/connections', { token: revoked })).status).toBe(200);
    api.admin.revokeToken(revoked);
    api.admin.expireToken(expired);
    expect(await callJson(api, 'GET', '/codehost/connections', { token: revoked })).toMatchObject({
      status: 401,
      body: { message: 'Unauthorized.' },
    });
    expect(await callJson(api, 'GET', '/codehost/connections', { token: expired })).toMatchObject({
      status: 401,
      body: { message: 'API token has expired.' },
    });
    expect(api.admin.tokens().some((token) => token.maskedValue.endsWith(revoked.slice(-4)))).toBe(false);
  });

  it('refuses a suspended team with 403 and lets it back in when reinstated', async () => {
    const api = createMockAgentApi({ speed: 'instant' });
    api.admin.suspendTeam();
    expect(await callJson(api, 'GET', '/agent/project/proj_x')).toEqual(
      expect.objectContaining({ status: 403, body: { status: false, message: 'This team is currently suspended.' } }),
    );
    expect((await callJson(api, 'GET', '/deployments/vercel/connections')).body).toEqual({
      success: false,
      message: 'This team is currently suspended.',
      data: null,
      errors: null,
    });
    const other = api.admin.createTeam({ credits: 5 });
    expect(
      (await callJson(api, 'GET', '/subscription-plans', { token: api.admin.createToken({ teamId: other }) })).status,
    ).toBe(200);
    api.admin.suspendTeam(undefined, false);
    expect((await callJson(api, 'GET', '/agent/project/proj_x')).status).toBe(404);
  });
});

describe('mock rate limit', () => {
  it('allows 10 agent requests per rolling minute per token, then 429 with Retry-After (scope agent)', async () => {
    let time = 1_000_000;
    const api = createMockAgentApi({
      speed: 'instant',
      now: () => time,
      rateLimit: { limit: 10, windowMs: 60_000, scope: 'agent' },
    });
    for (let index = 0; index < 10; index++) {
      const response = await call(api, 'GET', '/agent/project/proj_missing');
      expect(response.status).toBe(404);
      expect(response.headers.get('x-ratelimit-remaining')).toBe(String(9 - index));
      time += 1000;
    }
    const limited = await callJson(api, 'POST', '/agent/generate', { body: { prompt: 'Build a todo app please' } });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ status: false, message: 'Too Many Attempts.' });
    // The first hit was at 1,000,000; it leaves the window at 1,060,000, 50 s from now.
    expect(limited.headers.get('retry-after')).toBe('50');

    const other = api.admin.createToken();
    expect((await callJson(api, 'GET', '/agent/project/proj_missing', { token: other })).status).toBe(404);
    expect((await callJson(api, 'GET', '/codehost/connections')).status).toBe(200);

    time = 1_060_000;
    expect((await callJson(api, 'GET', '/agent/project/proj_missing')).status).toBe(404);
    expect((await callJson(api, 'GET', '/agent/project/proj_missing')).status).toBe(429);
  });

  it('takes a custom window, covers every endpoint with scope all, and can be disabled', async () => {
    const small = createMockAgentApi({ speed: 'instant', rateLimit: { limit: 2, windowMs: 5000, scope: 'all' } });
    expect((await callJson(small, 'GET', '/codehost/connections')).status).toBe(200);
    expect((await callJson(small, 'GET', '/subscription-plans')).status).toBe(200);
    const limited = await callJson(small, 'GET', '/codehost/connections');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(5);

    const open = createMockAgentApi({ speed: 'instant', rateLimit: false });
    for (let index = 0; index < 25; index++) expect((await callJson(open, 'GET', '/agent/project/p')).status).toBe(404);
  });

  it('does not count requests that fail authentication', async () => {
    const api = createMockAgentApi({ speed: 'instant', rateLimit: { limit: 1, windowMs: 60_000 } });
    for (let index = 0; index < 5; index++) await call(api, 'GET', '/agent/project/p', { token: 'wrong' });
    expect((await generate(api)).status).toBe(200);
    expect((await generate(api)).status).toBe(429);
  });
});

describe('mock routing', () => {
  it('answers unknown paths with 404 JSON and known paths with the wrong method with 405', async () => {
    const api = createMockAgentApi({ speed: 'instant' });
    expect(await callJson(api, 'GET', '/agent/nothing-here', { token: null })).toMatchObject({
      status: 404,
      body: { message: 'Not found.' },
    });
    expect((await callJson(api, 'GET', '/nothing', { token: null })).status).toBe(404);
    const wrongMethod = await callJson(api, 'GET', '/agent/generate');
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('POST');
  });

  it('decodes path parameters', async () => {
    const api = createMockAgentApi({ speed: 'instant' });
    const { body } = await callJson(api, 'GET', `/codehost/connections/${encodeURIComponent('user 1@example.com')}`);
    expect(body.message).toBe('code-host connection not found for the provided external user');
    expect((await callJson(api, 'GET', '/codehost/connections/%E0%A4%A')).status).toBe(404);
  });

  it('logs every request it receives', async () => {
    const api = createMockAgentApi({ speed: 'instant' });
    await generate(api);
    await call(api, 'GET', '/subscription-plans?x=1');
    expect(api.admin.requests.map(({ method, path }) => `${method} ${path}`)).toEqual([
      'POST /api/v1/agent/generate',
      'GET /api/v1/subscription-plans',
    ]);
  });
});
