/**
 * Audit of the proxy against a hostile browser signed in as alice (a second red-team pass): every route's query,
 * headers and body extras, methods and odd paths per route, listings, ids claimed before they exist, and what
 * refused requests may spend (quota, the team's budget). Complements hostile-browser.node.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { AgentProxyOptions } from 'agent-embed/server';
import { forwardedRoutes as routes } from './route-samples.js';
import {
  appOrigin,
  browserRequest,
  createTwoUserProxy,
  everyRouteAnswer,
  fakeToken,
  json,
  proxyBasePath as basePath,
  type UpstreamCall,
} from './scripted-upstream.js';

const answer = everyRouteAnswer;

function setup(
  respond: (call: UpstreamCall) => Response | Promise<Response> = answer,
  options: Partial<AgentProxyOptions> = {},
) {
  return createTwoUserProxy(respond, options);
}

const call = browserRequest;

/** The upstream body fields each POST route may carry: the browser's allow-list and the session's identity. */
const allowedUpstreamFields: Record<string, string[]> = {
  generate: ['prompt', 'mode'],
  followUp: ['prompt'],
  connectDeployment: ['token', 'external_user_id'],
  deploy: ['external_user_id'],
  startCodehostConnect: ['external_user_id', 'external_user_name', 'external_user_email', 'return_url'],
  linkRepository: ['repo_owner', 'repo_name', 'external_user_id'],
  pushRepository: ['repo_owner', 'repo_name', 'private', 'branch', 'external_user_id'],
};

describe('query parameters', () => {
  it('sends no browser query parameter upstream on any route, but the repository page numbers', async () => {
    const { proxy, upstream } = setup();
    const hostile =
      'external_user_id=bob&team=other&token=x&api_token=x&project_id=p-bob&providerId=x&page=2&per_page=5&return_url=https://evil.example';
    for (const route of routes) {
      const before = upstream.calls.length;
      const response = await proxy(call(route.method, `${route.path}?${hostile}`, route.body));
      expect(response.status, route.name).toBe(200);
      await response.text();
      expect(upstream.calls.length, route.name).toBe(before + 1);
      const sent = upstream.calls.at(-1);
      expect(sent?.url.search, route.name).toBe(route.name === 'listRepositories' ? '?page=2&per_page=5' : '');
      expect(sent?.url.href, route.name).not.toContain('bob');
    }
  });

  it('refuses out-of-range, non-integer and odd spellings of page and per_page with 422, before the upstream', async () => {
    const { proxy, upstream } = setup();
    const values = [
      'per_page=1000000',
      'per_page=0',
      'per_page=101',
      'page=-1',
      'page=0',
      'page=1e309',
      'page=1e3',
      'page=1.0',
      'page=0x10',
      'page=%201',
      'page=1%00',
      'page=%EF%BC%91', // a full-width digit one
      'page=',
      `page=${'9'.repeat(400)}`,
      'per_page=-0',
      'page=-1&page=1',
    ];
    for (const query of values) {
      const response = await proxy(call('GET', `/codehost/connections/alice/repositories?${query}`));
      expect(response.status, query).toBe(422);
      expect(await response.json(), query).toMatchObject({ success: false, data: null });
    }
    expect(upstream.calls).toHaveLength(0);
    // A repeated parameter is read by its first value only, and a valid one is sent on normalised.
    const repeated = await proxy(
      call('GET', '/codehost/connections/alice/repositories?page=3&page=-1&per_page=100&per_page=1000000'),
    );
    expect(repeated.status).toBe(200);
    expect(upstream.calls.at(-1)?.url.search).toBe('?page=3&per_page=100');
  });
});

describe('headers', () => {
  it('sends the team token and nothing of the browser’s headers upstream, on every route, and keeps the route’s method', async () => {
    const { proxy, upstream } = setup();
    const hostile = {
      authorization: 'Bearer stolen-or-forged',
      cookie: 'session=bob; other=1',
      'x-forwarded-for': '10.0.0.1',
      'x-forwarded-host': 'evil.example',
      'x-forwarded-proto': 'http',
      forwarded: 'for=10.0.0.1;host=evil.example',
      origin: 'null',
      referer: 'https://evil.example/',
      'x-http-method-override': 'DELETE',
      'x-method-override': 'PUT',
      'x-api-token': 'x',
      'x-team-id': 'other-team',
      'x-user-id': 'bob',
      'last-event-id': '5',
      'if-none-match': '*',
      range: 'bytes=0-10',
    };
    for (const route of routes) {
      const response = await proxy(call(route.method, route.path, route.body, hostile));
      expect(response.status, route.name).toBe(200);
      await response.text();
      const sent = upstream.calls.at(-1);
      expect(sent?.method, route.name).toBe(route.method);
      expect(sent?.redirect, route.name).toBe('error');
      expect(sent?.headers.get('authorization'), route.name).toBe(`Bearer ${fakeToken}`);
      const names = [...(sent?.headers.keys() ?? [])].sort();
      expect(
        names.every((name) => ['accept', 'authorization', 'content-type'].includes(name)),
        names.join(),
      ).toBe(true);
      expect(sent?.url.origin).toBe('https://agent.example.test');
    }
    // The connect route's return_url came from configuration, not from Host / Forwarded / Origin / Referer.
    const started = upstream.calls.find((sent) => sent.url.pathname.endsWith('/connect/start'));
    expect(JSON.parse(started?.body ?? '{}').return_url).toBe(`${appOrigin}/done`);
  });

  it('never serves another user for a forged Authorization or cookie: identity comes from authorize() only', async () => {
    const { proxy, upstream } = setup();
    for (const headers of [
      { authorization: `Bearer ${fakeToken}` },
      { cookie: 'session=bob' },
      { 'x-external-user-id': 'bob' },
    ]) {
      const response = await proxy(call('GET', '/codehost/connections/bob', undefined, headers));
      expect(response.status, JSON.stringify(headers)).toBe(403);
      const project = await proxy(call('GET', '/agent/project/p-bob', undefined, headers));
      expect(project.status).toBe(404);
    }
    expect(upstream.calls).toHaveLength(0);
  });

  it('refuses content types that are not JSON, and odd charsets, without 500 and without the upstream', async () => {
    const { proxy, upstream } = setup();
    const text = JSON.stringify({ prompt: 'A landing page for a bakery' });
    const utf16 = new Uint8Array([...text].flatMap((char) => [char.charCodeAt(0), 0]));
    const cases: { headers: Record<string, string>; body: BodyInit }[] = [
      { headers: { 'content-type': 'text/plain;charset=UTF-8' }, body: text },
      { headers: { 'content-type': 'multipart/form-data; boundary=x' }, body: `--x\r\n\r\n${text}\r\n--x--` },
      { headers: { 'content-type': 'text/plain; application/json' }, body: text },
      { headers: { 'content-type': 'application/json; charset=utf-16le' }, body: utf16 },
      { headers: { 'content-type': 'application/json' }, body: `\uFEFF\uFEFF${text}` },
    ];
    for (const { headers, body } of cases) {
      const response = await proxy(
        new Request(`${appOrigin}${basePath}/agent/generate`, {
          method: 'POST',
          headers: { 'x-user': 'alice', ...headers },
          body,
        }),
      );
      expect(response.status, headers['content-type']).toBeGreaterThanOrEqual(400);
      expect(response.status, headers['content-type']).toBeLessThan(500);
    }
    expect(upstream.calls).toHaveLength(0);
  });
});

describe('bodies', () => {
  it('builds every POST body from the allow-list and the session, whatever extra fields the browser adds', async () => {
    const { proxy, upstream } = setup();
    const extras = {
      project_id: 'p-bob',
      projectId: 'p-bob',
      external_user_name: 'Bob',
      external_user_email: 'bob@example.test',
      redirect_url: 'https://evil.example',
      model: 'most-expensive-model',
      team_id: 'other-team',
      credits: 1_000_000,
      provider: 'evil',
      token_id: 'x',
      nested: { external_user_id: 'bob', deep: { project_id: 'p-bob' } },
      connection_id: 'bob-connection',
    };
    for (const route of routes.filter((candidate) => candidate.method === 'POST')) {
      const before = upstream.calls.length;
      const response = await proxy(call('POST', route.path, { ...route.body, ...extras }));
      expect(response.status, route.name).toBe(200);
      await response.text();
      expect(upstream.calls.length, route.name).toBe(before + 1);
      const body = JSON.parse(upstream.calls.at(-1)?.body ?? '{}') as Record<string, unknown>;
      const allowed = allowedUpstreamFields[route.name] ?? [];
      expect(
        Object.keys(body).filter((key) => !allowed.includes(key)),
        route.name,
      ).toEqual([]);
      expect(JSON.stringify(body), route.name).not.toMatch(/bob|evil|expensive|other-team/i);
      if ('external_user_id' in body) expect(body.external_user_id, route.name).toBe('alice');
    }
  });

  it("refuses bob's external_user_id in any POST body with 403, before the upstream", async () => {
    const { proxy, upstream } = setup();
    for (const route of routes.filter((candidate) => candidate.method === 'POST'))
      for (const id of ['bob', 'ALICE', 'alice ', '', null, ['alice'], { id: 'alice' }]) {
        const response = await proxy(call('POST', route.path, { ...route.body, external_user_id: id }));
        expect(response.status, `${route.name} ${JSON.stringify(id)}`).toBe(403);
      }
    expect(upstream.calls).toHaveLength(0);
  });

  // Found by this audit: a prompt missing or not a string went upstream as a body with no prompt at all (the allow-list
  // dropped the field), and a blank one or one under the spec's 10 characters as it was; each cost an upstream request.
  it('refuses a generate or follow-up without a usable prompt with 422, before the upstream', async () => {
    const { proxy, upstream } = setup((sent) =>
      sent.url.pathname.includes('/agent/generate')
        ? json({ status: false, message: 'The prompt must be at least 10 characters.' }, 422)
        : answer(sent),
    );
    const prompts: unknown[] = [
      undefined,
      123,
      true,
      ['A landing page for a bakery'],
      { text: 'A landing page for a bakery' },
      '',
      '          ',
      '\n\t\r \u00a0\u2003\u3000\u2028\u2029\ufeff',
      'short',
      '\u0000\u0001\u0002\u0003\u0004\u0005\u0006\u0007\u0008\u000b',
    ];
    const statuses: string[] = [];
    for (const path of ['/agent/generate', '/agent/generate/p-alice'])
      for (const prompt of prompts) {
        const response = await proxy(
          call('POST', path, prompt === undefined ? { mode: 'build' } : { prompt, mode: 'build' }),
        );
        await response.text();
        if (response.status !== 422) statuses.push(`${path} ${JSON.stringify(prompt)}: ${response.status}`);
      }
    expect(upstream.calls.map((sent) => `${sent.url.pathname} ${sent.body}`)).toEqual([]);
    expect(statuses).toEqual([]);
  });

  // Found by this audit: the same requests took the team's rate budget, so alice alone, sending prompts the proxy could
  // refuse itself, made bob's next request wait (429), though none of them could ever start a build.
  it("spends none of the team's budget on a prompt the API is bound to refuse, so bob is still served", async () => {
    let clock = 1_000_000;
    const { proxy } = setup(
      (sent) =>
        sent.url.pathname.includes('/agent/generate')
          ? json({ status: false, message: 'The prompt must be at least 10 characters.' }, 422)
          : answer(sent),
      { now: () => clock, rateLimit: { limit: 10, windowMs: 60_000 } },
    );
    for (let index = 0; index < 10; index++) {
      await (await proxy(call('POST', '/agent/generate', { prompt: index % 2 === 0 ? 42 : '   ' }))).text();
      clock += 10;
    }
    const bobs = await proxy(call('GET', '/agent/project/p-bob', undefined, {}, 'bob'));
    expect(bobs.status).toBe(200);
  });
});

describe('methods and paths, per route', () => {
  it('answers 404 to every method a route does not serve, and to override headers, with nothing upstream', async () => {
    const { proxy, upstream } = setup();
    for (const route of routes) {
      // GET of the connect route's path is the listing's own route.
      const served = new Set(routes.filter((other) => other.path === route.path).map((other) => other.method));
      const others = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'PROPFIND'].filter(
        (m) => !served.has(m as 'GET'),
      );
      for (const method of others) {
        const response = await proxy(
          new Request(`${appOrigin}${basePath}${route.path}`, {
            method,
            headers: { 'x-user': 'alice', 'content-type': 'application/json', 'x-http-method-override': route.method },
            ...(['GET', 'HEAD'].includes(method) ? {} : { body: JSON.stringify(route.body ?? {}) }),
          }),
        );
        expect(response.status, `${method} ${route.name}`).toBe(404);
      }
    }
    // The proxy's own routes serve GET only.
    for (const path of ['/projects', '/usage', '/projects/p-alice/conversation', '/projects/p-alice/events'])
      for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
        const response = await proxy(call(method, path, {}, { 'x-http-method-override': 'GET' }));
        expect(response.status, `${method} ${path}`).toBe(404);
      }
    expect(upstream.calls).toHaveLength(0);
  });

  it('answers 404 to odd spellings of every route’s path, never reaching the upstream or bob', async () => {
    const { proxy, upstream } = setup();
    const long = 'a'.repeat(100 * 1024);
    for (const route of routes) {
      const spellings = [
        `${route.path}/`,
        `${route.path};jsessionid=bob`,
        `${route.path}%00`,
        `${route.path}%2F`,
        `${route.path}/.`.replace(/\/\.$/, '/%2e'),
        route.path.replace(/\//g, '//'),
        route.path.toUpperCase(),
        route.path.replace('alice', 'alice;bob').replace('p-alice', 'p-alice;p-bob'),
        route.path.replace('alice', `alice%2F..%2Fbob`),
        route.path.replace('alice', '\u0430lice'),
        route.path.replace('vercel', 'vercel%2F..%2F..%2Fadmin'),
        `${route.path}/${long}`,
        route.path.replace(/[^/]+$/, long),
      ];
      for (const path of spellings) {
        if (path === route.path) continue;
        const response = await proxy(call(route.method, path, route.body));
        expect(response.status, `${route.name} ${path.slice(0, 80)}`).toBe(404);
      }
    }
    expect(upstream.calls).toHaveLength(0);
  });
});

describe('ownership and listings', () => {
  it("never lists bob's connections to alice, whatever the upstream listing mixes in", async () => {
    const connection = (external_user_id: unknown, id: number) => ({ id, external_user_id, provider: 'vercel' });
    const mixed = [
      connection('alice', 1),
      connection('bob', 2),
      connection('ALICE', 3),
      connection('alice ', 4),
      connection(['alice'], 5),
      connection(null, 6),
      { id: 7, provider: 'vercel' },
      connection({ toString: 'alice' }, 8),
    ];
    const { proxy } = setup((sent) =>
      sent.url.pathname.endsWith('/connections')
        ? json({ success: true, message: 'ok', data: mixed, errors: null })
        : answer(sent),
    );
    for (const path of ['/deployments/vercel/connections', '/codehost/connections']) {
      const response = await proxy(call('GET', path));
      const body = (await response.json()) as { data: { id: number }[] };
      expect(
        body.data.map((item) => item.id),
        path,
      ).toEqual([1]);
    }
  });

  it('lets alice claim no project id before bob creates it, and never shows his new project to her', async () => {
    const { proxy, upstream, store } = setup(answer, { quota: { generations: 2, per: 'day' } });
    const probes = [
      ['GET', '/agent/project/p-future'],
      ['POST', '/agent/generate/p-future', { prompt: 'Make the header blue' }],
      ['GET', '/projects/p-future/conversation'],
      ['GET', '/projects/p-future/events'],
      ['POST', '/deployments/vercel/project/p-future/deploy', {}],
      ['POST', '/codehost/project/p-future/link', { repo_owner: 'a', repo_name: 'b' }],
      ['POST', '/codehost/project/p-future/push', { repo_owner: 'a', repo_name: 'b' }],
    ] as const;
    for (const [method, path, body] of probes) expect((await proxy(call(method, path, body))).status, path).toBe(404);
    expect(upstream.calls).toHaveLength(0);
    expect(await store.getProjectOwner('p-future')).toBeUndefined();
    // Bob's generate: the upstream names p-future.
    const bobs = await proxy(
      new Request(`${appOrigin}${basePath}/agent/generate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-user': 'bob' },
        body: JSON.stringify({ prompt: 'A landing page for a bakery' }),
      }),
    );
    await bobs.text();
    // The scripted upstream names the new project p-new: bob owns it now, alice still gets 404 everywhere.
    expect(await store.getProjectOwner('p-new')).toBe('bob');
    for (const [method, path, body] of probes)
      expect((await proxy(call(method, path.replace('p-future', 'p-new'), body))).status, path).toBe(404);
    const list = (await (await proxy(call('GET', '/projects'))).json()) as { projects: { project_id: string }[] };
    expect(list.projects.map((project) => project.project_id)).not.toContain('p-new');
    // None of alice's refused requests spent her quota, nor did bob's build.
    expect(await (await proxy(call('GET', '/usage'))).json()).toMatchObject({ used: 0 });
  });

  it('spends neither quota nor budget on follow-ups of projects alice does not own, at the edge of her quota', async () => {
    const { proxy, upstream } = setup(answer, {
      quota: { generations: 1, per: 'day' },
      rateLimit: { limit: 10, windowMs: 60_000 },
    });
    const refused = await Promise.all(
      Array.from({ length: 30 }, (_, index) =>
        proxy(
          call('POST', `/agent/generate/${index % 2 === 0 ? 'p-bob' : 'p-nobody'}`, { prompt: 'Make the header blue' }),
        ),
      ),
    );
    expect(refused.map((response) => response.status)).toEqual(Array(30).fill(404));
    expect(upstream.calls).toHaveLength(0);
    // Her one build is still there, and a concurrent second one is refused for the quota.
    const [first, second] = await Promise.all([
      proxy(call('POST', '/agent/generate/p-alice', { prompt: 'Make the header blue' })),
      proxy(call('POST', '/agent/generate', { prompt: 'A landing page for a bakery' })),
    ]);
    const statuses = [first?.status, second?.status].sort();
    expect(statuses).toEqual([200, 429]);
    await first?.text();
    await second?.text();
    expect(upstream.calls).toHaveLength(1);
  });
});

describe('requests in flight, per end user', () => {
  /** Lets the proxy's own promises run until `done` holds. */
  async function until(done: () => boolean) {
    for (let round = 0; round < 500 && !done(); round++) await new Promise((resolve) => setImmediate(resolve));
    expect(done()).toBe(true);
  }

  it('one more than maxRequestsPerUser is refused with 429 before anything goes upstream; others are served', async () => {
    const held: (() => void)[] = [];
    const { proxy, upstream } = setup(
      async (sent) => {
        await new Promise<void>((resolve) => held.push(resolve));
        return answer(sent);
      },
      { maxRequestsPerUser: 3, rateLimit: false },
    );
    const connection = (user: string) => call('GET', `/deployments/vercel/connections/${user}`, undefined, {}, user);
    const alices = [1, 2, 3].map(() => proxy(connection('alice')));
    await until(() => upstream.calls.length === 3);
    const refused = await proxy(connection('alice'));
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await refused.json()).toMatchObject({ success: false, message: 'Too Many Attempts.' });
    expect(upstream.calls).toHaveLength(3);
    // Another end user is not held by alice's requests.
    const bobs = proxy(connection('bob'));
    await until(() => upstream.calls.length === 4);
    for (const release of held.splice(0)) release();
    expect((await Promise.all([...alices, bobs])).map((response) => response.status)).toEqual([200, 200, 200, 200]);
    // Answered, alice's slots are free again.
    const again = proxy(connection('alice'));
    await until(() => held.length === 1);
    held.splice(0).forEach((release) => release());
    expect((await again).status).toBe(200);
  });

  it('refuses a maxRequestsPerUser that is not a whole number of 0 or more', async () => {
    for (const maxRequestsPerUser of [-1, 1.5, Number.NaN]) {
      const { proxy } = setup(answer, { maxRequestsPerUser });
      expect((await proxy(call('GET', '/agent/project/p-alice'))).status).toBe(500);
    }
  });
});
