/**
 * What a broken or hostile upstream sends in a 2xx answer: a body that says it failed is relayed as the failure it
 * is (the spec does not show the status codes of domain failures), never kept as a success; a status answer that
 * leaves fields out does not erase what the project list knew; and only http(s) addresses reach the browser.
 */
import { createAgentClient, createHttpTransport } from 'agent-embed/core';
import { createMemoryProxyStore, type AgentProxyUser } from 'agent-embed/server';
import { describe, expect, it } from 'vitest';
import { createScriptedProxy, createScriptedStream, json, type UpstreamCall } from './scripted-upstream.js';

const appOrigin = 'https://app.example.test';
const basePath = '/api/agent';
const alice: AgentProxyUser = { externalUserId: 'alice', name: 'Alice', email: 'alice@studio.example.test' };

function setup(answer: (call: UpstreamCall) => Response | Promise<Response>, statusCacheMs = 2_000) {
  return createScriptedProxy(answer, {
    basePath,
    authorize: () => alice,
    statusCacheMs,
    appUrl: appOrigin,
    store: createMemoryProxyStore({ owners: { 'p-alice': 'alice' } }),
  });
}

function call(method: string, path: string, body?: unknown): Request {
  return new Request(`${appOrigin}${basePath}${path}`, {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
}

const ready = {
  status: true,
  project_id: 'p-alice',
  app_url: 'https://p-alice.apps.example.test/',
  project_status: 'ready',
  name: 'Bakery',
};

describe('a 2xx answer whose body says it failed', () => {
  it.each([
    ['GET', '/deployments/vercel/connections/alice', undefined],
    ['POST', '/deployments/vercel/connections', { token: 'vercel-token' }],
    ['GET', '/codehost/connections', undefined],
    ['POST', '/deployments/vercel/project/p-alice/deploy', {}],
  ] as const)(
    '%s %s is relayed as a failure with the API’s message, its extra fields dropped',
    async (method, path, body) => {
      const message = 'Deployment provider connection not found for the provided external user.';
      const { proxy } = setup(() => json({ success: false, message, data: null, errors: null, debug: 'internal' }));
      const response = await proxy(call(method, path, body));
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ success: false, message, data: null, errors: null });
    },
  );

  it('reaches the client as the API’s error, with its message', async () => {
    const message = 'The token was rejected by Vercel. Check that it is valid and has not been revoked.';
    const { proxy } = setup(() => json({ success: false, message, data: null, errors: { token: [message] } }));
    const client = createAgentClient({
      transport: createHttpTransport({
        baseUrl: `${appOrigin}${basePath}`,
        fetch: (input, init) => proxy(new Request(input, init)),
      }),
    });
    await expect(client.deployments.connect('vercel', { external_user_id: 'alice', token: 'x' })).rejects.toMatchObject(
      {
        message,
        fieldErrors: { token: [message] },
      },
    );
  });

  it('is not cached as a project’s status: every poll asks again', async () => {
    const { proxy, upstream } = setup(() => json({ status: false, message: 'Project not found.' }));
    for (let poll = 0; poll < 2; poll++) {
      const relayed = await proxy(call('GET', '/agent/project/p-alice'));
      expect(relayed.status).toBe(200);
      expect(await relayed.json()).toEqual({ status: false, message: 'Project not found.' });
    }
    expect(upstream.calls).toHaveLength(2);
  });

  it('does not erase the project list’s summary', async () => {
    let answer: unknown = ready;
    const { proxy } = setup(() => json(answer), 0);
    await (await proxy(call('GET', '/agent/project/p-alice'))).text();
    answer = { status: false, message: 'Project not found.' };
    expect(await (await proxy(call('GET', '/agent/project/p-alice'))).json()).toEqual({
      status: false,
      message: 'Project not found.',
    });
    const after = await (await proxy(call('GET', '/projects'))).json();
    expect(after.projects[0]).toMatchObject({
      name: 'Bakery',
      app_url: 'https://p-alice.apps.example.test/',
      project_status: 'ready',
    });
  });

  it('is not kept as the team’s plans', async () => {
    const { proxy, upstream } = setup(() => json({ success: false, message: 'Server Error', data: null }));
    for (let read = 0; read < 2; read++) expect((await proxy(call('GET', '/subscription-plans'))).status).toBe(200);
    expect(upstream.calls).toHaveLength(2);
  });
});

describe('a status answer that leaves fields out', () => {
  it('keeps what the project list knew of them, and takes an explicit null', async () => {
    let answer: unknown = ready;
    const { proxy } = setup(() => json(answer), 0);
    await (await proxy(call('GET', '/agent/project/p-alice'))).text();
    answer = { status: true, project_id: 'p-alice', project_status: 'generating' };
    await (await proxy(call('GET', '/agent/project/p-alice'))).text();
    expect((await (await proxy(call('GET', '/projects'))).json()).projects[0]).toMatchObject({
      name: 'Bakery',
      app_url: 'https://p-alice.apps.example.test/',
      project_status: 'generating',
    });
    answer = { status: true, project_id: 'p-alice', project_status: 'generating', app_url: null };
    await (await proxy(call('GET', '/agent/project/p-alice'))).text();
    expect((await (await proxy(call('GET', '/projects'))).json()).projects[0]).toMatchObject({
      name: 'Bakery',
      app_url: null,
    });
  });
});

describe('addresses from the upstream', () => {
  const hostile = 'javascript:alert(document.cookie)';

  it('relays an app_url, redirect_url, deployment url, repository html_url or repo_url only when it is http(s)', async () => {
    const linked = { project_id: 'p-alice', codehost_login: 'alice', repo_url: hostile, branch: 'main' };
    const pushed = { repo_url: 'data:text/html,<script>alert(1)</script>', codehost_login: 'alice', branch: 'main' };
    const answers: Record<string, unknown> = {
      '/codehost/project/p-alice/link': { success: true, message: 'Linked.', data: linked },
      '/codehost/project/p-alice/push': { success: true, message: 'Pushed.', data: { ...pushed, repo_created: true } },
      '/agent/project/p-alice': { ...ready, app_url: hostile },
      '/codehost/connect/start': { success: true, message: '', data: { redirect_url: hostile, state: 's1' } },
      '/deployments/vercel/project/p-alice/deploy': {
        success: true,
        message: 'Deployed.',
        data: { deployment_id: 'd1', status: 'ready', url: 'data:text/html,<script>alert(1)</script>' },
      },
    };
    answers['/codehost/connections/alice/repositories'] = {
      success: true,
      message: '',
      data: {
        items: [
          { id: 1, name: 'site', html_url: hostile },
          { id: 2, name: 'blog', html_url: 'https://code.example.test/alice/blog' },
        ],
        meta: {},
      },
    };
    const { proxy } = setup(({ url }) => json(answers[url.pathname.replace('/api/v1', '')] ?? {}), 0);
    const repositories = await (await proxy(call('GET', '/codehost/connections/alice/repositories'))).json();
    expect(repositories.data.items.map((item: { html_url: unknown }) => item.html_url)).toEqual([
      null,
      'https://code.example.test/alice/blog',
    ]);
    expect((await (await proxy(call('GET', '/agent/project/p-alice'))).json()).app_url).toBeNull();
    const started = await proxy(call('POST', '/codehost/connect/start', { return_url: '/done' }));
    expect((await started.json()).data).toEqual({ redirect_url: null, state: 's1' });
    const deployed = await proxy(call('POST', '/deployments/vercel/project/p-alice/deploy', {}));
    expect((await deployed.json()).data).toMatchObject({ deployment_id: 'd1', url: null });
    const link = await proxy(
      call('POST', '/codehost/project/p-alice/link', { repo_owner: 'alice', repo_name: 'site' }),
    );
    expect((await link.json()).data).toEqual({ ...linked, repo_url: null });
    const push = await proxy(call('POST', '/codehost/project/p-alice/push', {}));
    expect((await push.json()).data).toMatchObject({ repo_url: null, repo_created: true });
    // Nor is it kept for the project list.
    expect((await (await proxy(call('GET', '/projects'))).json()).projects[0].app_url).toBeNull();
  });

  it('keeps an http(s) address as it came', async () => {
    const { proxy } = setup(() => json(ready), 0);
    expect((await (await proxy(call('GET', '/agent/project/p-alice'))).json()).app_url).toBe(
      'https://p-alice.apps.example.test/',
    );
  });

  it('keeps a build’s non-http(s) app_url out of the project list', async () => {
    const upstreamStream = createScriptedStream();
    const { proxy } = setup(() => upstreamStream.response(), 0);
    const response = await proxy(call('POST', '/agent/generate', { prompt: 'A landing page for a bakery' }));
    upstreamStream.event({ type: 'project_created', project_id: 'p-new', app_url: hostile });
    upstreamStream.event({ type: 'stream_end', project_id: 'p-new', app_url: hostile });
    upstreamStream.close();
    await response.text();
    const listed = (await (await proxy(call('GET', '/projects'))).json()).projects;
    expect(listed.find((project: { project_id: string }) => project.project_id === 'p-new')?.app_url).toBeNull();
  });
});

describe('a success answer about another project than the one the path names', () => {
  // The user owns p-alice; a broken or hostile upstream answers about p-bob, whose id must not reach her as hers.
  const otherProject = (reason: string) =>
    expect.objectContaining({ event: 'upstream_refused', reason: expect.stringContaining(reason) as unknown });

  it('a status naming another project is refused (502), logged, and noted nowhere', async () => {
    const { proxy, logs } = setup(() => json({ ...ready, project_id: 'p-bob' }), 0);
    const response = await proxy(call('GET', '/agent/project/p-alice'));
    expect(response.status).toBe(502);
    expect(await response.text()).not.toContain('p-bob');
    expect(logs).toContainEqual(otherProject('another project'));
    expect(JSON.stringify(await (await proxy(call('GET', '/projects'))).json())).not.toContain('p-bob');
  });

  // The action happened upstream: a 502 would invite it a second time, so the answer goes on without that id.
  it.each([
    [
      '/codehost/project/p-alice/link',
      { repo_owner: 'alice', repo_name: 'site' },
      { project_id: 'p-bob', codehost_login: 'alice', repo_url: 'https://code.example.test/a/b', branch: 'main' },
    ],
    ['/deployments/vercel/project/p-alice/deploy', {}, { deployment_id: 'd1', status: 'ready', project_id: 'p-bob' }],
  ] as const)('POST %s is relayed without the other project’s id, and logged', async (path, body, data) => {
    const { proxy, logs } = setup(() => json({ success: true, message: 'Done.', data }), 0);
    const response = await proxy(call('POST', path, body));
    expect(response.status).toBe(200);
    const { project_id: _other, ...rest } = data;
    expect((await response.json()).data).toEqual(rest);
    expect(logs).toContainEqual(otherProject('its project_id was dropped'));
  });

  it('relays a push whose answer carries an id of the code host’s own (not in its allow-list) without it', async () => {
    const pushed = { repo_url: 'https://git.example.test/alice/site', codehost_login: 'alice', branch: 'main' };
    const { proxy, logs } = setup(
      () => json({ success: true, message: 'Pushed.', data: { ...pushed, repo_created: true, project_id: '4821' } }),
      0,
    );
    const response = await proxy(call('POST', '/codehost/project/p-alice/push', {}));
    expect(response.status).toBe(200);
    expect((await response.json()).data).toEqual({ ...pushed, repo_created: true });
    expect(logs.filter((entry) => entry.event === 'upstream_refused')).toEqual([]);
  });

  it('drops a project_id that is not a string, as any field of the wrong type, and relays the rest', async () => {
    const { proxy, logs } = setup(() => json({ ...ready, project_id: 7 }), 0);
    const response = await proxy(call('GET', '/agent/project/p-alice'));
    expect(response.status).toBe(200);
    const { project_id: _dropped, ...rest } = ready;
    expect(await response.json()).toEqual(rest);
    expect(logs.filter((entry) => entry.event === 'upstream_refused')).toEqual([]);
  });

  it('relays an answer that names the path’s project, or none', async () => {
    const { proxy, logs } = setup(
      ({ url }) =>
        json(
          url.pathname.endsWith('/deploy')
            ? { success: true, message: 'Deployed.', data: { deployment_id: 'd1', status: 'ready' } }
            : ready,
        ),
      0,
    );
    expect((await proxy(call('GET', '/agent/project/p-alice'))).status).toBe(200);
    expect((await proxy(call('POST', '/deployments/vercel/project/p-alice/deploy', {}))).status).toBe(200);
    expect(logs.filter((entry) => entry.event === 'upstream_refused')).toEqual([]);
  });
});
