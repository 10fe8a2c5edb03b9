import { createMockAgentApi, type MockAgentApi } from 'agent-embed/mock';
import { describe, expect, it } from 'vitest';
import { call, callJson, generate } from './mock-helpers.js';

const notFound = 'code-host connection not found for the provided external user';
const startBody = {
  external_user_id: 'user-1',
  external_user_name: 'Ada Lovelace',
  external_user_email: 'ada@example.com',
  return_url: 'https://agency.example/settings?tab=code',
};

async function connect(api: MockAgentApi, body = startBody, token?: string): Promise<string> {
  const started = await callJson(api, 'POST', '/codehost/connect/start', {
    body,
    ...(token === undefined ? {} : { token }),
  });
  const callback = await call(api, 'GET', `/__mock/codehost/callback?state=${started.body.data.state}`, {
    token: null,
  });
  expect(callback.status).toBe(302);
  return started.body.data.state as string;
}

describe('mock code-host connect flow', () => {
  it('starts with a redirect_url to an install page the mock serves', async () => {
    const api = createMockAgentApi({ speed: 'instant' });
    const { status, body } = await callJson(api, 'POST', '/codehost/connect/start', { body: startBody });
    expect(status).toBe(200);
    expect(body).toEqual({
      success: true,
      message: 'Code-host connection flow started.',
      data: {
        redirect_url: `http://mock.agent-embed.test/__mock/codehost/install?state=${body.data.state}`,
        state: expect.stringMatching(/^[0-9a-f]{32}$/),
      },
      errors: null,
    });
    const page = await call(
      api,
      'GET',
      new URL(body.data.redirect_url).pathname + new URL(body.data.redirect_url).search,
      { token: null },
    );
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('<button type="submit">Install</button>');
    expect(html).toContain(`name="state" value="${body.data.state}"`);
    expect(html).toContain('ada-lovelace');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
  });

  it('validates the start body: required fields, e-mail format, http(s) return_url', async () => {
    const api = createMockAgentApi({ speed: 'instant' });
    const missing = await callJson(api, 'POST', '/codehost/connect/start', { body: {} });
    expect(missing.status).toBe(422);
    expect(Object.keys(missing.body.errors)).toEqual([
      'external_user_id',
      'external_user_name',
      'external_user_email',
      'return_url',
    ]);
    expect(missing.body.message).toBe('The external user id field is required. (and 3 more errors)');
    expect(missing.body).not.toHaveProperty('success');
    for (const return_url of ['javascript:alert(1)', 'ftp://agency.example/', 'not a url', 'data:text/html,hi']) {
      const bad = await callJson(api, 'POST', '/codehost/connect/start', {
        body: { ...startBody, return_url, external_user_email: 'nope' },
      });
      expect(bad.body.errors).toEqual({
        external_user_email: ['The external user email field must be a valid email address.'],
        return_url: ['The return url field must be a valid URL.'],
      });
    }
  });

  it('completes on the callback: stores the connection and redirects to return_url; the state is single-use', async () => {
    let time = Date.UTC(2025, 6, 1);
    const api = createMockAgentApi({ speed: 'instant', now: () => time });
    const started = await callJson(api, 'POST', '/codehost/connect/start', { body: startBody });
    expect((await callJson(api, 'GET', '/codehost/connections/user-1')).status).toBe(404);
    const callback = await api.fetch(
      new Request('http://mock.agent-embed.test/__mock/codehost/callback', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `state=${started.body.data.state}`,
      }),
    );
    expect(callback.status).toBe(302);
    expect(callback.headers.get('location')).toBe(startBody.return_url);
    const again = await call(api, 'GET', `/__mock/codehost/callback?state=${started.body.data.state}`, { token: null });
    expect(again.status).toBe(400);
    expect(await again.text()).toContain('not valid');
    expect((await call(api, 'GET', '/__mock/codehost/install?state=unknown', { token: null })).status).toBe(400);

    const { status, body } = await callJson(api, 'GET', '/codehost/connections/user-1');
    expect(status).toBe(200);
    expect(body.data).toEqual({
      id: expect.any(Number),
      external_user_id: 'user-1',
      external_user_name: 'Ada Lovelace',
      external_user_email: 'ada@example.com',
      codehost_user_id: expect.stringMatching(/^\d+$/),
      codehost_login: 'ada-lovelace',
      provider: 'github',
      installation_id: expect.stringMatching(/^\d+$/),
      target_type: 'User',
      user_authorized: true,
      expires_at: expect.any(String),
      connected_at: '2025-07-01T00:00:00.000Z',
      updated_at: '2025-07-01T00:00:00.000Z',
      installation_status: 'active',
    });

    time += 1000;
    await connect(api, { ...startBody, external_user_name: 'Ada King' });
    const updated = (await callJson(api, 'GET', '/codehost/connections/user-1')).body.data;
    expect(updated).toMatchObject({
      id: body.data.id,
      codehost_login: 'ada-king',
      connected_at: body.data.connected_at,
      updated_at: '2025-07-01T00:00:01.000Z',
    });
  });

  it('expires a pending install after an hour', async () => {
    let time = 0;
    const api = createMockAgentApi({ speed: 'instant', now: () => time });
    const started = await callJson(api, 'POST', '/codehost/connect/start', { body: startBody });
    time += 60 * 60 * 1000 + 1;
    expect(
      (await call(api, 'GET', `/__mock/codehost/install?state=${started.body.data.state}`, { token: null })).status,
    ).toBe(400);
  });

  it("lists the team's connections without the detailed fields, and reports installation status changes", async () => {
    const api = createMockAgentApi({ speed: 'instant' });
    await connect(api);
    await connect(api, { ...startBody, external_user_id: 'user-2', external_user_name: 'Grace' });
    await connect(
      api,
      { ...startBody, external_user_id: 'user-3' },
      api.admin.createToken({ teamId: api.admin.createTeam() }),
    );
    const list = await callJson(api, 'GET', '/codehost/connections');
    expect(list.body.success).toBe(true);
    expect(list.body.data.map((item: { external_user_id: string }) => item.external_user_id)).toEqual([
      'user-1',
      'user-2',
    ]);
    expect(list.body.data[0]).not.toHaveProperty('installation_status');
    api.admin.setCodehostInstallationStatus('user-2', 'suspended');
    expect((await callJson(api, 'GET', '/codehost/connections/user-2')).body.data.installation_status).toBe(
      'suspended',
    );
    expect(await callJson(api, 'GET', '/codehost/connections/user-3')).toMatchObject({
      status: 404,
      body: { success: false, message: notFound, data: null },
    });
  });
});

describe('mock repositories', () => {
  it('pages through 47 deterministic repositories with meta, defaults 1 / 30', async () => {
    const api = createMockAgentApi({ speed: 'instant', rateLimit: false });
    await connect(api);
    const first = await callJson(api, 'GET', '/codehost/connections/user-1/repositories');
    expect(first.body.data.meta).toEqual({ total_count: 47, page: 1, per_page: 30 });
    expect(first.body.data.items).toHaveLength(30);
    const second = await callJson(api, 'GET', '/codehost/connections/user-1/repositories?page=2&per_page=30');
    expect(second.body.data.items).toHaveLength(17);
    expect((await callJson(api, 'GET', '/codehost/connections/user-1/repositories?page=3')).body.data.items).toEqual(
      [],
    );
    const all = (await callJson(api, 'GET', '/codehost/connections/user-1/repositories?per_page=100')).body.data.items;
    expect(all).toHaveLength(47);
    expect(new Set(all.map((repository: { full_name: string }) => repository.full_name)).size).toBe(47);
    expect(all.map((repository: { id: string }) => repository.id)).toEqual(
      [...first.body.data.items, ...second.body.data.items].map((repository: { id: string }) => repository.id),
    );
    expect(all.filter((repository: { private: string }) => repository.private === 'true').length).toBeGreaterThan(0);
    expect(all[0]).toEqual({
      id: expect.stringMatching(/^\d+$/),
      name: expect.any(String),
      full_name: expect.stringMatching(/^ada-lovelace\//),
      private: expect.stringMatching(/^(true|false)$/),
      default_branch: expect.any(String),
      html_url: expect.stringMatching(/^https:\/\//),
      clone_url: expect.stringMatching(/^https:\/\/.*\.git$/),
      permissions: expect.any(String),
    });
    // The same login sees the same list on another mock.
    const other = createMockAgentApi({ speed: 'instant' });
    await connect(other);
    expect(
      (await callJson(other, 'GET', '/codehost/connections/user-1/repositories?per_page=100')).body.data.items,
    ).toEqual(all);
  });

  it('validates page >= 1 and per_page 1..100 with message and errors', async () => {
    const api = createMockAgentApi({ speed: 'instant', rateLimit: false });
    await connect(api);
    const cases: Array<[string, Record<string, string[]>]> = [
      ['page=0', { page: ['The page field must be at least 1.'] }],
      ['per_page=0', { per_page: ['The per page field must be at least 1.'] }],
      ['per_page=101', { per_page: ['The per page field must not be greater than 100.'] }],
      ['page=abc', { page: ['The page field must be an integer.'] }],
      [
        'page=-1&per_page=500',
        {
          page: ['The page field must be at least 1.'],
          per_page: ['The per page field must not be greater than 100.'],
        },
      ],
    ];
    for (const [query, errors] of cases) {
      const { status, body } = await callJson(api, 'GET', `/codehost/connections/user-1/repositories?${query}`);
      expect(status).toBe(422);
      expect(body.errors).toEqual(errors);
      expect(body.message).toBe(
        Object.values(errors)[0]![0] + (Object.keys(errors).length > 1 ? ' (and 1 more error)' : ''),
      );
    }
    expect((await callJson(api, 'GET', '/codehost/connections/user-1/repositories?per_page=100&page=1')).status).toBe(
      200,
    );
    expect(
      (await callJson(api, 'GET', '/codehost/connections/user-1/repositories?per_page=1')).body.data.items,
    ).toHaveLength(1);
    expect(await callJson(api, 'GET', '/codehost/connections/nobody/repositories')).toMatchObject({
      status: 404,
      body: { message: notFound },
    });
  });

  it('can report total_count as null and seed another count', async () => {
    const api = createMockAgentApi({
      speed: 'instant',
      scenario: { repositoryCount: 5, repositoryTotalCountUnknown: true },
    });
    await connect(api);
    const { body } = await callJson(api, 'GET', '/codehost/connections/user-1/repositories');
    expect(body.data.meta).toEqual({ total_count: null, page: 1, per_page: 30 });
    expect(body.data.items).toHaveLength(5);
  });
});

describe('mock link and push', () => {
  async function ready() {
    const api = createMockAgentApi({ speed: 'instant', rateLimit: false });
    await connect(api);
    const projectId = (await generate(api)).events[0]!.project_id as string;
    const repositories = (await callJson(api, 'GET', '/codehost/connections/user-1/repositories?per_page=100')).body
      .data.items as Array<{ name: string; full_name: string; html_url: string; default_branch: string }>;
    return { api, projectId, repositories };
  }

  it('links an accessible repository to a project', async () => {
    const { api, projectId, repositories } = await ready();
    const repository = repositories[6]!;
    const [owner, name] = repository.full_name.split('/');
    const linked = await callJson(api, 'POST', `/codehost/project/${projectId}/link`, {
      body: { external_user_id: 'user-1', repo_owner: owner, repo_name: name },
    });
    expect(linked.status).toBe(200);
    expect(linked.body.data).toEqual({
      project_id: projectId,
      codehost_login: 'ada-lovelace',
      repo_url: repository.html_url,
      branch: repository.default_branch,
    });
    expect(api.admin.projects()[0]?.linkedRepository).toEqual({
      externalUserId: 'user-1',
      owner,
      name,
      branch: repository.default_branch,
    });
  });

  it('refuses link without a valid body, project, connection or repository', async () => {
    const { api, projectId, repositories } = await ready();
    const [owner, name] = repositories[0]!.full_name.split('/');
    const invalid = await callJson(api, 'POST', `/codehost/project/${projectId}/link`, {
      body: { external_user_id: 'user-1' },
    });
    expect(invalid).toMatchObject({
      status: 422,
      body: {
        errors: { repo_owner: ['The repo owner field is required.'], repo_name: ['The repo name field is required.'] },
      },
    });
    expect(
      await callJson(api, 'POST', '/codehost/project/proj_missing/link', {
        body: { external_user_id: 'user-1', repo_owner: owner, repo_name: name },
      }),
    ).toMatchObject({ status: 404, body: { message: 'Project not found.' } });
    expect(
      await callJson(api, 'POST', `/codehost/project/${projectId}/link`, {
        body: { external_user_id: 'nobody', repo_owner: owner, repo_name: name },
      }),
    ).toMatchObject({ status: 404, body: { message: notFound } });
    const missing = await callJson(api, 'POST', `/codehost/project/${projectId}/link`, {
      body: { external_user_id: 'user-1', repo_owner: owner, repo_name: 'does-not-exist' },
    });
    expect(missing).toMatchObject({
      status: 404,
      body: { success: false, data: null, message: expect.stringContaining('Repository not found') },
    });
  });

  it('pushes to named repositories, creating a missing one that then appears in listings', async () => {
    const { api, projectId, repositories } = await ready();
    const [owner, name] = repositories[2]!.full_name.split('/');
    const existing = await callJson(api, 'POST', `/codehost/project/${projectId}/push`, {
      body: { external_user_id: 'user-1', repo_owner: owner, repo_name: name, branch: 'agent' },
    });
    expect(existing.body.data).toEqual({
      repo_url: repositories[2]!.html_url,
      codehost_login: 'ada-lovelace',
      branch: 'agent',
      repo_created: false,
    });

    const created = await callJson(api, 'POST', `/codehost/project/${projectId}/push`, {
      body: { external_user_id: 'user-1', repo_owner: 'ada-lovelace', repo_name: 'brand-new-app', private: false },
    });
    expect(created.status).toBe(200);
    expect(created.body.data).toEqual({
      repo_url: expect.stringMatching(/\/ada-lovelace\/brand-new-app$/),
      codehost_login: 'ada-lovelace',
      branch: 'main',
      repo_created: true,
    });
    const listing = (await callJson(api, 'GET', '/codehost/connections/user-1/repositories?per_page=100')).body.data;
    expect(listing.meta.total_count).toBe(48);
    expect(listing.items.find((repository: { name: string }) => repository.name === 'brand-new-app')).toMatchObject({
      private: 'false',
    });
    const again = await callJson(api, 'POST', `/codehost/project/${projectId}/push`, {
      body: { external_user_id: 'user-1', repo_owner: 'ada-lovelace', repo_name: 'brand-new-app' },
    });
    expect(again.body.data.repo_created).toBe(false);
  });

  it('pushes to the linked repository without details, and refuses when none is linked', async () => {
    const { api, projectId, repositories } = await ready();
    const noLink = await callJson(api, 'POST', `/codehost/project/${projectId}/push`, {
      body: { external_user_id: 'user-1' },
    });
    expect(noLink.status).toBe(422);
    expect(noLink.body).toEqual({
      message: expect.stringContaining('No repository is linked'),
      errors: { repo_name: [expect.any(String)] },
    });
    const [owner, name] = repositories[4]!.full_name.split('/');
    await callJson(api, 'POST', `/codehost/project/${projectId}/link`, {
      body: { external_user_id: 'user-1', repo_owner: owner, repo_name: name },
    });
    const pushed = await callJson(api, 'POST', `/codehost/project/${projectId}/push`, {
      body: { external_user_id: 'user-1' },
    });
    expect(pushed.body.data).toEqual({
      repo_url: repositories[4]!.html_url,
      codehost_login: 'ada-lovelace',
      branch: repositories[4]!.default_branch,
      repo_created: false,
    });
  });

  it('refuses push for a missing project, a missing connection and half a repository', async () => {
    const { api, projectId } = await ready();
    expect(
      await callJson(api, 'POST', '/codehost/project/proj_missing/push', { body: { external_user_id: 'user-1' } }),
    ).toMatchObject({ status: 404, body: { success: false, message: 'Project not found.', data: null } });
    expect(
      await callJson(api, 'POST', `/codehost/project/${projectId}/push`, { body: { external_user_id: 'nobody' } }),
    ).toMatchObject({ status: 404, body: { message: notFound } });
    const half = await callJson(api, 'POST', `/codehost/project/${projectId}/push`, {
      body: { external_user_id: 'user-1', repo_owner: 'ada-lovelace' },
    });
    expect(half).toMatchObject({
      status: 422,
      body: { errors: { repo_name: ['The repo name field is required when repo owner is present.'] } },
    });
    const wrongTypes = await callJson(api, 'POST', `/codehost/project/${projectId}/push`, { body: { private: 'yes' } });
    expect(wrongTypes.body.errors).toEqual({
      external_user_id: ['The external user id field is required.'],
      private: ['The private field must be true or false.'],
    });
  });
});
