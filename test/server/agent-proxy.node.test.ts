import { describe, expect, it } from 'vitest';
import {
  createAgentProxy,
  createMemoryProxyStore,
  type AgentProxyOptions,
  type AgentProxyUser,
} from 'agent-embed/server';
import {
  createBodyReader,
  createManualTimers,
  createScriptedStream,
  fakeToken,
  json,
  specAnswer,
  upstreamBase,
  type UpstreamCall,
  createScriptedProxy,
} from './scripted-upstream.js';

const origin = 'http://app.test';
const basePath = '/api/agent';

const users: Record<string, AgentProxyUser> = {
  alice: { externalUserId: 'alice', name: 'Alice', email: 'alice@example.test' },
  bob: { externalUserId: 'bob', name: 'Bob', email: 'bob@example.test' },
  carol: { externalUserId: 'carol', name: 'Carol', email: 'carol@example.test' },
};

/** The agency's session: a cookie naming the user, as a real app would check a signed one. */
async function authorize(request: Request): Promise<AgentProxyUser | null> {
  const session = /(?:^|;\s*)session=([^;]+)/.exec(request.headers.get('cookie') ?? '')?.[1];
  return session === undefined ? null : (users[session] ?? null);
}

function setup(
  answer: (call: UpstreamCall) => Response | Promise<Response> = () => json({ ok: true }),
  options: Partial<AgentProxyOptions> = {},
) {
  return createScriptedProxy(answer, {
    basePath,
    authorize,
    store: createMemoryProxyStore({ owners: { 'p-alice': 'alice', 'p-bob': 'bob' } }),
    ...options,
  });
}

function call(
  method: string,
  path: string,
  init: { user?: string; body?: unknown; headers?: Record<string, string>; rawBody?: string } = {},
): Request {
  const headers: Record<string, string> = { ...(init.headers ?? {}) };
  if (init.user !== undefined) headers.cookie = `session=${init.user}`;
  const requestInit: RequestInit = { method, headers };
  if (init.body !== undefined || init.rawBody !== undefined) {
    headers['content-type'] ??= 'application/json';
    requestInit.body = init.rawBody ?? JSON.stringify(init.body);
  }
  return new Request(`${origin}${basePath}${path}`, requestInit);
}

async function bodyOf(response: Response): Promise<unknown> {
  return JSON.parse(await response.text());
}

describe('forwarding', () => {
  it('builds the upstream URL from the route table, sends the token and none of the browser credentials', async () => {
    const { proxy, upstream } = setup(() =>
      json({ status: true, project_id: 'p-alice', app_url: 'https://a.example', project_status: 'ready', name: 'A' }),
    );
    const response = await proxy(
      call('GET', '/agent/project/p-alice?x=1', {
        user: 'alice',
        headers: { authorization: 'Bearer browser-secret', 'x-forwarded-host': 'evil.test' },
      }),
    );
    expect(response.status).toBe(200);
    expect(upstream.calls).toHaveLength(1);
    const [sent] = upstream.calls;
    expect(sent?.url.href).toBe(`${upstreamBase}/agent/project/p-alice`);
    expect(sent?.headers.get('authorization')).toBe(`Bearer ${fakeToken}`);
    expect(sent?.headers.get('cookie')).toBeNull();
    expect(sent?.headers.get('x-forwarded-host')).toBeNull();
    expect(sent?.redirect).toBe('error');
    expect([...response.headers.keys()].sort()).toEqual(['cache-control', 'content-type', 'x-content-type-options']);
  });

  it('forwards only the paging query of the repository listing', async () => {
    const { proxy, upstream } = setup(() =>
      json({
        success: true,
        message: 'ok',
        data: { items: [], meta: { total_count: 0, page: 2, per_page: 5 } },
        errors: null,
      }),
    );
    await proxy(call('GET', '/codehost/connections/alice/repositories?page=2&per_page=5&token=x', { user: 'alice' }));
    expect(upstream.calls[0]?.url.search).toBe('?page=2&per_page=5');
  });

  it.each([
    ['page 0', 'page=0', { page: ['The page field must be an integer of at least 1.'] }],
    [
      'a negative page and an exponent',
      'page=-5&per_page=1e9',
      { page: ['The page field must be an integer of at least 1.'], per_page: [expect.any(String)] },
    ],
    ['per_page 101', 'per_page=101', { per_page: ['The per page field must be an integer between 1 and 100.'] }],
    ['a page that is not a number', 'page=abc', { page: [expect.any(String)] }],
    ['a page of 5,000 digits', `page=${'9'.repeat(5000)}`, { page: [expect.any(String)] }],
  ])(
    'refuses a paging value outside the spec’s bounds with 422, before the upstream: %s',
    async (_, search, errors) => {
      const { proxy, upstream } = setup(() =>
        json({ success: true, message: 'ok', data: { items: [] }, errors: null }),
      );
      const response = await proxy(
        call('GET', `/codehost/connections/alice/repositories?${search}`, { user: 'alice' }),
      );
      expect(response.status).toBe(422);
      expect(await response.json()).toMatchObject({ success: false, errors });
      expect(upstream.calls).toHaveLength(0);
    },
  );

  it('sends a paging value as the number it reads, and the first of a repeated one', async () => {
    const { proxy, upstream } = setup(() => json({ success: true, message: 'ok', data: { items: [] }, errors: null }));
    await proxy(
      call('GET', '/codehost/connections/alice/repositories?page=007&page=2&per_page=100', { user: 'alice' }),
    );
    expect(upstream.calls[0]?.url.search).toBe('?page=7&per_page=100');
  });

  it('uses upstream path overrides while the browser keeps the spec paths', async () => {
    const { proxy, upstream } = setup(() => json([]), { paths: { listPlans: '/plans' } });
    expect((await proxy(call('GET', '/subscription-plans', { user: 'alice' }))).status).toBe(200);
    expect(upstream.calls[0]?.url.pathname).toBe('/api/v1/plans');
  });

  it('answers 502 in the spec shape when the upstream is unreachable, and never retries a generation', async () => {
    const { proxy, upstream } = setup(() => {
      throw new TypeError('fetch failed');
    });
    const generate = await proxy(
      call('POST', '/agent/generate', { user: 'alice', body: { prompt: 'A landing page for a bakery' } }),
    );
    expect(generate.status).toBe(502);
    expect(await bodyOf(generate)).toEqual({ status: false, message: 'The Agent API could not be reached.' });
    expect(upstream.calls).toHaveLength(1);
    const deploy = await proxy(call('POST', '/deployments/vercel/project/p-alice/deploy', { user: 'alice', body: {} }));
    expect(deploy.status).toBe(502);
    expect(await bodyOf(deploy)).toEqual({
      success: false,
      message: 'The Agent API could not be reached.',
      data: null,
      errors: null,
    });
  });

  it('refuses an upstream redirect and a non-JSON upstream body instead of relaying them', async () => {
    const redirect = setup(() => new Response(null, { status: 302, headers: { location: 'https://evil.test/' } }));
    const redirected = await redirect.proxy(call('GET', '/subscription-plans', { user: 'alice' }));
    expect(redirected.status).toBe(502);
    expect(redirected.headers.get('location')).toBeNull();
    const html = setup(
      () => new Response('<script>alert(1)</script>', { status: 500, headers: { 'content-type': 'text/html' } }),
    );
    const page = await html.proxy(call('GET', '/subscription-plans', { user: 'alice' }));
    expect(page.status).toBe(502);
    expect(page.headers.get('content-type')).toBe('application/json');
    expect(await page.text()).not.toContain('<script>');
  });

  it('passes upstream failures through with their status and body, the token redacted', async () => {
    const { proxy } = setup(() => json({ status: false, message: `Unauthorized. (${fakeToken})` }, 401));
    const response = await proxy(call('GET', '/subscription-plans', { user: 'alice' }));
    expect(response.status).toBe(401);
    const text = await response.text();
    expect(text).not.toContain(fakeToken);
    expect(JSON.parse(text)).toEqual({ status: false, message: 'Unauthorized. ([redacted])' });
  });

  it('redacts the token when the upstream echoes it with JSON escapes, in an answer and in a streamed event', async () => {
    const escaped = [...fakeToken].map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
    const upstreamStream = createScriptedStream();
    const { proxy } = setup(
      (sent) =>
        sent.method === 'GET'
          ? new Response(`{"status":false,"message":"Bad token ${escaped}"}`, {
              status: 401,
              headers: { 'content-type': 'application/json' },
            })
          : upstreamStream.response(),
      { timers: createManualTimers() },
    );
    const answer = await proxy(call('GET', '/subscription-plans', { user: 'alice' }));
    expect(((await answer.json()) as { message: string }).message).toBe('Bad token [redacted]');

    const response = await proxy(
      call('POST', '/agent/generate/p-alice', { user: 'alice', body: { prompt: 'Make the header blue please' } }),
    );
    upstreamStream.write(`data: {"type":"tool_progress","message":"${fakeToken}"}\n\n`);
    upstreamStream.write(`data: {"type":"error","message":"Bad token ${escaped}"}\n\n`);
    upstreamStream.close();
    const text = await createBodyReader(response.body).rest();
    const events = text
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice(6)) as Record<string, string>);
    expect(events).toEqual([
      { type: 'tool_progress', message: '[redacted]' },
      { type: 'error', message: 'Bad token [redacted]' },
    ]);
    expect(text).toMatch(/^id: 1\ndata: .*\n\nid: 2\ndata: .*\n\n$/s);
    // What the events route replays was redacted too.
    const replay = await proxy(call('GET', '/projects/p-alice/events', { user: 'alice' }));
    const replayed = await replay.text();
    expect(replayed).toContain('[redacted]');
    expect(replayed).not.toContain(fakeToken);
    expect(replayed).not.toContain(escaped);
  });

  it('drops an event whose data lines, joined as a browser joins them, are not JSON: a token cut across them never goes on', async () => {
    const upstreamStream = createScriptedStream();
    const { proxy } = setup(() => upstreamStream.response(), { timers: createManualTimers() });
    const response = await proxy(
      call('POST', '/agent/generate/p-alice', { user: 'alice', body: { prompt: 'Make the header blue please' } }),
    );
    const [head, tail] = [fakeToken.slice(0, 5), fakeToken.slice(5)];
    const escapedTail = [...tail].map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
    upstreamStream.write(`data: Bad token ${head}\ndata: ${tail}, really\n\n`);
    upstreamStream.write(`data: {"type":"error","message":"Bad token ${head}\ndata:\ndata: ${escapedTail}"}\n\n`);
    upstreamStream.close();
    const text = await createBodyReader(response.body).rest();
    // What a browser's EventSource hands over: each event's data lines joined by newlines.
    const events = text
      .split('\n\n')
      .filter((block) => block !== '')
      .map((block) =>
        block
          .split('\n')
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.replace(/^data: ?/, ''))
          .join('\n'),
      );
    expect(events).toEqual([]);
    expect(text.replace(/\ndata: ?/g, '')).not.toContain(head);
  });
});

describe('routing', () => {
  it.each([
    ['GET', '/agent/unknown'],
    ['DELETE', '/agent/project/p-alice'],
    ['PUT', '/agent/generate'],
    ['OPTIONS', '/agent/generate'],
    ['GET', '/agent/generate'],
    ['GET', '/agent/project/p-alice/'],
    ['GET', '/agent/project/..%2F..%2Fadmin'],
    ['GET', '/agent/project/p%2Falice'],
    ['GET', '/agent/project/p-alice%0d%0aset-cookie:%20x=1'],
    ['GET', '/agent/project/a.b'],
  ])('%s %s is 404 and never reaches the upstream', async (method, path) => {
    const { proxy, upstream } = setup();
    const response = await proxy(call(method, path, { user: 'alice' }));
    expect(response.status).toBe(404);
    expect(response.headers.get('set-cookie')).toBeNull();
    expect(upstream.calls).toHaveLength(0);
  });

  it('answers 404 outside its base path, including a traversal out of it', async () => {
    const { proxy, upstream } = setup();
    for (const url of [
      `${origin}/other/agent/project/p-alice`,
      `${origin}${basePath}/../agent/project/p-alice`,
      `${origin}${basePath}x/agent/project/p-alice`,
    ]) {
      const response = await proxy(new Request(url, { headers: { cookie: 'session=alice' } }));
      expect(response.status).toBe(404);
    }
    expect(upstream.calls).toHaveLength(0);
  });

  it('answers unknown deployment and code-host paths in the envelope shape', async () => {
    const { proxy } = setup();
    expect(await bodyOf(await proxy(call('GET', '/codehost/nothing', { user: 'alice' })))).toEqual({
      success: false,
      message: 'Not found.',
      data: null,
      errors: null,
    });
  });
});

describe('end users', () => {
  it('answers 401 without a session, in the shape of each endpoint family', async () => {
    const { proxy, upstream } = setup();
    const agent = await proxy(call('GET', '/agent/project/p-alice'));
    expect(agent.status).toBe(401);
    expect(await bodyOf(agent)).toEqual({ status: false, message: 'Unauthorized.' });
    const envelope = await proxy(call('GET', '/codehost/connections/alice', { user: 'mallory' }));
    expect(envelope.status).toBe(401);
    expect(await bodyOf(envelope)).toEqual({ success: false, message: 'Unauthorized.', data: null, errors: null });
    expect(upstream.calls).toHaveLength(0);
  });

  it('refuses another end user in a path with 403', async () => {
    const { proxy, upstream } = setup();
    for (const path of [
      '/deployments/vercel/connections/bob',
      '/codehost/connections/bob',
      '/codehost/connections/bob/repositories?page=1',
    ]) {
      const response = await proxy(call('GET', path, { user: 'alice' }));
      expect(response.status).toBe(403);
      expect(await bodyOf(response)).toMatchObject({ success: false, data: null });
    }
    expect(upstream.calls).toHaveLength(0);
  });

  it('refuses another end user in a body with 403 on every POST', async () => {
    const { proxy, upstream } = setup();
    const posts: [string, Record<string, unknown>][] = [
      ['/agent/generate', { prompt: 'A landing page for a bakery' }],
      ['/agent/generate/p-alice', { prompt: 'Make the header blue please' }],
      ['/deployments/vercel/connections', { token: 'provider-token' }],
      ['/deployments/vercel/project/p-alice/deploy', {}],
      ['/codehost/connect/start', { return_url: `${origin}/back` }],
      ['/codehost/project/p-alice/link', { repo_owner: 'o', repo_name: 'r' }],
      ['/codehost/project/p-alice/push', {}],
    ];
    for (const [path, body] of posts) {
      for (const other of ['bob', 7, null, ['alice']]) {
        const response = await proxy(call('POST', path, { user: 'alice', body: { ...body, external_user_id: other } }));
        expect(response.status, `${path} with ${JSON.stringify(other)}`).toBe(403);
      }
    }
    expect(upstream.calls).toHaveLength(0);
  });

  it('fills the signed-in user into bodies that carry one, and the profile into the code-host start', async () => {
    const { proxy, upstream } = setup(() => json({ success: true, message: 'ok', data: {}, errors: null }), {
      appUrl: origin,
    });
    await proxy(call('POST', '/deployments/vercel/connections', { user: 'alice', body: { token: 'provider-token' } }));
    await proxy(call('POST', '/deployments/vercel/project/p-alice/deploy', { user: 'alice', body: {} }));
    await proxy(call('POST', '/codehost/connect/start', { user: 'alice', body: { return_url: `${origin}/back` } }));
    await proxy(
      call('POST', '/codehost/connect/start', {
        user: 'alice',
        body: { external_user_id: 'alice', external_user_name: 'Al', return_url: `${origin}/back` },
      }),
    );
    await proxy(
      call('POST', '/codehost/project/p-alice/link', { user: 'alice', body: { repo_owner: 'o', repo_name: 'r' } }),
    );
    await proxy(call('POST', '/codehost/project/p-alice/push', { user: 'alice', body: { repo_name: 'site' } }));
    const bodies = upstream.calls.map((sent) => JSON.parse(sent.body ?? 'null') as Record<string, unknown>);
    expect(bodies).toEqual([
      { token: 'provider-token', external_user_id: 'alice' },
      { external_user_id: 'alice' },
      {
        return_url: `${origin}/back`,
        external_user_id: 'alice',
        external_user_name: 'Alice',
        external_user_email: 'alice@example.test',
      },
      // The browser's profile fields never pass: the session's do.
      {
        external_user_id: 'alice',
        external_user_name: 'Alice',
        return_url: `${origin}/back`,
        external_user_email: 'alice@example.test',
      },
      { repo_owner: 'o', repo_name: 'r', external_user_id: 'alice' },
      { repo_name: 'site', external_user_id: 'alice' },
    ]);
  });

  it('refuses a return_url that is not http(s) or not an allowed origin', async () => {
    const open = setup();
    for (const return_url of ['javascript:alert(1)', 'data:text/html,x', 'not a url', 42]) {
      const response = await open.proxy(
        call('POST', '/codehost/connect/start', { user: 'alice', body: { return_url } }),
      );
      expect(response.status).toBe(422);
      expect(await bodyOf(response)).toMatchObject({ success: false, errors: { return_url: [expect.any(String)] } });
    }
    const strict = setup(() => json({ success: true, message: 'ok', data: {}, errors: null }), {
      returnUrlOrigins: ['https://app.test'],
    });
    expect(
      (
        await strict.proxy(
          call('POST', '/codehost/connect/start', { user: 'alice', body: { return_url: 'https://evil.test/' } }),
        )
      ).status,
    ).toBe(422);
    expect(
      (
        await strict.proxy(
          call('POST', '/codehost/connect/start', { user: 'alice', body: { return_url: 'https://app.test/done' } }),
        )
      ).status,
    ).toBe(200);
    expect(open.upstream.calls).toHaveLength(0);
  });

  it("answers 404 'Project not found.' for another user's project and for an unknown one, on every project route", async () => {
    const { proxy, upstream } = setup();
    const routes: [string, string, unknown][] = [
      ['POST', '/agent/generate/p-bob', { prompt: 'Make the header blue please' }],
      ['GET', '/agent/project/p-bob', undefined],
      ['POST', '/deployments/vercel/project/p-bob/deploy', {}],
      ['POST', '/codehost/project/p-bob/link', { repo_owner: 'o', repo_name: 'r' }],
      ['POST', '/codehost/project/p-bob/push', {}],
    ];
    for (const [method, path, body] of routes) {
      for (const project of ['p-bob', 'p-nobody']) {
        const response = await proxy(
          call(
            method,
            path.replace('p-bob', project),
            body === undefined ? { user: 'alice' } : { user: 'alice', body },
          ),
        );
        expect(response.status).toBe(404);
        expect(JSON.parse(await response.text()).message).toBe('Project not found.');
      }
    }
    expect(upstream.calls).toHaveLength(0);
  });

  it("filters agency-wide listings down to the user's own connections", async () => {
    const connections = [
      { id: 1, external_user_id: 'alice', provider: 'vercel' },
      { id: 2, external_user_id: 'bob', provider: 'vercel' },
      { id: 3, provider: 'vercel' },
    ];
    const shapes: unknown[] = [
      connections,
      { success: true, message: 'ok', data: connections, errors: null },
      {
        success: true,
        message: 'ok',
        data: { items: connections, meta: { total_count: 3, page: 1, per_page: 30 } },
        errors: null,
      },
      { success: true, message: 'ok', data: { connections }, errors: null },
    ];
    for (const shape of shapes) {
      const { proxy } = setup(() => json(shape));
      for (const path of ['/deployments/vercel/connections', '/codehost/connections']) {
        const text = await (await proxy(call('GET', path, { user: 'alice' }))).text();
        expect(text).not.toContain('bob');
        expect(text).toContain('"alice"');
        // A count of everyone's items cannot be recomputed for one user: it is dropped.
        expect(text).not.toContain('total_count');
      }
    }
    for (const data of [{ everyone: connections }, { items: connections, connections }]) {
      const unknown = setup(() => json({ success: true, data }));
      const refused = await unknown.proxy(call('GET', '/codehost/connections', { user: 'alice' }));
      expect(refused.status).toBe(502);
      expect(await refused.text()).not.toContain('bob');
    }
  });

  it('lets any signed-in user list plans', async () => {
    const { proxy } = setup(() => json([{ id: 1, name: 'Starter', stripe_price_id: 'price_1' }]));
    expect(await bodyOf(await proxy(call('GET', '/subscription-plans', { user: 'bob' })))).toEqual({
      success: true,
      message: '',
      data: [{ id: 1, name: 'Starter' }],
      errors: null,
    });
  });
});

describe('request bodies', () => {
  it('answers 413 in the spec shape for a declared or streamed oversized body, without calling upstream', async () => {
    const { proxy, upstream } = setup(undefined, { maxBodyBytes: 100 });
    const big = { prompt: 'x'.repeat(200) };
    const declared = await proxy(call('POST', '/agent/generate', { user: 'alice', body: big }));
    expect(declared.status).toBe(413);
    expect(await bodyOf(declared)).toEqual({ status: false, message: 'The request body is too large.' });
    const streamed = new Request(`${origin}${basePath}/agent/generate`, {
      method: 'POST',
      headers: { cookie: 'session=alice', 'content-type': 'application/json' },
      body: new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(JSON.stringify(big)));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect((await proxy(streamed)).status).toBe(413);
    expect(upstream.calls).toHaveLength(0);
  });

  it('requires a JSON object sent as application/json', async () => {
    const { proxy, upstream } = setup();
    expect(
      (
        await proxy(
          call('POST', '/agent/generate', {
            user: 'alice',
            rawBody: 'prompt=x',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
          }),
        )
      ).status,
    ).toBe(415);
    expect(
      (
        await proxy(
          call('POST', '/agent/generate', {
            user: 'alice',
            rawBody: 'prompt=x',
            headers: { 'content-type': 'text/plain' },
          }),
        )
      ).status,
    ).toBe(415);
    expect((await proxy(call('POST', '/agent/generate', { user: 'alice', rawBody: '{nope' }))).status).toBe(400);
    expect((await proxy(call('POST', '/agent/generate', { user: 'alice', rawBody: '[1]' }))).status).toBe(400);
    expect(upstream.calls).toHaveLength(0);
  });
});

describe('CSRF defence', () => {
  const allowed = 'https://app.test';
  it('refuses a cross-site POST and accepts same-origin and allowed origins', async () => {
    const { proxy, upstream } = setup(
      (sent) =>
        json({ success: true, message: 'ok', data: sent.url.pathname.endsWith('plans') ? [] : {}, errors: null }),
      { csrf: { allowedOrigins: [allowed] } },
    );
    const deploy = (headers: Record<string, string>) =>
      proxy(call('POST', '/deployments/vercel/project/p-alice/deploy', { user: 'alice', body: {}, headers }));
    const refused = await deploy({ origin: 'https://evil.test', 'sec-fetch-site': 'cross-site' });
    expect(refused.status).toBe(403);
    expect(await bodyOf(refused)).toEqual({
      success: false,
      message: 'Cross-origin request refused.',
      data: null,
      errors: null,
    });
    expect((await deploy({ origin: 'https://evil.test' })).status).toBe(403);
    expect((await deploy({ 'sec-fetch-site': 'same-site' })).status).toBe(403);
    expect(upstream.calls).toHaveLength(0);
    expect((await deploy({ origin: allowed, 'sec-fetch-site': 'same-site' })).status).toBe(200);
    expect((await deploy({ 'sec-fetch-site': 'same-origin' })).status).toBe(200);
    expect(
      (
        await proxy(
          call('GET', '/subscription-plans', {
            user: 'alice',
            headers: { origin: 'https://evil.test', 'sec-fetch-site': 'cross-site' },
          }),
        )
      ).status,
    ).toBe(200);
  });
});

describe('event stream relay', () => {
  it('relays each event as it completes, re-emitted with its id, with the streaming headers and without upstream framing headers', async () => {
    const upstreamStream = createScriptedStream();
    const { proxy } = setup(() => upstreamStream.response(), { timers: createManualTimers() });
    const response = await proxy(
      call('POST', '/agent/generate', { user: 'alice', body: { prompt: 'A landing page for a bakery' } }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.get('cache-control')).toBe('no-cache, no-transform');
    expect(response.headers.get('x-accel-buffering')).toBe('no');
    expect(response.headers.get('content-encoding')).toBeNull();
    expect(response.headers.get('content-length')).toBeNull();
    expect(response.headers.get('x-upstream-secret')).toBeNull();
    const reader = createBodyReader(response.body);
    const first = '{"type":"project_created","project_id":"p-new","app_url":"https://p-new.example"}';
    upstreamStream.write(`data: ${first}\n\n`);
    expect(await reader.next()).toBe(`id: 1\ndata: ${first}\n\n`);
    // An event split over chunks (and a character over two of them), with CRLF line ends, goes out whole
    // when its blank line arrives: nothing the browser could act on earlier is held back.
    const split = new TextEncoder().encode('data: {"type":"container_progress","message":"é","percentage":5}\r\n\r\n');
    const cut = split.indexOf(0xc3) + 1;
    upstreamStream.write(split.subarray(0, cut));
    upstreamStream.write(split.subarray(cut));
    expect(await reader.next()).toBe('id: 2\ndata: {"type":"container_progress","message":"é","percentage":5}\n\n');
    // Comments, event names, upstream ids and retry lines are the upstream's, never relayed.
    upstreamStream.write(': note\nevent: step\nid: 99\nretry: 10\ndata: {"type":"tool_progress","tool":"write"}\n\n');
    expect(await reader.next()).toBe('id: 3\ndata: {"type":"tool_progress","tool":"write"}\n\n');
    upstreamStream.close();
    expect(await reader.next()).toBeUndefined();
  });

  it('delivers every event it received before the upstream broke, then ends the stream', async () => {
    const upstreamStream = createScriptedStream();
    const { proxy } = setup(() => upstreamStream.response(), { timers: createManualTimers() });
    const response = await proxy(
      call('POST', '/agent/generate', { user: 'alice', body: { prompt: 'A landing page for a bakery' } }),
    );
    // The proxy has read two events, the browser side none, when the upstream breaks.
    upstreamStream.event({ type: 'project_created', project_id: 'p-burst', app_url: 'https://p-burst.example' });
    upstreamStream.event({ type: 'container_progress', message: 'Booting', percentage: 10 });
    await expect.poll(() => upstreamStream.drained()).toBe(true);
    upstreamStream.fail(new Error('connection reset'));
    const text = await createBodyReader(response.body).rest();
    expect(text).toContain('"project_id":"p-burst"');
    expect(text).toContain('"percentage":10');
  });

  it('sends a heartbeat for each quiet period, between whole events, also while an event is still arriving', async () => {
    const timers = createManualTimers();
    const upstreamStream = createScriptedStream();
    const { proxy } = setup(() => upstreamStream.response(), {
      timers,
      heartbeatMs: 1000,
      upstreamIdleTimeoutMs: 0,
      upstreamStreamTimeoutMs: 0,
    });
    const response = await proxy(
      call('POST', '/agent/generate/p-alice', { user: 'alice', body: { prompt: 'Make the header blue please' } }),
    );
    const reader = createBodyReader(response.body);
    timers.fireAll();
    expect(await reader.next()).toBe(': ping\n\n');
    upstreamStream.write('data: {"type":"tool_progress",');
    // Idle in the middle of an upstream event: its first half is not sent yet, so a ping cannot cut it.
    timers.fireAll();
    expect(await reader.next()).toBe(': ping\n\n');
    upstreamStream.write('"tool":"write"}\n');
    upstreamStream.write('\n');
    expect(await reader.next()).toBe('id: 1\ndata: {"type":"tool_progress","tool":"write"}\n\n');
    // The period in which an event went out needs no ping; the next, quiet one sends one (and only one).
    timers.fireAll();
    timers.fireAll();
    expect(await reader.next()).toBe(': ping\n\n');
    upstreamStream.close();
    expect(await reader.rest()).toBe('');
    expect(timers.pending()).toBe(0);
  });

  it('keeps one heartbeat timer per stream, however many events an upstream sends', async () => {
    const manual = createManualTimers();
    let armed = 0;
    const timers = {
      ...manual,
      setTimeout(callback: () => void, ms: number) {
        armed++;
        return manual.setTimeout(callback, ms);
      },
    };
    const upstreamStream = createScriptedStream();
    const { proxy } = setup(() => upstreamStream.response(), {
      timers,
      heartbeatMs: 1000,
      upstreamIdleTimeoutMs: 0,
      upstreamStreamTimeoutMs: 0,
    });
    const response = await proxy(
      call('POST', '/agent/generate/p-alice', { user: 'alice', body: { prompt: 'Make the header blue please' } }),
    );
    const reader = createBodyReader(response.body);
    const before = armed;
    for (let index = 0; index < 500; index++)
      upstreamStream.event({ type: 'tool_progress', tool: 'write', message: `Step ${index}` });
    upstreamStream.close();
    const text = await reader.rest();
    expect(text.match(/^data: /gm)).toHaveLength(500);
    // An event marks its period; it never re-arms a timer (500 clear-and-set pairs before).
    expect(armed - before).toBeLessThanOrEqual(1);
    expect(manual.pending()).toBe(0);
  });

  it('records ownership from project_created before the event reaches the browser', async () => {
    const upstreamStream = createScriptedStream();
    const { proxy, upstream } = setup(
      (sent) => (sent.method === 'POST' ? upstreamStream.response() : json({ status: true, project_id: 'p-new' })),
      { timers: createManualTimers() },
    );
    const response = await proxy(
      call('POST', '/agent/generate', { user: 'alice', body: { prompt: 'A landing page for a bakery' } }),
    );
    const reader = createBodyReader(response.body);
    upstreamStream.event({ type: 'project_created', project_id: 'p-new', app_url: 'https://p-new.example' });
    await reader.next();
    expect((await proxy(call('GET', '/agent/project/p-new', { user: 'alice' }))).status).toBe(200);
    expect((await proxy(call('GET', '/agent/project/p-new', { user: 'bob' }))).status).toBe(404);
    expect(
      (
        await proxy(
          call('POST', '/agent/generate/p-new', { user: 'bob', body: { prompt: 'Make the header blue please' } }),
        )
      ).status,
    ).toBe(404);
    upstreamStream.close();
    await reader.rest();
    expect(upstream.calls.map((sent) => sent.method)).toEqual(['POST', 'GET']);
  });

  it('keeps reading the upstream after the browser disconnects, and still records ownership', async () => {
    const upstreamStream = createScriptedStream();
    const { proxy, store, logs } = setup(() => upstreamStream.response(), { timers: createManualTimers() });
    const browser = new AbortController();
    const request = new Request(`${origin}${basePath}/agent/generate`, {
      method: 'POST',
      headers: { cookie: 'session=alice', 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'A landing page for a bakery' }),
      signal: browser.signal,
    });
    const response = await proxy(request);
    const reader = createBodyReader(response.body);
    upstreamStream.event({ type: 'container_progress', message: 'Booting', percentage: 1 });
    await reader.next();
    await reader.cancel();
    browser.abort();
    upstreamStream.event({ type: 'project_created', project_id: 'p-late', app_url: 'https://p-late.example' });
    upstreamStream.event({ type: 'stream_end', project_id: 'p-late', app_url: 'https://p-late.example' });
    upstreamStream.close();
    await expect.poll(() => logs.find((entry) => entry.event === 'stream_closed')).toBeDefined();
    expect(await store.getProjectOwner('p-late')).toBe('alice');
    expect(upstreamStream.state.cancelled).toBe(false);
    expect(logs.find((entry) => entry.event === 'stream_closed')?.reason).toBe(
      'upstream completed; browser disconnected',
    );
  });

  it('never lets a follow-up stream claim a project', async () => {
    const upstreamStream = createScriptedStream();
    const { proxy, store } = setup(() => upstreamStream.response(), { timers: createManualTimers() });
    const response = await proxy(
      call('POST', '/agent/generate/p-alice', { user: 'alice', body: { prompt: 'Make the header blue please' } }),
    );
    upstreamStream.event({ type: 'project_created', project_id: 'p-bob', app_url: 'https://x.example' });
    upstreamStream.close();
    await createBodyReader(response.body).rest();
    expect(await store.getProjectOwner('p-bob')).toBe('bob');
  });

  it('relays a refusal before the stream as JSON with its status', async () => {
    const { proxy } = setup(() =>
      json(
        {
          status: false,
          message: 'The prompt must be at least 10 characters.',
          errors: { prompt: ['The prompt must be at least 10 characters.'] },
        },
        422,
      ),
    );
    const response = await proxy(call('POST', '/agent/generate', { user: 'alice', body: { prompt: 'short' } }));
    expect(response.status).toBe(422);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await bodyOf(response)).toMatchObject({
      errors: { prompt: ['The prompt must be at least 10 characters.'] },
    });
  });
});

describe('budget and status cache', () => {
  it('coalesces concurrent status polls of one project into one upstream request and caches the answer briefly', async () => {
    let clock = 1_000;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { proxy, upstream, logs } = setup(
      async () => {
        await gate;
        return json({
          status: true,
          project_id: 'p-alice',
          app_url: 'https://a.example',
          project_status: 'generating',
          name: 'A',
        });
      },
      { now: () => clock, statusCacheMs: 2000, rateLimit: { limit: 10, windowMs: 60_000 } },
    );
    const polls = Array.from({ length: 30 }, () => proxy(call('GET', '/agent/project/p-alice', { user: 'alice' })));
    await expect.poll(() => upstream.calls.length).toBe(1);
    release();
    const responses = await Promise.all(polls);
    expect(responses.map((response) => response.status)).toEqual(Array(30).fill(200));
    expect(new Set(await Promise.all(responses.map((response) => response.text()))).size).toBe(1);
    expect(upstream.calls).toHaveLength(1);
    expect(logs.filter((entry) => entry.cache === 'coalesced')).toHaveLength(29);
    clock += 1999;
    expect((await proxy(call('GET', '/agent/project/p-alice', { user: 'alice' }))).status).toBe(200);
    expect(upstream.calls).toHaveLength(1);
    clock += 1;
    await proxy(call('GET', '/agent/project/p-alice', { user: 'alice' }));
    expect(upstream.calls).toHaveLength(2);
  });

  it('answers 429 with Retry-After, readable by the browser, once the team budget is spent', async () => {
    let clock = 0;
    const { proxy, upstream } = setup(specAnswer, {
      now: () => clock,
      rateLimit: { limit: 3, windowMs: 60_000, burst: 3 },
    });
    for (let index = 0; index < 3; index++) {
      clock += 1000;
      expect((await proxy(call('GET', '/codehost/connections/alice', { user: 'alice' }))).status).toBe(200);
    }
    const refused = await proxy(call('GET', '/agent/project/p-alice', { user: 'alice' }));
    expect(refused.status).toBe(429);
    // The first request leaves the window (and its 1% margin) at 61.6 s.
    expect(refused.headers.get('retry-after')).toBe('59');
    expect(refused.headers.get('access-control-expose-headers')).toBe('Retry-After');
    expect(await bodyOf(refused)).toEqual({ status: false, message: 'Too Many Attempts.' });
    const envelope = await proxy(call('GET', '/codehost/connections/alice', { user: 'alice' }));
    expect(await bodyOf(envelope)).toEqual({ success: false, message: 'Too Many Attempts.', data: null, errors: null });
    expect(upstream.calls).toHaveLength(3);
    clock = 61_600;
    expect((await proxy(call('GET', '/codehost/connections/alice', { user: 'alice' }))).status).toBe(200);
  });

  it('passes an upstream 429 through with its Retry-After and then holds requests back itself', async () => {
    let clock = 0;
    const { proxy, upstream } = setup(
      () => json({ status: false, message: 'Too Many Attempts.' }, 429, { 'retry-after': '30' }),
      { now: () => clock, rateLimit: { limit: 10, windowMs: 60_000, scope: 'all' } },
    );
    const first = await proxy(call('GET', '/subscription-plans', { user: 'alice' }));
    expect(first.status).toBe(429);
    expect(first.headers.get('retry-after')).toBe('30');
    expect(first.headers.get('access-control-expose-headers')).toBe('Retry-After');
    clock = 10_000;
    const held = await proxy(call('GET', '/subscription-plans', { user: 'bob' }));
    expect(held.status).toBe(429);
    expect(held.headers.get('retry-after')).toBe('20');
    expect(upstream.calls).toHaveLength(1);
  });
});

describe('secrets', () => {
  it('never writes the token into a log line', async () => {
    const upstreamStream = createScriptedStream();
    const { proxy, logs } = setup(
      (sent) => {
        if (sent.url.pathname.endsWith('/generate')) return upstreamStream.response();
        throw new Error(`connect failed with ${fakeToken}`);
      },
      { timers: createManualTimers() },
    );
    await proxy(call('GET', '/subscription-plans', { user: 'alice' }));
    await proxy(call('GET', '/agent/project/p-bob', { user: 'alice' }));
    await proxy(call('GET', '/nothing'));
    const response = await proxy(
      call('POST', '/agent/generate', { user: 'alice', body: { prompt: 'A landing page for a bakery' } }),
    );
    upstreamStream.fail(new Error(`reset ${fakeToken}`));
    await createBodyReader(response.body)
      .rest()
      .catch(() => undefined);
    await expect.poll(() => logs.some((entry) => entry.event === 'stream_closed')).toBe(true);
    expect(logs.length).toBeGreaterThan(4);
    expect(JSON.stringify(logs)).not.toContain(fakeToken);
  });

  it('answers 500 in the spec shape when the session check itself fails, and logs it without secrets', async () => {
    const { proxy, logs, upstream } = setup(undefined, {
      authorize: () => {
        throw new Error(`session store down (${fakeToken})`);
      },
    });
    const response = await proxy(call('GET', '/codehost/connections/alice', { user: 'alice' }));
    expect(response.status).toBe(500);
    expect(await bodyOf(response)).toEqual({
      success: false,
      message: 'The proxy failed to handle the request.',
      data: null,
      errors: null,
    });
    expect(upstream.calls).toHaveLength(0);
    expect(logs.some((entry) => entry.event === 'internal_error')).toBe(true);
    expect(JSON.stringify(logs)).not.toContain(fakeToken);
  });

  it('answers 500 without a token or with a non-http API URL (checked at the first request, see proxy-options)', async () => {
    for (const options of [
      { apiBaseUrl: upstreamBase, apiToken: '' },
      { apiBaseUrl: 'file:///etc/api/v1', apiToken: fakeToken },
    ]) {
      const proxy = createAgentProxy({ ...options, authorize, onLog: () => undefined });
      expect((await proxy(call('GET', '/subscription-plans', { user: 'alice' }))).status).toBe(500);
    }
  });
});
