/**
 * The proxy trusts nothing it did not decide, route by route: what the browser sees is built from the
 * spec's fields for the signed-in user's own items; identity comes from the session; the return URL from
 * configuration; the token leaves by no channel; JSON depth and size are bounded both ways.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryProxyStore, type AgentProxyOptions, type AgentProxyUser } from 'agent-embed/server';
import {
  createBodyReader,
  createScriptedStream,
  fakeToken,
  json,
  specAnswer,
  type UpstreamCall,
  createScriptedProxy,
} from './scripted-upstream.js';

const appOrigin = 'https://app.example.test';
const basePath = '/api/agent';
const users: Record<string, AgentProxyUser> = {
  alice: { externalUserId: 'alice', name: 'Alice Session', email: 'alice@session.test' },
  bob: { externalUserId: 'bob', name: 'Bob Session', email: 'bob@session.test' },
};
const authorize = (request: Request) =>
  users[/(?:^|;\s*)session=([^;]+)/.exec(request.headers.get('cookie') ?? '')?.[1] ?? ''] ?? null;

function setup(
  answer: (call: UpstreamCall) => Response | Promise<Response>,
  options: Partial<AgentProxyOptions> & { unconfigured?: true } = {},
) {
  const { unconfigured, ...rest } = options;
  return createScriptedProxy(answer, {
    basePath,
    authorize,
    store: createMemoryProxyStore({ owners: { 'p-alice': 'alice', 'p-bob': 'bob' } }),
    statusCacheMs: 0,
    ...(unconfigured ? {} : { appUrl: appOrigin }),
    ...rest,
  });
}

function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Request {
  const init: RequestInit = { method, headers: { cookie: 'session=alice', ...headers } };
  if (body !== undefined) {
    (init.headers as Record<string, string>)['content-type'] = 'application/json';
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
  }
  return new Request(`${appOrigin}${basePath}${path}`, init);
}

/** Noise a hostile or careless upstream adds around what the spec defines. */
const noise = { meta: { total: 99 }, included: [{ external_user_id: 'bob' }], links: { next: '/x' }, debug: 'bob' };
const nested = { secret: { external_user_id: 'bob', email: 'bob@example.test' } };

const aliceDeploymentConnection = {
  id: 1,
  provider: 'vercel',
  provider_name: 'Vercel',
  external_user_id: 'alice',
  provider_account_id: 'acc-a',
  provider_account_name: 'Alice',
  provider_account_email: 'a@example.test',
  expires_at: null,
  last_used_at: null,
  connected_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
  metadata: { slug: 'alice' },
};
const aliceCodehostConnection = {
  id: 7,
  external_user_id: 'alice',
  external_user_name: 'Alice',
  external_user_email: 'a@example.test',
  codehost_user_id: '42',
  codehost_login: 'alice-gh',
  provider: 'github',
  installation_id: '9',
  target_type: null,
  user_authorized: true,
  expires_at: null,
  connected_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
};
const repository = {
  id: 'r1',
  name: 'site',
  full_name: 'alice-gh/site',
  private: 'false',
  default_branch: 'main',
  html_url: 'https://github.example/alice-gh/site',
  clone_url: 'https://github.example/alice-gh/site.git',
  permissions: 'push',
};
const bobOf = <T extends object>(item: T) => ({ ...item, id: 2, external_user_id: 'bob', ...nested });
const envelope = (data: unknown) => ({ success: true, message: 'ok', data, errors: null });

interface RouteCase {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: Record<string, unknown>;
  /** A hostile upstream answer around the genuine one. */
  upstream: unknown;
  /** Exactly what the browser must get. */
  browser: unknown;
}

/** Every JSON route of the spec, with extra keys, totals, second lists and nested unknown objects. */
const routeCases: RouteCase[] = [
  {
    name: 'project status',
    method: 'GET',
    path: '/agent/project/p-alice',
    upstream: {
      status: true,
      project_id: 'p-alice',
      app_url: 'https://p-alice.example',
      project_status: 'ready',
      name: 'Shop',
      owner: { external_user_id: 'bob' },
      ...noise,
    },
    browser: {
      status: true,
      project_id: 'p-alice',
      app_url: 'https://p-alice.example',
      project_status: 'ready',
      name: 'Shop',
    },
  },
  {
    name: 'deployment connections listing',
    method: 'GET',
    path: '/deployments/vercel/connections',
    upstream: {
      ...envelope({ connections: [{ ...aliceDeploymentConnection, ...nested }, bobOf(aliceDeploymentConnection)] }),
      total: 2,
      ...noise,
    },
    browser: envelope([aliceDeploymentConnection]),
  },
  {
    name: 'code-host connections listing (data array)',
    method: 'GET',
    path: '/codehost/connections',
    upstream: {
      ...envelope([{ ...aliceCodehostConnection, ...nested }, bobOf(aliceCodehostConnection)]),
      ...noise,
    },
    browser: envelope([aliceCodehostConnection]),
  },
  {
    name: 'one deployment connection',
    method: 'GET',
    path: '/deployments/vercel/connections/alice',
    upstream: { ...envelope({ ...aliceDeploymentConnection, token: 'provider-secret', ...nested }), ...noise },
    browser: envelope(aliceDeploymentConnection),
  },
  {
    name: 'one code-host connection (detailed)',
    method: 'GET',
    path: '/codehost/connections/alice',
    upstream: envelope({ ...aliceCodehostConnection, installation_status: 'active', access_token: 'gh-secret' }),
    browser: envelope({ ...aliceCodehostConnection, installation_status: 'active' }),
  },
  {
    name: 'repositories (the user’s own page, its meta kept)',
    method: 'GET',
    path: '/codehost/connections/alice/repositories',
    upstream: {
      ...envelope({
        items: [{ ...repository, owner: { login: 'x', token: 'y' } }],
        meta: { total_count: 1, page: 1, per_page: 30, everyone: 500 },
        others: [{ external_user_id: 'bob' }],
      }),
      ...noise,
    },
    browser: envelope({ items: [repository], meta: { total_count: 1, page: 1, per_page: 30 } }),
  },
  {
    name: 'plans (payment ids dropped)',
    method: 'GET',
    path: '/subscription-plans',
    upstream: envelope([
      { id: 1, name: 'Starter', price_monthly: 0, features: ['3 projects', { bad: true }], stripe_price_id: 'price_1' },
    ]),
    browser: envelope([{ id: 1, name: 'Starter', price_monthly: 0, features: ['3 projects'] }]),
  },
  {
    name: 'connect a deployment provider',
    method: 'POST',
    path: '/deployments/vercel/connections',
    body: { token: 'provider-token' },
    upstream: { ...envelope({ ...aliceDeploymentConnection, token: 'provider-token' }), ...noise },
    browser: envelope(aliceDeploymentConnection),
  },
  {
    name: 'deploy',
    method: 'POST',
    path: '/deployments/vercel/project/p-alice/deploy',
    body: {},
    upstream: envelope({ deployment_id: 'd1', status: 'ready', url: 'https://d1.example', team_secret: 'x' }),
    browser: envelope({ deployment_id: 'd1', status: 'ready', url: 'https://d1.example' }),
  },
  {
    name: 'start the code-host install',
    method: 'POST',
    path: '/codehost/connect/start',
    body: { return_url: `${appOrigin}/back` },
    upstream: {
      ...envelope({ redirect_url: 'https://github.com/apps/x/installations/new', state: 's1', pending: nested }),
      ...noise,
    },
    browser: envelope({ redirect_url: 'https://github.com/apps/x/installations/new', state: 's1' }),
  },
  {
    name: 'link a repository',
    method: 'POST',
    path: '/codehost/project/p-alice/link',
    body: { repo_owner: 'alice-gh', repo_name: 'site' },
    upstream: envelope({
      project_id: 'p-alice',
      codehost_login: 'alice-gh',
      repo_url: 'https://github.example/alice-gh/site',
      branch: 'main',
      installation: nested,
    }),
    browser: envelope({
      project_id: 'p-alice',
      codehost_login: 'alice-gh',
      repo_url: 'https://github.example/alice-gh/site',
      branch: 'main',
    }),
  },
  {
    name: 'push',
    method: 'POST',
    path: '/codehost/project/p-alice/push',
    body: { repo_name: 'site' },
    upstream: envelope({
      repo_url: 'https://github.example/alice-gh/site',
      codehost_login: 'alice-gh',
      branch: 'main',
      repo_created: true,
      commit: { author: 'bob' },
    }),
    browser: envelope({
      repo_url: 'https://github.example/alice-gh/site',
      codehost_login: 'alice-gh',
      branch: 'main',
      repo_created: true,
    }),
  },
];

describe('answers are built from the allow-list, never passed through', () => {
  it.each(routeCases)('$name: exactly the spec’s fields of the user’s own items', async (route) => {
    const { proxy } = setup(() => json(route.upstream));
    const response = await proxy(call(route.method, route.path, route.body));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(route.browser);
  });

  it.each(routeCases.filter((route) => route.method === 'GET'))(
    '$name: a failure keeps only the error fields',
    async (route) => {
      const { proxy } = setup(() =>
        json(
          { success: false, message: 'Nope.', data: { external_user_id: 'bob' }, errors: { field: ['bad'] }, ...noise },
          404,
        ),
      );
      const response = await proxy(call(route.method, route.path, route.body));
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({
        success: false,
        message: 'Nope.',
        data: null,
        errors: { field: ['bad'] },
      });
    },
  );

  it.each([
    ['two lists side by side', { success: true, data: { items: [], connections: [] } }],
    ['an unknown list', { success: true, data: { everyone: [] } }],
    ['no data', { success: true }],
    ['a string', 'ok'],
  ])('refuses a listing holding %s with a 502, its detail to the log', async (_, upstream) => {
    const { proxy, logs } = setup(() => json(upstream));
    const response = await proxy(call('GET', '/codehost/connections'));
    expect(response.status).toBe(502);
    expect(await response.json()).toEqual({
      success: false,
      message: 'The Agent API answered with something the proxy cannot relay.',
      data: null,
      errors: null,
    });
    expect(logs.find((entry) => entry.event === 'upstream_refused')?.reason).toMatch(/listing/);
  });

  it('refuses a single resource of another end user (502), never relays it', async () => {
    const { proxy } = setup(() => json(envelope(bobOf(aliceCodehostConnection))));
    const response = await proxy(call('GET', '/codehost/connections/alice'));
    expect(response.status).toBe(502);
    expect(await response.text()).not.toContain('bob');
  });
});

/** Every POST of the spec and the identity fields its upstream body carries, from the session. */
const identityTable: [path: string, body: Record<string, unknown>, carries: 'none' | 'user' | 'profile'][] = [
  ['/agent/generate', { prompt: 'A landing page for a bakery' }, 'none'],
  ['/agent/generate/p-alice', { prompt: 'Make the header blue please' }, 'none'],
  ['/deployments/vercel/connections', { token: 'provider-token' }, 'user'],
  ['/deployments/vercel/project/p-alice/deploy', {}, 'user'],
  ['/codehost/connect/start', { return_url: `${appOrigin}/back` }, 'profile'],
  ['/codehost/project/p-alice/link', { repo_owner: 'o', repo_name: 'r' }, 'user'],
  ['/codehost/project/p-alice/push', { repo_name: 'r' }, 'user'],
];

describe('identity comes from the session only', () => {
  it.each(identityTable)(
    '%s: the browser’s profile fields are replaced by the session’s',
    async (path, body, carries) => {
      const { proxy, upstream, logs } = setup(specAnswer);
      const forged = { ...body, external_user_name: 'Mallory', external_user_email: 'mallory@evil.test' };
      await proxy(call('POST', path, forged));
      await proxy(call('POST', path, { ...forged, external_user_id: 'alice' }));
      for (const sent of upstream.calls) {
        const upstreamBody = JSON.parse(sent.body ?? '{}') as Record<string, unknown>;
        expect(JSON.stringify(upstreamBody)).not.toMatch(/Mallory|mallory/);
        expect(upstreamBody.external_user_id).toBe(carries === 'none' ? undefined : 'alice');
        expect(upstreamBody.external_user_name).toBe(carries === 'profile' ? 'Alice Session' : undefined);
        expect(upstreamBody.external_user_email).toBe(carries === 'profile' ? 'alice@session.test' : undefined);
      }
      // Each dropped field is named to the operator once, however often it comes.
      const dropped = logs.filter((entry) => entry.event === 'identity_dropped');
      expect(dropped.map((entry) => entry.reason?.split(' ')[0]).sort()).toEqual([
        'external_user_email',
        'external_user_name',
      ]);
    },
  );

  it.each(identityTable)(
    '%s: another user’s external_user_id is refused with 403, nothing sent',
    async (path, body) => {
      const { proxy, upstream } = setup(specAnswer);
      expect((await proxy(call('POST', path, { ...body, external_user_id: 'bob' }))).status).toBe(403);
      expect(upstream.calls).toHaveLength(0);
    },
  );

  it('sends only the route’s own fields upstream, type-checked', async () => {
    const { proxy, upstream } = setup(specAnswer);
    await proxy(
      call(
        'POST',
        '/codehost/project/p-alice/push',
        '{"repo_name":"site","private":"yes","branch":"main","installation_id":"other","__proto__":{"polluted":true}}',
      ),
    );
    expect(JSON.parse(upstream.calls[0]?.body ?? '')).toEqual({
      repo_name: 'site',
      branch: 'main',
      external_user_id: 'alice',
    });
  });
});

describe('the server chooses where the browser returns', () => {
  const start = (proxy: ReturnType<typeof setup>['proxy'], returnUrl: unknown, headers: Record<string, string> = {}) =>
    proxy(call('POST', '/codehost/connect/start', returnUrl === undefined ? {} : { return_url: returnUrl }, headers));
  const sentReturnUrl = (upstream: ReturnType<typeof setup>['upstream']) =>
    (JSON.parse(upstream.calls.at(-1)?.body ?? '{}') as { return_url?: string }).return_url;

  it.each([
    ['another origin', 'https://evil.example/back'],
    ['a leading space', ` ${appOrigin}/back`],
    ['a trailing newline', `${appOrigin}/back\n`],
    ['userinfo', `https://app.example.test@evil.example/`],
    ['userinfo on the app origin', `https://user:pass@app.example.test/`],
    ['protocol-relative', '//evil.example/back'],
    ['a backslash path', '/\\evil.example/back'],
    ['javascript:', 'javascript:alert(1)'],
    ['data:', 'data:text/html,<script>alert(1)</script>'],
    ['a scheme-relative http:', 'http:evil.example'],
    ['a subdomain look-alike', 'https://app.example.test.evil.example/'],
    ['a number', 42],
    ['an object', { href: appOrigin }],
  ])('refuses %s (422), nothing sent upstream', async (_, returnUrl) => {
    const { proxy, upstream } = setup(specAnswer);
    const response = await start(proxy, returnUrl);
    expect(response.status).toBe(422);
    expect(upstream.calls).toHaveLength(0);
  });

  it('never takes Origin or Host as an allow-list', async () => {
    const { proxy, upstream } = setup(specAnswer);
    const forged = { origin: 'https://evil.example', host: 'evil.example', 'x-forwarded-host': 'evil.example' };
    expect((await start(proxy, 'https://evil.example/back', forged)).status).toBe(422);
    expect(upstream.calls).toHaveLength(0);
  });

  it('joins a path to the app URL, accepts its own origin normalised, and defaults to the app URL', async () => {
    const { proxy, upstream } = setup(specAnswer, { returnUrlOrigins: ['https://admin.example.test'] });
    expect((await start(proxy, '/projects/123?tab=publish')).status).toBe(200);
    expect(sentReturnUrl(upstream)).toBe(`${appOrigin}/projects/123?tab=publish`);
    expect((await start(proxy, `${appOrigin}/a/../back`)).status).toBe(200);
    expect(sentReturnUrl(upstream)).toBe(`${appOrigin}/back`);
    expect((await start(proxy, 'HTTPS://ADMIN.example.test:443/x')).status).toBe(200);
    expect(sentReturnUrl(upstream)).toBe('https://admin.example.test/x');
    expect((await start(proxy, undefined)).status).toBe(200);
    expect(sentReturnUrl(upstream)).toBe(`${appOrigin}/`);
  });

  describe('with nothing configured', () => {
    const environment = process.env.NODE_ENV;
    afterEach(() => {
      process.env.NODE_ENV = environment;
    });

    it('accepts loopback origins only outside production, and warns once', async () => {
      process.env.NODE_ENV = 'development';
      const { proxy, upstream, logs } = setup(specAnswer, { unconfigured: true });
      for (const url of ['http://localhost:5173/back', 'http://127.0.0.1:3000/', 'http://[::1]:8080/x'])
        expect((await start(proxy, url)).status).toBe(200);
      expect(upstream.calls).toHaveLength(3);
      for (const url of ['https://evil.example/', '/relative', 'http://localhost.evil.example/'])
        expect((await start(proxy, url, { origin: 'https://evil.example' })).status).toBe(422);
      expect(upstream.calls).toHaveLength(3);
      expect(logs.filter((entry) => entry.event === 'config_warning')).toHaveLength(1);
    });

    it('refuses the connect route in production, naming the option to the operator only', async () => {
      process.env.NODE_ENV = 'production';
      const { proxy, upstream, logs } = setup(specAnswer, { unconfigured: true });
      const response = await start(proxy, 'http://localhost:5173/back');
      expect(response.status).toBe(500);
      expect(JSON.stringify(await response.json())).not.toMatch(/appUrl/);
      expect(upstream.calls).toHaveLength(0);
      expect(logs.find((entry) => entry.event === 'config_warning')?.reason).toMatch(/appUrl/);
    });
  });
});

/** The token spelled as a JSON string escape (`\u0074…`), which a plain search would miss. */
const escapedToken = [...fakeToken].map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');

describe('the token cannot leave by any channel', () => {
  it('reaches neither the browser nor the log through any SSE field or header of a stream', async () => {
    const stream = createScriptedStream();
    const { proxy, logs } = setup(() => {
      const response = stream.response();
      response.headers.set('x-debug', fakeToken);
      response.headers.set('set-cookie', `t=${fakeToken}`);
      return response;
    });
    const response = await proxy(call('POST', '/agent/generate', { prompt: 'A landing page for a bakery' }));
    stream.write(`: ${fakeToken}\n\n`);
    stream.write(`event: ${fakeToken}\nid: ${fakeToken}\nretry: ${fakeToken}\n${fakeToken}: x\n`);
    stream.event({ type: 'project_created', project_id: 'p-new', app_url: 'https://p-new.example' });
    stream.write(`data: {"type":"tool_progress","message":"${escapedToken}"}\n\n`);
    stream.write(`data: {"type":"tool_progress","${fakeToken}":"${fakeToken}"}\n\n`);
    stream.write(`data: {"type":"stream_end","project_id":"p-new","note":"${fakeToken}"}\n\n`);
    stream.write(`data: {"unterminated":"${fakeToken}"}`);
    stream.close();
    const text = await createBodyReader(response.body).rest();
    const headers = [...response.headers].flat().join('\n');
    for (const seen of [text, headers, JSON.stringify(logs)]) {
      expect(seen).not.toContain(fakeToken);
      expect(seen).not.toContain(escapedToken);
    }
    expect(text).toContain('"type":"stream_end"');
    expect(text).not.toContain('unterminated');
    expect([...response.headers.keys()].sort()).toEqual([
      'cache-control',
      'content-type',
      'x-accel-buffering',
      'x-content-type-options',
    ]);
  });

  it.each(routeCases)('$name: not in any JSON string, key or header of the answer', async (route) => {
    const poisoned = JSON.parse(
      JSON.stringify(route.upstream).replace(/"(https:\/\/[^"]*|ok|alice-gh|Shop|Starter)"/g, `"$1 ${fakeToken}"`),
    ) as unknown;
    const { proxy, logs } = setup(() =>
      json(poisoned, 200, { 'x-debug': fakeToken, 'retry-after': fakeToken, 'set-cookie': fakeToken }),
    );
    const response = await proxy(call(route.method, route.path, route.body));
    const seen = [await response.text(), [...response.headers].flat().join('\n'), JSON.stringify(logs)];
    for (const text of seen) expect(text).not.toContain(fakeToken);
    expect([...response.headers.keys()].every((name) => allowedHeaders.has(name))).toBe(true);
  });

  it('redacts a failure’s message, escaped or not, and replaces a poisoned Retry-After', async () => {
    const { proxy } = setup(
      () =>
        new Response(`{"status":false,"message":"Bad ${escapedToken}","errors":{"${fakeToken}":["${fakeToken}"]}}`, {
          status: 429,
          headers: { 'content-type': 'application/json', 'retry-after': `5, ${fakeToken}` },
        }),
    );
    const response = await proxy(call('GET', '/agent/project/p-alice'));
    expect(response.status).toBe(429);
    const text = await response.text();
    expect(text).not.toContain(fakeToken);
    expect(text).not.toContain(escapedToken);
    expect(response.headers.get('retry-after')).toBeNull();
  });
});

const allowedHeaders = new Set([
  'content-type',
  'cache-control',
  'x-content-type-options',
  'retry-after',
  'access-control-expose-headers',
]);

describe('JSON depth and size are bounded both ways', () => {
  const deep = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);

  it('answers 400 to a 100,000-deep browser body and 64 levels is the limit', async () => {
    const { proxy, upstream } = setup(specAnswer);
    const response = await proxy(call('POST', '/agent/generate', `{"prompt":"Deep body here","x":${deep(100_000)}}`));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ status: false, message: 'The request body is nested too deeply.' });
    expect((await proxy(call('POST', '/codehost/project/p-alice/push', `{"x":${deep(63)}}`))).status).toBe(200);
    expect((await proxy(call('POST', '/codehost/project/p-alice/push', `{"x":${deep(64)}}`))).status).toBe(400);
    expect(upstream.calls).toHaveLength(1);
  });

  it('answers 400, never 500, to a browser body cut off mid-way, and sends nothing upstream', async () => {
    const { proxy, upstream } = setup(specAnswer);
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"prompt":"A landing page'));
        controller.error(new Error('connection reset'));
      },
    });
    const request = new Request(`${appOrigin}${basePath}/agent/generate`, {
      method: 'POST',
      headers: { cookie: 'session=alice', 'content-type': 'application/json' },
      body,
      duplex: 'half',
    } as RequestInit);
    const response = await proxy(request);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ status: false, message: 'The request body was cut off before its end.' });
    expect(upstream.calls).toHaveLength(0);
  });

  it('counts brackets inside strings as text, not depth', async () => {
    const { proxy } = setup(specAnswer);
    const prompt = `${'['.repeat(500)} a bracketed prompt "\\"[[[`;
    expect((await proxy(call('POST', '/agent/generate/p-alice', { prompt }))).status).not.toBe(400);
  });

  it('answers 502 to a 100,000-deep upstream answer, on every JSON route', async () => {
    for (const route of routeCases) {
      const { proxy, logs } = setup(
        () => new Response(`{"data":${deep(100_000)}}`, { headers: { 'content-type': 'application/json' } }),
      );
      const response = await proxy(call(route.method, route.path, route.body));
      expect(response.status).toBe(502);
      expect(logs.find((entry) => entry.event === 'upstream_refused')?.reason).toMatch(/deep/);
    }
  });

  it('stops reading an upstream answer at the size cap (502) and cancels the rest', async () => {
    const chunk = new TextEncoder().encode(`{"pad":"${'x'.repeat(64 * 1024)}",`);
    let sent = 0;
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent += chunk.length;
        controller.enqueue(chunk);
      },
      cancel() {
        cancelled = true;
      },
    });
    const { proxy } = setup(() => new Response(body, { headers: { 'content-type': 'application/json' } }), {
      maxUpstreamBodyBytes: 1024 * 1024,
    });
    const response = await proxy(call('GET', '/subscription-plans'));
    expect(response.status).toBe(502);
    expect(cancelled).toBe(true);
    expect(sent).toBeLessThan(2 * 1024 * 1024);
  });
});
