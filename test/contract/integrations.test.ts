import { describe, expect, it } from 'vitest';
import { completeInstall, expectApiError, useHarness } from './contract-helpers.js';

const prompt = 'Build a recipe sharing app';
const user = {
  external_user_id: 'user-1',
  external_user_name: 'Ada Lovelace',
  external_user_email: 'ada@example.com',
  return_url: 'https://agency.example/return?to=repos',
};
const h = useHarness();

async function connectCodehost(input = user): Promise<void> {
  const started = await h.client.codehost.startConnect(input);
  const returned = await completeInstall(started.redirect_url);
  expect(returned.status).toBe(302);
  expect(returned.headers.get('location')).toBe(input.return_url);
}

describe('contract: deployments', () => {
  it('connect, get, list and deploy with automatic attachment', async () => {
    const connection = await h.client.deployments.connect('vercel', {
      external_user_id: 'user-1',
      token: 'vercel_personal_token',
    });
    expect(connection).toMatchObject({
      provider: 'vercel',
      provider_name: 'Vercel',
      external_user_id: 'user-1',
      // Strings, as the spec's table types them: the token was used when it was checked at connecting.
      expires_at: expect.any(String),
      metadata: { slug: expect.any(String) },
    });
    expect(connection.last_used_at).toBe(connection.connected_at);
    expect(await h.client.deployments.getConnection('vercel', 'user-1')).toEqual(connection);
    expect(await h.client.deployments.listConnections('vercel')).toEqual([connection]);
    expect(await h.client.deployments.listConnections('netlify')).toEqual([]);

    const { projectId } = await h.client.generate({ prompt });
    const deployment = await h.client.deployments.deploy('vercel', projectId!, { external_user_id: 'user-1' });
    expect(deployment).toMatchObject({
      deployment_id: expect.any(String),
      status: 'ready',
      url: expect.stringMatching(/^https:\/\//),
    });
    const used = (await h.client.deployments.getConnection('vercel', 'user-1')).last_used_at;
    expect(Date.parse(used ?? '')).toBeGreaterThanOrEqual(Date.parse(connection.connected_at));
    expect((await h.client.deployments.deploy('vercel', projectId!)).status).toBe('ready');
  });

  it('every deployment failure: unknown provider, conflict, not found, provider rejection, validation, project', async () => {
    await expectApiError(h.client.deployments.connect('heroku', { external_user_id: 'u', token: 'long_enough' }), {
      kind: 'not_found',
      status: 404,
      message: 'Deployment provider not found.',
    });
    await expectApiError(h.client.deployments.listConnections('heroku'), {
      kind: 'not_found',
      status: 404,
      message: 'Deployment provider not found.',
    });
    await h.client.deployments.connect('netlify', { external_user_id: 'alice', token: 'shared:one' });
    await expectApiError(h.client.deployments.connect('netlify', { external_user_id: 'bob', token: 'shared:two' }), {
      kind: 'conflict',
      status: 409,
      message: 'This deployment provider account is already connected to another external user for this agency.',
    });
    await expectApiError(h.client.deployments.getConnection('netlify', 'bob'), {
      kind: 'not_found',
      status: 404,
      message: 'Deployment provider connection not found for the provided external user.',
    });
    const rejected = await expectApiError(
      h.client.deployments.connect('netlify', { external_user_id: 'bob', token: 'bad_token_123' }),
      { kind: 'validation', status: 422 },
    );
    expect(rejected.message).toContain('rejected by Netlify');
    await expectApiError(h.client.deployments.connect('netlify', { external_user_id: '', token: '' }), {
      kind: 'validation',
      status: 422,
      message: 'The external user id field is required. (and 1 more error)',
      fieldErrors: {
        external_user_id: ['The external user id field is required.'],
        token: ['The token field is required.'],
      },
    });
    await expectApiError(h.client.deployments.deploy('netlify', 'proj_missing', { external_user_id: 'alice' }), {
      kind: 'not_found',
      status: 404,
      message: 'Project not found.',
    });
    const { projectId } = await h.client.generate({ prompt });
    await expectApiError(h.client.deployments.deploy('netlify', projectId!, { external_user_id: 'bob' }), {
      kind: 'not_found',
      status: 404,
      message: 'Deployment provider connection not found for the provided external user.',
    });
  });

  it('auth failures in the envelope shape map to the same kinds', async () => {
    await expectApiError(h.clientWith('nope').deployments.listConnections('vercel'), {
      kind: 'unauthorized',
      status: 401,
      message: 'Unauthorized.',
    });
    const expired = h.server.api.admin.createToken({ expiresInDays: 60 });
    h.server.api.admin.expireToken(expired);
    await expectApiError(h.clientWith(expired).codehost.listConnections(), {
      kind: 'token_expired',
      status: 401,
      message: 'API token has expired.',
    });
    h.server.api.admin.suspendTeam();
    await expectApiError(h.client.plans.list(), {
      kind: 'suspended',
      status: 403,
      message: 'This team is currently suspended.',
    });
  });
});

describe('contract: code host', () => {
  it('start, install page, callback redirect, get and list', async () => {
    const started = await h.client.codehost.startConnect(user);
    expect(started.redirect_url).toBe(
      `${h.server.url.replace('/api/v1', '')}/__mock/codehost/install?state=${started.state}`,
    );
    await expectApiError(h.client.codehost.getConnection('user-1'), {
      kind: 'not_found',
      status: 404,
      message: 'code-host connection not found for the provided external user',
    });
    const returned = await completeInstall(started.redirect_url);
    expect(returned.status).toBe(302);
    expect(returned.headers.get('location')).toBe(user.return_url);

    const connection = await h.client.codehost.getConnection('user-1');
    expect(connection).toMatchObject({
      external_user_id: 'user-1',
      codehost_login: 'ada-lovelace',
      user_authorized: true,
      installation_status: 'active',
    });
    const list = await h.client.codehost.listConnections();
    expect(list).toHaveLength(1);
    expect(list[0]?.installation_id).toBe(connection.installation_id);
  });

  it('validates the start body', async () => {
    await expectApiError(
      h.client.codehost.startConnect({
        ...user,
        external_user_email: 'not-an-email',
        return_url: 'javascript:alert(1)',
      }),
      {
        kind: 'validation',
        status: 422,
        fieldErrors: {
          external_user_email: ['The external user email field must be a valid email address.'],
          return_url: ['The return url field must be a valid URL.'],
        },
      },
    );
  });

  it('lists repositories with meta and enforces the page bounds', async () => {
    await connectCodehost();
    const firstPage = await h.client.codehost.listRepositories('user-1');
    expect(firstPage.meta).toEqual({ total_count: 47, page: 1, per_page: 30 });
    expect(firstPage.items).toHaveLength(30);
    const big = await h.client.codehost.listRepositories('user-1', { page: 1, per_page: 100 });
    expect(big.items).toHaveLength(47);
    expect(big.meta.per_page).toBe(100);
    expect((await h.client.codehost.listRepositories('user-1', { page: 2, per_page: 40 })).items).toHaveLength(7);
    await expectApiError(h.client.codehost.listRepositories('user-1', { page: 0 }), {
      kind: 'validation',
      status: 422,
      fieldErrors: { page: ['The page field must be at least 1.'] },
    });
    await expectApiError(h.client.codehost.listRepositories('user-1', { per_page: 0 }), {
      kind: 'validation',
      status: 422,
      fieldErrors: { per_page: ['The per page field must be at least 1.'] },
    });
    await expectApiError(h.client.codehost.listRepositories('user-1', { per_page: 101 }), {
      kind: 'validation',
      status: 422,
      message: 'The per page field must not be greater than 100.',
      fieldErrors: { per_page: ['The per page field must not be greater than 100.'] },
    });
    await expectApiError(h.client.codehost.listRepositories('nobody'), {
      kind: 'not_found',
      status: 404,
      message: 'code-host connection not found for the provided external user',
    });
  });

  it('links a repository, pushes to it, and pushes to a new one it creates', async () => {
    await connectCodehost();
    const { projectId } = await h.client.generate({ prompt });
    const repository = (await h.client.codehost.listRepositories('user-1', { per_page: 5 })).items[3]!;
    const [owner, name] = repository.full_name.split('/') as [string, string];
    const linked = await h.client.codehost.link(projectId!, {
      external_user_id: 'user-1',
      repo_owner: owner,
      repo_name: name,
    });
    expect(linked).toEqual({
      project_id: projectId,
      codehost_login: 'ada-lovelace',
      repo_url: repository.html_url,
      branch: repository.default_branch,
    });

    expect(await h.client.codehost.push(projectId!, { external_user_id: 'user-1' })).toEqual({
      repo_url: repository.html_url,
      codehost_login: 'ada-lovelace',
      branch: repository.default_branch,
      repo_created: false,
    });
    const created = await h.client.codehost.push(projectId!, {
      external_user_id: 'user-1',
      repo_owner: 'ada-lovelace',
      repo_name: 'recipes-app',
      private: true,
    });
    expect(created).toMatchObject({
      codehost_login: 'ada-lovelace',
      branch: 'main',
      repo_created: true,
      repo_url: expect.stringMatching(/\/ada-lovelace\/recipes-app$/),
    });
    const listing = await h.client.codehost.listRepositories('user-1', { per_page: 100 });
    expect(listing.meta.total_count).toBe(48);
    expect(listing.items.some((item) => item.full_name === 'ada-lovelace/recipes-app')).toBe(true);
  });

  it('every link and push failure', async () => {
    await connectCodehost();
    const { projectId } = await h.client.generate({ prompt });
    await expectApiError(h.client.codehost.push(projectId!, { external_user_id: 'user-1' }), {
      kind: 'validation',
      status: 422,
      fieldErrors: { repo_name: [expect.stringContaining('No repository is linked')] },
    });
    await expectApiError(h.client.codehost.push('proj_missing', { external_user_id: 'user-1' }), {
      kind: 'not_found',
      status: 404,
      message: 'Project not found.',
    });
    await expectApiError(
      h.client.codehost.link('proj_missing', { external_user_id: 'user-1', repo_owner: 'a', repo_name: 'b' }),
      { kind: 'not_found', status: 404, message: 'Project not found.' },
    );
    await expectApiError(
      h.client.codehost.link(projectId!, { external_user_id: 'nobody', repo_owner: 'a', repo_name: 'b' }),
      {
        kind: 'not_found',
        status: 404,
        message: 'code-host connection not found for the provided external user',
      },
    );
    const missingRepository = await expectApiError(
      h.client.codehost.link(projectId!, { external_user_id: 'user-1', repo_owner: 'ada-lovelace', repo_name: 'nope' }),
      { kind: 'not_found', status: 404 },
    );
    expect(missingRepository.message).toContain('Repository not found');
    await expectApiError(
      h.client.codehost.link(projectId!, { external_user_id: 'user-1', repo_owner: '', repo_name: '' }),
      {
        kind: 'validation',
        status: 422,
        fieldErrors: {
          repo_owner: ['The repo owner field is required.'],
          repo_name: ['The repo name field is required.'],
        },
      },
    );
  });
});

describe('contract: plans', () => {
  it('lists plans in display order without payment ids', async () => {
    const plans = await h.client.plans.list();
    expect(plans.map((plan) => plan.sort_order)).toEqual([1, 2, 3, 4]);
    for (const plan of plans) {
      expect(plan).not.toHaveProperty('stripe_price_id');
      expect(plan).not.toHaveProperty('stripe_product_id');
    }
  });
});
