import { createMockAgentApi, providerAccountOf } from 'agent-embed/mock';
import { describe, expect, it } from 'vitest';
import { callJson, generate } from './mock-helpers.js';

const connectionNotFound = 'Deployment provider connection not found for the provided external user.';

function setup() {
  let time = Date.UTC(2025, 5, 1, 12);
  const api = createMockAgentApi({ speed: 'instant', now: () => time, rateLimit: false });
  return { api, tick: (ms: number) => (time += ms) };
}

describe('mock deployment connections', () => {
  it('connects a provider account and returns the connection in the envelope', async () => {
    const { api } = setup();
    const { status, body } = await callJson(api, 'POST', '/deployments/vercel/connections', {
      body: { external_user_id: 'user-1', token: 'vercel_token_123' },
    });
    expect(status).toBe(201);
    expect(body).toMatchObject({ success: true, errors: null, message: expect.any(String) });
    expect(body.data).toEqual({
      id: expect.any(Number),
      provider: 'vercel',
      provider_name: 'Vercel',
      external_user_id: 'user-1',
      provider_account_id: providerAccountOf('vercel', 'vercel_token_123')!.id,
      provider_account_name: expect.any(String),
      provider_account_email: expect.stringMatching(/@/),
      expires_at: '2025-11-28T12:00:00.000Z',
      last_used_at: '2025-06-01T12:00:00.000Z',
      connected_at: '2025-06-01T12:00:00.000Z',
      updated_at: '2025-06-01T12:00:00.000Z',
      metadata: { slug: expect.any(String) },
    });
    expect(JSON.stringify(body)).not.toContain('vercel_token_123');
    const netlify = await callJson(api, 'POST', '/deployments/netlify/connections', {
      body: { external_user_id: 'user-1', token: 'netlify_token_1' },
    });
    expect(netlify.body.data.provider_name).toBe('Netlify');
  });

  it('answers 404 for an unknown provider on every deployment endpoint', async () => {
    const { api } = setup();
    const notFound = { success: false, message: 'Deployment provider not found.', data: null, errors: null };
    expect(
      await callJson(api, 'POST', '/deployments/heroku/connections', {
        body: { external_user_id: 'u', token: 'valid_token' },
      }),
    ).toMatchObject({ status: 404, body: notFound });
    expect(await callJson(api, 'GET', '/deployments/heroku/connections')).toMatchObject({
      status: 404,
      body: notFound,
    });
    expect(await callJson(api, 'GET', '/deployments/heroku/connections/u')).toMatchObject({
      status: 404,
      body: notFound,
    });
    expect(await callJson(api, 'POST', '/deployments/heroku/project/p/deploy', { body: {} })).toMatchObject({
      status: 404,
      body: notFound,
    });
    expect((await callJson(api, 'GET', '/deployments/__proto__/connections')).status).toBe(404);
  });

  it('validates the body with message and errors', async () => {
    const { api } = setup();
    const { status, body } = await callJson(api, 'POST', '/deployments/vercel/connections', { body: { token: 5 } });
    expect(status).toBe(422);
    expect(body).toEqual({
      message: 'The external user id field is required. (and 1 more error)',
      errors: {
        external_user_id: ['The external user id field is required.'],
        token: ['The token field must be a string.'],
      },
    });
  });

  it('limits external_user_id to 255 characters', async () => {
    const { api } = setup();
    const { status, body } = await callJson(api, 'POST', '/deployments/vercel/connections', {
      body: { external_user_id: 'u'.repeat(256), token: 'valid_token' },
    });
    expect(status).toBe(422);
    expect(body.errors).toEqual({
      external_user_id: ['The external user id field must not be greater than 255 characters.'],
    });
    expect(
      (
        await callJson(api, 'POST', '/deployments/vercel/connections', {
          body: { external_user_id: 'u'.repeat(255), token: 'valid_token' },
        })
      ).status,
    ).toBe(201);
  });

  it('rejects tokens the provider refuses with 422 and data null', async () => {
    const { api } = setup();
    for (const token of ['short', 'bad_token_value']) {
      const { status, body } = await callJson(api, 'POST', '/deployments/vercel/connections', {
        body: { external_user_id: 'u', token },
      });
      expect(status).toBe(422);
      expect(body).toMatchObject({
        success: false,
        data: null,
        message: expect.stringContaining('rejected by Vercel'),
      });
    }
    expect((await callJson(api, 'GET', '/deployments/vercel/connections')).body.data).toEqual([]);
  });

  it('refuses one provider account for two external users of a team (409), but not across teams', async () => {
    const { api } = setup();
    await callJson(api, 'POST', '/deployments/vercel/connections', {
      body: { external_user_id: 'alice', token: 'acme:first-token' },
    });
    const taken = await callJson(api, 'POST', '/deployments/vercel/connections', {
      body: { external_user_id: 'bob', token: 'acme:second-token' },
    });
    expect(taken.status).toBe(409);
    expect(taken.body).toEqual({
      success: false,
      message: 'This deployment provider account is already connected to another external user for this agency.',
      data: null,
      errors: null,
    });
    const otherTeam = api.admin.createToken({ teamId: api.admin.createTeam() });
    expect(
      (
        await callJson(api, 'POST', '/deployments/vercel/connections', {
          token: otherTeam,
          body: { external_user_id: 'bob', token: 'acme:third' },
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await callJson(api, 'POST', '/deployments/netlify/connections', {
          body: { external_user_id: 'bob', token: 'acme:second-token' },
        })
      ).status,
    ).toBe(201);
  });

  it('replaces the connection when the same user reconnects', async () => {
    const { api, tick } = setup();
    const first = await callJson(api, 'POST', '/deployments/vercel/connections', {
      body: { external_user_id: 'alice', token: 'one:secret-1' },
    });
    tick(60_000);
    const second = await callJson(api, 'POST', '/deployments/vercel/connections', {
      body: { external_user_id: 'alice', token: 'two:secret-2' },
    });
    expect(second.status).toBe(200);
    expect(second.body.data.id).toBe(first.body.data.id);
    expect(second.body.data.provider_account_id).not.toBe(first.body.data.provider_account_id);
    expect(second.body.data.connected_at).toBe(first.body.data.connected_at);
    expect(second.body.data.updated_at).not.toBe(first.body.data.updated_at);
    const sameAccount = await callJson(api, 'POST', '/deployments/vercel/connections', {
      body: { external_user_id: 'alice', token: 'two:rotated-secret' },
    });
    expect(sameAccount.status).toBe(200);
    expect(sameAccount.body.data.provider_account_id).toBe(second.body.data.provider_account_id);
    const list = await callJson(api, 'GET', '/deployments/vercel/connections');
    expect(list.body.data).toHaveLength(1);
    // The first account is free again.
    expect(
      (
        await callJson(api, 'POST', '/deployments/vercel/connections', {
          body: { external_user_id: 'bob', token: 'one:secret-1' },
        })
      ).status,
    ).toBe(201);
  });

  it("gets one connection, 404 for a user without one, and lists only the team's connections", async () => {
    const { api } = setup();
    await callJson(api, 'POST', '/deployments/vercel/connections', {
      body: { external_user_id: 'alice', token: 'alice-token' },
    });
    const otherTeam = api.admin.createToken({ teamId: api.admin.createTeam() });
    await callJson(api, 'POST', '/deployments/vercel/connections', {
      token: otherTeam,
      body: { external_user_id: 'carol', token: 'carol-token' },
    });
    expect((await callJson(api, 'GET', '/deployments/vercel/connections/alice')).body.data.external_user_id).toBe(
      'alice',
    );
    expect(await callJson(api, 'GET', '/deployments/vercel/connections/carol')).toMatchObject({
      status: 404,
      body: { success: false, message: connectionNotFound, data: null },
    });
    const list = await callJson(api, 'GET', '/deployments/vercel/connections');
    expect(list.body.data.map((connection: { external_user_id: string }) => connection.external_user_id)).toEqual([
      'alice',
    ]);
  });
});

describe('mock deploy', () => {
  it('attaches the connection of external_user_id automatically, then reuses it', async () => {
    const { api, tick } = setup();
    const projectId = (await generate(api)).events[0]!.project_id as string;
    await callJson(api, 'POST', '/deployments/vercel/connections', {
      body: { external_user_id: 'alice', token: 'alice-token' },
    });
    expect(await callJson(api, 'POST', `/deployments/vercel/project/${projectId}/deploy`, { body: {} })).toMatchObject({
      status: 404,
      body: { message: connectionNotFound },
    });
    expect(
      await callJson(api, 'POST', `/deployments/vercel/project/${projectId}/deploy`, {
        body: { external_user_id: 'bob' },
      }),
    ).toMatchObject({ status: 404, body: { message: connectionNotFound } });
    tick(5000);
    const deployed = await callJson(api, 'POST', `/deployments/vercel/project/${projectId}/deploy`, {
      body: { external_user_id: 'alice' },
    });
    expect(deployed.status).toBe(200);
    expect(deployed.body.success).toBe(true);
    expect(deployed.body.data).toMatchObject({
      deployment_id: expect.stringMatching(/^dpl_/),
      status: 'ready',
      url: expect.stringMatching(/^https:\/\//),
    });
    expect(api.admin.projects()[0]?.deploymentConnections).toEqual({ vercel: expect.any(Number) });
    expect((await callJson(api, 'GET', '/deployments/vercel/connections/alice')).body.data.last_used_at).toBe(
      '2025-06-01T12:00:05.000Z',
    );
    // Linked now: no external_user_id needed.
    expect((await callJson(api, 'POST', `/deployments/vercel/project/${projectId}/deploy`, { body: {} })).status).toBe(
      200,
    );
  });

  it("answers Project not found. for unknown and other teams' projects, and validates the body", async () => {
    const { api } = setup();
    const otherTeam = api.admin.createToken({ teamId: api.admin.createTeam() });
    const theirs = (await generate(api, undefined, undefined, otherTeam)).events[0]!.project_id as string;
    for (const projectId of ['proj_missing', theirs]) {
      expect(
        await callJson(api, 'POST', `/deployments/vercel/project/${projectId}/deploy`, {
          body: { external_user_id: 'alice' },
        }),
      ).toMatchObject({
        status: 404,
        body: { success: false, message: 'Project not found.', data: null },
      });
    }
    expect(
      await callJson(api, 'POST', `/deployments/vercel/project/${theirs}/deploy`, { body: { external_user_id: 7 } }),
    ).toMatchObject({
      status: 422,
      body: { errors: { external_user_id: ['The external user id field must be a string.'] } },
    });
  });
});
