import { createMockAgentApi } from 'agent-embed/mock';
import { describe, expect, it } from 'vitest';
import { call, callJson, generate } from './mock-helpers.js';

describe('mock plans', () => {
  it('lists plans in sort order without payment-processor ids', async () => {
    const api = createMockAgentApi({ speed: 'instant' });
    const { status, body } = await callJson(api, 'GET', '/subscription-plans');
    expect(status).toBe(200);
    expect(body).toMatchObject({ success: true, errors: null });
    expect(body.data.map((plan: { sort_order: number }) => plan.sort_order)).toEqual([1, 2, 3, 4]);
    expect(body.data.map((plan: { name: string }) => plan.name)).toEqual(['Starter', 'Pro', 'Agency', 'Enterprise']);
    const text = JSON.stringify(body);
    expect(text).not.toMatch(/stripe/i);
    expect(text).not.toMatch(/price_mock|prod_mock/);
  });
});

describe('mock pages', () => {
  it('serves an escaped page naming the project at its app_url, under a custom appBaseUrl too', async () => {
    const api = createMockAgentApi({
      speed: 'instant',
      appBaseUrl: 'http://preview.agent-embed.test/sites',
      scenario: { script: () => [{ type: 'file', path: 'src/components/<img src=x onerror=alert(1)>.tsx' }] },
    });
    const stream = await generate(api, { prompt: 'Build a <script>alert(1)</script> tracker app' });
    const appUrl = stream.events[0]!.app_url as string;
    expect(appUrl).toMatch(/^http:\/\/preview\.agent-embed\.test\/sites\/apps\/proj_[0-9a-f]+\/$/);
    const page = await call(api, 'GET', appUrl, { token: null });
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img');
    expect(html).toContain('<h1>Script Alert 1 Script</h1>');
    // The prompt is shown as the page's lead, escaped.
    expect(html).toContain('Build a &#60;script&#62;alert(1)&#60;/script&#62; tracker app');
    expect(
      (await call(api, 'GET', 'http://preview.agent-embed.test/sites/apps/proj_nope/', { token: null })).status,
    ).toBe(404);
  });

  it('serves an index page at the root', async () => {
    const api = createMockAgentApi({ speed: 'instant' });
    const page = await call(api, 'GET', 'http://mock.agent-embed.test/', { token: null });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('http://mock.agent-embed.test/api/v1');
  });
});

describe('mock admin over HTTP', () => {
  const admin = (api: ReturnType<typeof createMockAgentApi>, method: string, action: string, body?: unknown) =>
    callJson(api, method, `/__mock/admin/${action}`, { token: null, ...(body === undefined ? {} : { body }) });

  it('drives credits, suspension, tokens and faults', async () => {
    const api = createMockAgentApi({ speed: 'instant' });
    expect((await admin(api, 'POST', 'credits', { credits: 0 })).body).toEqual({ ok: true, credits: 0 });
    expect(
      (await callJson(api, 'POST', '/agent/generate', { body: { prompt: 'Build a todo app please' } })).status,
    ).toBe(400);
    await admin(api, 'POST', 'credits', { credits: 20 });

    await admin(api, 'POST', 'suspend', {});
    expect((await callJson(api, 'GET', '/subscription-plans')).status).toBe(403);
    await admin(api, 'POST', 'suspend', { suspended: false });
    expect((await callJson(api, 'GET', '/subscription-plans')).status).toBe(200);

    const team = await admin(api, 'POST', 'teams', { credits: 3 });
    expect(team.status).toBe(201);
    const token = (await admin(api, 'POST', 'tokens', { teamId: team.body.teamId, expiresInDays: 30, name: 'ci' })).body
      .token as string;
    expect((await callJson(api, 'GET', '/codehost/connections', { token })).status).toBe(200);
    await admin(api, 'POST', 'tokens/expire', { token });
    expect((await callJson(api, 'GET', '/codehost/connections', { token })).body.message).toBe(
      'API token has expired.',
    );
    const revoked = (await admin(api, 'POST', 'tokens', {})).body.token as string;
    await admin(api, 'POST', 'tokens/revoke', { token: revoked });
    expect((await callJson(api, 'GET', '/codehost/connections', { token: revoked })).body.message).toBe(
      'Unauthorized.',
    );

    expect((await admin(api, 'POST', 'faults', { kind: 'rate_limited', retryAfterSeconds: 3 })).status).toBe(201);
    expect((await admin(api, 'GET', 'faults')).body.faults).toEqual([{ kind: 'rate_limited', retryAfterSeconds: 3 }]);
    expect(
      (await callJson(api, 'POST', '/agent/generate', { body: { prompt: 'Build a todo app please' } })).status,
    ).toBe(429);
    await admin(api, 'POST', 'faults', { kind: 'http_500' });
    await admin(api, 'POST', 'faults/clear');
    expect((await admin(api, 'GET', 'faults')).body.faults).toEqual([]);
  });

  it('reads a team’s credits and tokens, the default team’s without a teamId', async () => {
    const api = createMockAgentApi({ speed: 'instant', credits: 40 });
    const team = (await admin(api, 'POST', 'teams', { credits: 7 })).body.teamId as string;
    await admin(api, 'POST', 'tokens', { teamId: team, name: 'ci' });
    expect((await admin(api, 'GET', 'credits')).body).toEqual({ credits: 40 });
    expect((await admin(api, 'GET', `credits?teamId=${team}`)).body).toEqual({ credits: 7 });
    expect((await admin(api, 'GET', `tokens?teamId=${team}`)).body.tokens).toMatchObject([
      { name: 'ci', teamId: team },
    ]);
    expect((await admin(api, 'GET', 'tokens')).body.tokens).toMatchObject([{ name: 'Development token' }]);
    expect(await admin(api, 'GET', 'credits?teamId=team_nope')).toMatchObject({
      status: 404,
      body: { error: 'Unknown team: team_nope.' },
    });
  });

  it('uses the default token it is given, and refuses one that is not a token', async () => {
    const api = createMockAgentApi({ speed: 'instant', token: 'mock_chosen_token_1' });
    expect(api.token).toBe('mock_chosen_token_1');
    expect((await callJson(api, 'GET', '/subscription-plans', { token: 'mock_chosen_token_1' })).status).toBe(200);
    expect(() => createMockAgentApi({ token: 'has a space' })).toThrow(
      'token must be at least 8 printable ASCII characters, with no space.',
    );
    expect(() => createMockAgentApi({ token: 'short' })).toThrow(TypeError);
  });

  it('answers bad admin input with 400 and unknown things with 404, with CORS for the playground', async () => {
    const api = createMockAgentApi({ speed: 'instant' });
    expect(await admin(api, 'POST', 'faults', { kind: 'explode' })).toMatchObject({
      status: 400,
      body: { error: 'Unknown fault kind: explode.' },
    });
    expect(await admin(api, 'POST', 'credits', { credits: -1 })).toMatchObject({ status: 400 });
    expect(await admin(api, 'POST', 'tokens', { expiresInDays: 45 })).toMatchObject({ status: 400 });
    expect(await admin(api, 'POST', 'credits', { credits: 1, teamId: 'team_nope' })).toMatchObject({ status: 404 });
    expect(await admin(api, 'POST', 'tokens/revoke', { token: 'nope' })).toMatchObject({ status: 404 });
    expect((await admin(api, 'POST', 'does-not-exist', {})).status).toBe(404);
    expect((await callJson(api, 'POST', '/__mock/admin/reset', { token: null, rawBody: '{' })).status).toBe(400);
    const preflight = await call(api, 'OPTIONS', '/__mock/admin/faults', { token: null });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('shows state, projects and requests, and resets everything but the default token', async () => {
    const api = createMockAgentApi({ speed: 'instant', credits: 30 });
    await generate(api);
    const state = await admin(api, 'GET', 'state');
    expect(state.body).toMatchObject({
      defaultTeamId: 'team_default',
      credits: 17,
      requestCount: 2,
      pendingFaults: [],
    });
    expect(state.body.projects).toHaveLength(1);
    expect(state.body.projects[0]).toMatchObject({
      status: 'ready',
      mode: 'build',
      files: expect.arrayContaining(['package.json']),
    });
    expect(JSON.stringify(state.body)).not.toContain(api.token);
    expect((await admin(api, 'GET', 'requests')).body.requests.map((entry: { path: string }) => entry.path)).toEqual([
      '/api/v1/agent/generate',
      '/__mock/admin/state',
      '/__mock/admin/requests',
    ]);

    await admin(api, 'POST', 'reset');
    expect(api.admin.projects()).toEqual([]);
    expect(api.admin.credits()).toBe(30);
    expect(api.admin.requests.map((entry) => entry.path)).toEqual([]);
    expect((await callJson(api, 'GET', '/subscription-plans')).status).toBe(200);
  });
});
