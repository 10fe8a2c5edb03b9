/**
 * Red-team audit of the proxy's integration routes (code-host connect / connections / repositories / link / push,
 * deployment connections and deploys, plans, usage), as a hostile end user's browser and as a hostile or broken
 * upstream. Complements hostile-browser(-audit), hostile-upstream-audit and proxy-security: those cover the
 * return_url matrix, 3xx, headers, slow and huge bodies, and address schemes; this file goes deeper on what the
 * integration answers let through, cross-user ownership of connections, the install redirect and broken answers.
 */
import { describe, expect, it } from 'vitest';
import type { AgentProxyOptions } from 'agent-embed/server';
import { forwardedRoutes } from './route-samples.js';
import {
  appOrigin,
  browserRequest,
  createTwoUserProxy,
  fakeToken,
  json,
  specAnswer,
  type UpstreamCall,
  upstreamBase,
} from './scripted-upstream.js';

function setup(
  respond: (call: UpstreamCall) => Response | Promise<Response> = specAnswer,
  options: Partial<AgentProxyOptions> = {},
) {
  return createTwoUserProxy(respond, { teamAnswersCacheMs: 0, ...options });
}

const call = browserRequest;

const envelope = (data: unknown, message = 'ok') => ({ success: true, message, data, errors: null });
const upstreamPath = (upstreamCall: UpstreamCall) => upstreamCall.url.pathname.replace('/api/v1', '');

/** Every key at any depth of a JSON value. */
function keysOf(value: unknown, into: Set<string> = new Set()): Set<string> {
  if (Array.isArray(value)) for (const item of value) keysOf(item, into);
  else if (typeof value === 'object' && value !== null)
    for (const [key, inner] of Object.entries(value)) {
      into.add(key);
      keysOf(inner, into);
    }
  return into;
}

/** Every string at any depth of a JSON value. */
function stringsOf(value: unknown, into: string[] = []): string[] {
  if (typeof value === 'string') into.push(value);
  else if (Array.isArray(value)) for (const item of value) stringsOf(item, into);
  else if (typeof value === 'object' && value !== null)
    for (const inner of Object.values(value)) stringsOf(inner, into);
  return into;
}

/** The integration routes as alice calls them (the forwarded routes' table, without the agent's own). */
const integrationRoutes = forwardedRoutes.filter(
  (route) => !['generate', 'followUp', 'getProject'].includes(route.name),
);

/** Secrets and operator data a hostile upstream mixes into every object of an answer. */
const poison = {
  access_token: 'ghs_installationsecret0001',
  token: 'vercel_provider_secret_0001',
  api_token: fakeToken,
  team_id: 'team-42',
  team: { id: 42, credits: 99999, owner_email: 'owner@agency.test' },
  internal_url: 'http://10.0.0.5:8080/admin',
  stripe_price_id: 'price_123',
  stripe_product_id: 'prod_123',
  other_users: [{ external_user_id: 'bob', external_user_email: 'bob@example.test' }],
  bob_email: 'bob@example.test',
  __meta: { trace: 'sql: select * from teams' },
};

/** The browser-facing allow-list of keys each route's answer may carry (the envelope's and the resource's). */
const envelopeKeys = ['success', 'message', 'data', 'errors'];
const deploymentConnectionKeys = [
  'id',
  'provider',
  'provider_name',
  'external_user_id',
  'provider_account_id',
  'provider_account_name',
  'provider_account_email',
  'expires_at',
  'last_used_at',
  'connected_at',
  'updated_at',
  'metadata',
  'slug',
];
const codehostConnectionKeys = [
  'id',
  'external_user_id',
  'external_user_name',
  'external_user_email',
  'codehost_user_id',
  'codehost_login',
  'provider',
  'installation_id',
  'target_type',
  'user_authorized',
  'expires_at',
  'connected_at',
  'updated_at',
  'installation_status',
];

describe('the install redirect (code-host connect)', () => {
  it('takes the return URL from the body only: return_to / redirect_uri / next in the query or body, Origin, Referer and X-Forwarded-Host change nothing', async () => {
    const { proxy, upstream } = setup(() =>
      json(envelope({ redirect_url: 'https://github.com/apps/x/installations/new', state: 's' })),
    );
    const hostile = 'https://evil.example/steal';
    const query = new URLSearchParams({
      return_url: hostile,
      return_to: hostile,
      redirect_uri: hostile,
      next: hostile,
    });
    const response = await proxy(
      call(
        'POST',
        `/codehost/connect/start?${query}`,
        { return_to: hostile, redirect_uri: hostile, next: hostile, redirect_url: hostile, callback_url: hostile },
        {
          origin: 'https://evil.example',
          referer: 'https://evil.example/page',
          'x-forwarded-host': 'evil.example',
          'x-forwarded-proto': 'http',
          forwarded: 'host=evil.example;proto=http',
        },
      ),
    );
    expect(response.status).toBe(200);
    expect(upstream.calls).toHaveLength(1);
    const sent = JSON.parse(upstream.calls[0]?.body ?? '{}');
    expect(sent.return_url).toBe(`${appOrigin}/`);
    expect(Object.keys(sent).sort()).toEqual([
      'external_user_email',
      'external_user_id',
      'external_user_name',
      'return_url',
    ]);
    expect(upstream.calls[0]?.url.search).toBe('');
    expect(JSON.stringify(sent)).not.toContain('evil');
  });

  it.each([
    '/.%2e//evil.example',
    '/%2E%2E//evil.example',
    'https://app.example.test/.%2E//evil.example',
    'https://app.example.test/x/%2e%2e/%2e%2e//evil.example',
    '/\u2028/evil.example',
    '/\u00a0/evil.example',
    'https://app.example.test\u2028.evil.example',
    'https://app.example.test%2eevil.example/',
    'https://app.example.test%40evil.example/',
    'https://app.example.test%2f@evil.example/',
    'https://xn--pp-8cd.example.test/',
    'https://app.example.test\uff0eevil.example/',
    'http://[::1]/',
    'https://app.example.test/\\evil.example',
    'https://app.example.test.',
    'https://app.example.test./',
    'blob:https://app.example.test/uuid',
    'https:app.example.test/x',
  ])('never sends the browser off the app origin for return_url %j', async (value) => {
    const { proxy, upstream } = setup(() => json(envelope({ redirect_url: 'https://github.com/apps/x', state: 's' })));
    const response = await proxy(call('POST', '/codehost/connect/start', { return_url: value }));
    if (response.status === 422) {
      expect(upstream.calls).toHaveLength(0);
      return;
    }
    expect(response.status).toBe(200);
    const sent = String(JSON.parse(upstream.calls[0]?.body ?? '{}').return_url);
    const url = new URL(sent);
    expect(url.origin).toBe(appOrigin);
    expect(url.pathname.startsWith('//')).toBe(false);
    expect(sent).not.toMatch(/[\s\\]/);
  });

  it.each([
    ['javascript:', 'javascript:alert(document.cookie)'],
    ['data:', 'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg=='],
    ['protocol-relative', '//evil.example/install'],
    ['relative path', '/apps/x/installations/new'],
    ['userinfo lookalike', 'https://github.com@evil.example/apps/x'],
    ['backslash', 'https://github.com\\@evil.example/'],
    ['tab inside', 'https://git\thub.com/apps/x'],
    ['leading space', ' https://github.com/apps/x'],
    ['vbscript', 'vbscript:msgbox(1)'],
    ['file', 'file:///etc/passwd'],
    ['blob', 'blob:https://github.com/uuid'],
  ])('an upstream redirect_url that is %s never reaches the browser as a redirect', async (_label, address) => {
    const { proxy } = setup(() => json(envelope({ redirect_url: address, state: 's' })));
    const response = await proxy(call('POST', '/codehost/connect/start', { return_url: '/done' }));
    const text = await response.text();
    if (response.status === 200) expect(JSON.parse(text).data.redirect_url).toBeNull();
    else expect(response.status).toBe(502);
    expect(text).not.toContain('evil.example');
  });

  // Found by this audit: the install redirect over plain http, or to any https host, was relayed as the redirect. It
  // carries the flow's one-time `state` (over http anyone on the path reads it and can finish the install as the
  // user), and a hostile upstream could send every end user who clicks "Connect" anywhere. The proxy now holds it to
  // `codehostInstallOrigins` (default https://github.com and the Agent API's own origin): anything else is a 502.
  it.each([
    'http://github.com/apps/x/installations/new?state=secret-state',
    'https://github-login.evil.example/apps/x/installations/new?state=secret-state',
    'https://github.com.evil.example/login?state=secret-state',
    'https://github.com:8443/apps/x/installations/new?state=secret-state',
  ])('an install redirect_url outside the configured origins (%s) is a 502, never a redirect', async (address) => {
    const { proxy, logs } = setup(() => json(envelope({ redirect_url: address, state: 'secret-state' })));
    const response = await proxy(call('POST', '/codehost/connect/start', { return_url: '/done' }));
    const text = await response.text();
    expect(response.status).toBe(502);
    expect(text).not.toContain('secret-state');
    expect(JSON.stringify(logs)).toContain('the install address leads outside codehostInstallOrigins');
  });

  it('an install redirect goes to the code host over https, to the Agent API itself, or to the configured origins only', async () => {
    const started = async (address: string, options: Partial<AgentProxyOptions> = {}) => {
      const { proxy } = setup(() => json(envelope({ redirect_url: address, state: 's' })), options);
      const response = await proxy(call('POST', '/codehost/connect/start', { return_url: '/done' }));
      return response.status === 200 ? (await response.json()).data.redirect_url : response.status;
    };
    const github = 'https://github.com/apps/x/installations/new?state=s';
    expect(await started(github)).toBe(github);
    // The Agent API's own origin (a page of its own before the code host; the mock's install page).
    const ownPage = `${new URL(upstreamBase).origin}/codehost/install?state=s`;
    expect(await started(ownPage)).toBe(ownPage);
    const configured = { codehostInstallOrigins: ['https://git.example.test'] };
    expect(await started('https://git.example.test/install?state=s', configured)).toBe(
      'https://git.example.test/install?state=s',
    );
    expect(await started(github, configured)).toBe(502);
    expect(await started(ownPage, configured)).toBe(502);
  });

  it('keeps only redirect_url and state of a start answer, whatever else the upstream adds', async () => {
    const { proxy } = setup(() =>
      json({
        ...envelope({
          redirect_url: 'https://github.com/apps/x/installations/new?state=s',
          state: 's',
          return_url: 'https://evil.example/',
          callback_url: 'https://agent.example.test/internal/callback',
          external_user_id: 'bob',
          ...poison,
        }),
        ...poison,
        redirect: 'https://evil.example/',
      }),
    );
    const response = await proxy(call('POST', '/codehost/connect/start', { return_url: '/done' }));
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(Object.keys(body).sort()).toEqual([...envelopeKeys].sort());
    expect(Object.keys(body.data).sort()).toEqual(['redirect_url', 'state']);
    expect(response.headers.get('location')).toBeNull();
  });
});

describe('connections across end users', () => {
  it.each([
    '/codehost/connections/ALICE',
    '/codehost/connections/Alice/repositories',
    '/deployments/vercel/connections/alice_',
    '/deployments/vercel/connections/bob',
    '/codehost/connections/bob/repositories?external_user_id=alice',
    '/codehost/connections/alice%2F..%2Fbob/repositories',
    '/codehost/connections/alice/../bob/repositories',
    '/codehost/connections/%61lice-',
  ])("never reaches another user's connection through %s (case and spelling variants too)", async (path) => {
    const { proxy, upstream } = setup();
    const response = await proxy(call('GET', path));
    expect([403, 404]).toContain(response.status);
    expect(upstream.calls).toHaveLength(0);
  });

  it('sends the session user to the upstream for deploy, link and push, whatever the browser names (connection ids, owners, installations)', async () => {
    const { proxy, upstream } = setup((upstreamCall) =>
      json(envelope(upstreamPath(upstreamCall).endsWith('/connections') ? { id: 1, external_user_id: 'alice' } : null)),
    );
    const hostileExtras = {
      connection_id: 7,
      deployment_connection_id: 7,
      installation_id: 'bob-installation',
      codehost_connection_id: 9,
      externalUserId: 'bob',
      external_user: 'bob',
      user_id: 'bob',
      project_id: 'p-bob',
      projectId: 'p-bob',
      provider_token: 'x',
      team_id: 1,
    };
    const posts: [string, Record<string, unknown>][] = [
      ['/deployments/vercel/project/p-alice/deploy', {}],
      ['/codehost/project/p-alice/link', { repo_owner: 'bob', repo_name: 'site' }],
      ['/codehost/project/p-alice/push', { repo_owner: 'bob', repo_name: 'site' }],
      ['/deployments/vercel/connections', { token: 't' }],
    ];
    for (const [path, body] of posts) {
      const response = await proxy(call('POST', path, { ...body, ...hostileExtras }));
      expect(response.status, path).toBe(200);
    }
    for (const sent of upstream.calls) {
      const body = JSON.parse(sent.body ?? '{}');
      expect(body.external_user_id).toBe('alice');
      for (const key of Object.keys(hostileExtras)) expect(body, key).not.toHaveProperty(key);
      expect(sent.url.pathname).not.toContain('p-bob');
    }
  });

  it("refuses bob's project on every integration action even when the upstream would accept it, and spends nothing", async () => {
    const { proxy, upstream } = setup(() => json(envelope({ deployment_id: 1, status: 'queued' })));
    for (const path of [
      '/deployments/vercel/project/p-bob/deploy',
      '/codehost/project/p-bob/link',
      '/codehost/project/p-bob/push',
      '/deployments/vercel/project/p-nobody/deploy',
    ]) {
      const response = await proxy(call('POST', path, { repo_owner: 'a', repo_name: 'b' }));
      expect(response.status, path).toBe(404);
    }
    expect(upstream.calls).toHaveLength(0);
  });

  it.each([
    ['another user', { external_user_id: 'bob' }],
    ['a case variant', { external_user_id: 'ALICE' }],
    ['a padded id', { external_user_id: 'alice ' }],
    ['an array', { external_user_id: ['alice'] }],
    ['a number-like object', { external_user_id: { toString: 'alice' } }],
    ['no owner', {}],
    ['a null owner', { external_user_id: null }],
  ])('a single connection answer naming %s is never shown to alice', async (_label, owner) => {
    const bobs = {
      id: 5,
      provider: 'vercel',
      provider_account_email: 'bob@example.test',
      codehost_login: 'bobgh',
      external_user_email: 'bob@example.test',
      ...owner,
    };
    const { proxy } = setup(() => json(envelope(bobs)));
    for (const [method, path, body] of [
      ['GET', '/codehost/connections/alice', undefined],
      ['GET', '/deployments/vercel/connections/alice', undefined],
      ['POST', '/deployments/vercel/connections', { token: 't' }],
    ] as const) {
      const response = await proxy(call(method, path, body));
      const text = await response.text();
      expect(response.status, path).toBe(502);
      expect(text, path).not.toContain('bob');
    }
  });

  it("never shows bob's connection data in a failure answer (404 or a 2xx that says it failed)", async () => {
    const bobs = {
      id: 5,
      external_user_id: 'bob',
      codehost_login: 'bobgh',
      provider_account_email: 'bob@example.test',
    };
    for (const [status, success] of [
      [404, false],
      [200, false],
      [409, false],
      [422, false],
    ] as const) {
      const { proxy } = setup(() =>
        json(
          { success, message: 'Not found.', data: bobs, errors: null, connection: bobs, connections: [bobs] },
          status,
        ),
      );
      for (const path of ['/codehost/connections/alice', '/deployments/vercel/connections/alice']) {
        const response = await proxy(call('GET', path));
        const body = await response.json();
        expect(body.data, `${status} ${path}`).toBeNull();
        expect(JSON.stringify(body), `${status} ${path}`).not.toMatch(/bob/);
      }
    }
  });

  it('a listing keeps only alice’s items, and of those nothing nested that names someone else', async () => {
    const alices = {
      id: 1,
      external_user_id: 'alice',
      codehost_login: 'alicegh',
      metadata: { slug: 'alice-team', owner: 'bob', members: ['bob@example.test'] },
      external_user: { id: 'bob' },
      ...poison,
    };
    const bobs = {
      id: 2,
      external_user_id: 'bob',
      codehost_login: 'bobgh',
      provider_account_email: 'bob@example.test',
    };
    const { proxy } = setup(() => json({ ...envelope({ connections: [alices, bobs] }), ...poison }));
    for (const path of ['/codehost/connections', '/deployments/vercel/connections']) {
      const response = await proxy(call('GET', path));
      expect(response.status, path).toBe(200);
      const body = await response.json();
      expect(body.data).toHaveLength(1);
      expect(JSON.stringify(body), path).not.toMatch(/bob|secret|team-42|10\.0\.0\.5|price_|prod_|sql/);
      expect(body.data[0].external_user_id).toBe('alice');
    }
  });
});

describe('what the browser sees of integration answers', () => {
  /** A success answer for each route with every allowed field plus the poison in every object. */
  function poisoned(upstreamCall: UpstreamCall): Response {
    const path = upstreamPath(upstreamCall);
    const deploymentConnection = {
      id: 1,
      provider: 'vercel',
      provider_name: 'Vercel',
      external_user_id: 'alice',
      provider_account_id: 'acc',
      provider_account_name: 'Alice',
      provider_account_email: 'alice@example.test',
      expires_at: null,
      last_used_at: null,
      connected_at: '2025-01-01',
      updated_at: '2025-01-01',
      metadata: { slug: 'alice', ...poison },
      ...poison,
    };
    const codehostConnection = {
      id: 1,
      external_user_id: 'alice',
      external_user_name: 'Alice',
      external_user_email: 'alice@example.test',
      codehost_user_id: '1',
      codehost_login: 'alicegh',
      provider: 'github',
      installation_id: '9',
      target_type: 'User',
      user_authorized: true,
      expires_at: null,
      connected_at: '2025-01-01',
      updated_at: '2025-01-01',
      installation_status: 'active',
      installation: poison,
      ...poison,
    };
    const wrap = (data: unknown) => json({ ...envelope(data), ...poison, meta: poison, included: [poison] });
    if (path === '/deployments/vercel/connections')
      return upstreamCall.method === 'POST' ? wrap(deploymentConnection) : wrap([deploymentConnection]);
    if (path === '/deployments/vercel/connections/alice') return wrap(deploymentConnection);
    if (path.endsWith('/deploy'))
      return wrap({
        deployment_id: 1,
        status: 'queued',
        url: 'https://alice.vercel.app',
        project_id: 'p-alice',
        ...poison,
      });
    if (path === '/codehost/connect/start')
      return wrap({ redirect_url: 'https://github.com/apps/x/installations/new', state: 's', ...poison });
    if (path === '/codehost/connections') return wrap([codehostConnection]);
    if (path === '/codehost/connections/alice') return wrap(codehostConnection);
    if (path.endsWith('/repositories'))
      return wrap({
        items: [
          {
            id: 1,
            name: 'site',
            full_name: 'alice/site',
            private: true,
            default_branch: 'main',
            html_url: 'https://github.com/alice/site',
            clone_url: 'https://github.com/alice/site.git',
            permissions: { admin: true, push: true, pull: true, ...poison },
            owner: poison,
            ...poison,
          },
        ],
        meta: { total_count: 1, page: 1, per_page: 30, ...poison },
        ...poison,
      });
    if (path.endsWith('/link'))
      return wrap({
        project_id: 'p-alice',
        codehost_login: 'alicegh',
        repo_url: 'https://github.com/alice/site',
        branch: 'main',
        ...poison,
      });
    if (path.endsWith('/push'))
      return wrap({
        repo_url: 'https://github.com/alice/site',
        codehost_login: 'alicegh',
        branch: 'main',
        repo_created: false,
        ...poison,
      });
    if (path === '/subscription-plans')
      return wrap({
        plans: [
          { id: 1, name: 'Pro', slug: 'pro', price: 10, credits: 100, features: ['a'], sort_order: 1, ...poison },
        ],
      });
    return json({ success: false, message: 'unexpected', data: null, errors: null }, 500);
  }

  const poisonKeys = Object.keys(poison).concat([
    'owner',
    'installation',
    'included',
    'members',
    'trace',
    'credits_balance',
  ]);

  it.each(integrationRoutes.map((route) => [route.name, route] as const))(
    '%s: no upstream extra (tokens, team, internal URLs, other users, payment ids) reaches the browser',
    async (_name, route) => {
      const { proxy } = setup(poisoned);
      const response = await proxy(call(route.method, route.path, route.body));
      expect(response.status).toBe(200);
      const body = await response.json();
      const keys = keysOf(body);
      for (const key of poisonKeys) if (key !== 'credits' && key !== 'token') expect(keys.has(key), key).toBe(false);
      const text = JSON.stringify(body);
      for (const leaked of [
        'ghs_installationsecret',
        'vercel_provider_secret',
        fakeToken,
        'team-42',
        'owner@agency.test',
        '10.0.0.5',
        'price_123',
        'prod_123',
        'bob',
        'sql:',
      ])
        expect(text, leaked).not.toContain(leaked);
      for (const header of ['set-cookie', 'location', 'x-upstream-secret', 'server'])
        expect(response.headers.get(header), header).toBeNull();
    },
  );

  it('keeps exactly the spec fields of a connection, nested objects included', async () => {
    const { proxy } = setup(poisoned);
    const deployment = await (await proxy(call('GET', '/deployments/vercel/connections/alice'))).json();
    expect([...keysOf(deployment.data)].sort()).toEqual([...deploymentConnectionKeys].sort());
    const codehost = await (await proxy(call('GET', '/codehost/connections/alice'))).json();
    expect([...keysOf(codehost.data)].sort()).toEqual([...codehostConnectionKeys].sort());
  });

  // Found by this audit: a repository's clone_url was relayed as any string, so a credentialed clone URL (an
  // installation token as its user info, as git remotes often carry it), `javascript:` or a `//host` address reached
  // the browser as sent. It is now an address like html_url: http(s) only, never with user info, else null.
  it.each([
    'https://x-access-token:ghs_installationsecret0001@github.com/alice/site.git',
    'javascript:alert(document.domain)',
    '//evil.example/alice/site.git',
  ])('a repository clone_url %j (credentials or a non-http scheme) never reaches the browser', async (cloneUrl) => {
    const { proxy } = setup(() =>
      json(
        envelope({
          items: [
            {
              id: 1,
              name: 'site',
              full_name: 'alice/site',
              html_url: 'https://github.com/alice/site',
              clone_url: cloneUrl,
            },
          ],
          meta: { total_count: 1, page: 1, per_page: 30 },
        }),
      ),
    );
    const response = await proxy(call('GET', '/codehost/connections/alice/repositories'));
    expect(response.status).toBe(200);
    const body = await response.json();
    const relayed = body.data.items[0]?.clone_url ?? null;
    expect(relayed).toBeNull();
  });

  // The API's own failure message (a 401 about the token, a 403 about the team, a 500's text) is relayed on purpose,
  // redacted: the agency gets it through `onError` in the browser (docs/proxy.md), and the components show the end
  // user their own words instead (test/react/error-alert.test.tsx, test/react/label-terms.node.test.ts).
  it('redacts the team token from every string of an integration failure, including validation errors and field names', async () => {
    const { proxy } = setup(() =>
      json(
        {
          success: false,
          message: `Bearer ${fakeToken} was refused`,
          data: { token: fakeToken },
          errors: { external_user_id: [`token ${fakeToken} cannot act for bob`], [fakeToken.slice(0, 40)]: ['x'] },
        },
        422,
      ),
    );
    for (const route of integrationRoutes) {
      const response = await proxy(call(route.method, route.path, route.body));
      const text = await response.text();
      expect(text, route.name).not.toContain(fakeToken);
      expect(JSON.parse(text).data ?? null, route.name).toBeNull();
    }
  });
});

describe('plans and usage', () => {
  it('a plans answer never carries team data, payment ids or the caller’s balance, and is the same for every user', async () => {
    const { proxy } = setup(
      () =>
        json({
          ...envelope({
            plans: [
              {
                id: 1,
                name: 'Pro',
                slug: 'pro',
                price: 10,
                credits: 100,
                features: ['a', 1, { html: '<b>' }],
                sort_order: 1,
                stripe_price_id: 'price_123',
                stripe_product_id: 'prod_123',
                paddle_price_id: 'pri_1',
                team_credits_balance: 12345,
                current_team_plan: true,
                subscribers: [{ team_id: 42, email: 'owner@agency.test' }],
              },
            ],
          }),
          team: poison.team,
        }),
      { teamAnswersCacheMs: 60_000 },
    );
    const alice = await (await proxy(call('GET', '/subscription-plans'))).json();
    const bob = await (await proxy(call('GET', '/subscription-plans', undefined, {}, 'bob'))).json();
    expect(bob).toEqual(alice);
    const text = JSON.stringify(alice);
    for (const leaked of ['price_123', 'prod_123', 'pri_1', '12345', 'current_team_plan', 'owner@agency.test', 'team'])
      expect(text, leaked).not.toContain(leaked);
    expect(alice.data[0].features).toEqual(['a']);
  });

  it('usage is the session user’s only, whatever the query or headers name', async () => {
    const { proxy } = setup(specAnswer, { quota: { generations: 3, per: 'day' } });
    const own = await (await proxy(call('GET', '/usage'))).json();
    for (const [query, headers] of [
      ['?externalUserId=bob', {}],
      ['?external_user_id=bob&user=bob', {}],
      ['', { 'x-external-user-id': 'bob', authorization: `Bearer ${fakeToken}` }],
    ] as const) {
      const response = await proxy(call('GET', `/usage${query}`, undefined, headers));
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual(own);
    }
    const none = await proxy(call('GET', '/usage', undefined, {}, 'nobody'));
    expect(none.status).toBe(401);
    expect(JSON.stringify(own)).not.toContain(fakeToken);
  });
});

describe('broken upstream on the integration routes', () => {
  const broken: [string, () => Response][] = [
    ['null', () => json(null)],
    ['a bare string', () => json('ok')],
    ['a bare number', () => json(1)],
    ['an empty array', () => json([])],
    ['an empty object', () => json({})],
    ['null everywhere', () => json({ success: null, message: null, data: null, errors: null })],
    ['data as a string', () => json({ success: true, message: 'ok', data: 'alice', errors: null })],
    ['data as an array of nulls', () => json({ success: true, message: 'ok', data: [null, null], errors: null })],
    [
      'data with every field null',
      () =>
        json(
          envelope({
            id: null,
            external_user_id: 'alice',
            redirect_url: null,
            state: null,
            items: null,
            meta: null,
            connections: null,
            plans: null,
            repo_url: null,
          }),
        ),
    ],
    [
      'wrong types everywhere',
      () =>
        json({
          success: 'true',
          message: 42,
          data: {
            external_user_id: 'alice',
            id: {},
            items: 'x',
            meta: [],
            redirect_url: 7,
            state: ['s'],
            repo_created: 'yes',
          },
          errors: 'none',
        }),
    ],
    ['errors as a deep list', () => json({ success: false, message: 'bad', data: null, errors: [[['x']]] }, 422)],
    ['message as an object', () => json({ success: false, message: { text: 'x' }, data: null, errors: null }, 400)],
    [
      'an HTML error page',
      () =>
        new Response('<html>502 Bad Gateway nginx</html>', { status: 502, headers: { 'content-type': 'text/html' } }),
    ],
    [
      'a 500 with a stack trace',
      () => json({ message: 'Server Error', exception: 'PDOException', trace: [{ file: '/var/www/app.php' }] }, 500),
    ],
  ];

  it.each(broken)(
    '%s: every integration route answers a well-formed, bounded JSON, never a 500 or a leak',
    async (_label, answer) => {
      const { proxy, logs } = setup(answer);
      for (const route of integrationRoutes) {
        const response = await proxy(call(route.method, route.path, route.body));
        // An upstream 5xx keeps its status (docs/proxy.md); the proxy's own failure would log internal_error (below).
        const text = await response.text();
        const body = JSON.parse(text);
        expect(typeof body, route.name).toBe('object');
        expect(text, route.name).not.toMatch(/PDOException|\/var\/www|nginx|<html/);
        if (response.status >= 400) {
          expect(typeof body.message, route.name).toBe('string');
        }
        for (const value of stringsOf(body)) expect(value.length).toBeLessThan(10_000);
      }
      expect(logs.some((entry) => entry.event === 'internal_error')).toBe(false);
    },
  );

  it('a 2xx listing that repeats alice a million times in one key is bounded by the size cap, not relayed', async () => {
    const big = JSON.stringify(envelope({ connections: [] })).replace(
      '[]',
      `[${'{"external_user_id":"alice"},'.repeat(200_000)}{}]`,
    );
    const { proxy } = setup(() => new Response(big, { headers: { 'content-type': 'application/json' } }));
    const response = await proxy(call('GET', '/codehost/connections'));
    expect([200, 502]).toContain(response.status);
    const text = await response.text();
    expect(text.length).toBeLessThan(big.length);
  });
});
