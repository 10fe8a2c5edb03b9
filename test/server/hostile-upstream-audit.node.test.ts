/**
 * An audit of the proxy against a broken or hostile upstream, route by route: redirects, headers, odd statuses,
 * compressed and mis-framed bodies, odd JSON, odd addresses, listings of other users, bodies that never end. Each
 * test asserts what a secure proxy must do; "found by this audit" marks what failed before its fix.
 */
import { createServer as createNetServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createAgentProxy,
  createMemoryProxyStore,
  type AgentProxyOptions,
  type ProxyLogEntry,
} from 'agent-embed/server';
import {
  createManualTimers,
  createScriptedProxy,
  fakeToken,
  json,
  specAnswer,
  type UpstreamCall,
} from './scripted-upstream.js';
import { forwardedRoutes as forwarded, type RouteSample } from './route-samples.js';
import { readSse } from './sse-reader.js';

const appOrigin = 'https://app.example.test';
const basePath = '/api/agent';

function setup(answer: (call: UpstreamCall) => Response | Promise<Response>, options: Partial<AgentProxyOptions> = {}) {
  return createScriptedProxy(answer, {
    basePath,
    authorize: () => ({ externalUserId: 'alice', name: 'Alice', email: 'alice@example.test' }),
    store: createMemoryProxyStore({ owners: { 'p-alice': 'alice', 'p-bob': 'bob' } }),
    statusCacheMs: 0,
    teamAnswersCacheMs: 0,
    heartbeatMs: 0,
    appUrl: appOrigin,
    ...options,
  });
}

function call(method: string, path: string, body?: unknown): Request {
  return new Request(`${appOrigin}${basePath}${path}`, {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
}

const requestOf = (route: RouteSample) => call(route.method, route.path, route.body);

/** The only headers the proxy itself decides (proxy-responses.ts, event-stream-relay.ts). */
const allowedHeaders = new Set([
  'content-type',
  'cache-control',
  'x-content-type-options',
  'x-accel-buffering',
  'retry-after',
  'access-control-expose-headers',
]);

/** Headers a hostile upstream adds that would act on the browser if passed through. */
const hostileHeaders: Record<string, string> = {
  'set-cookie': 'session=evil; Path=/; HttpOnly',
  'access-control-allow-origin': '*',
  'access-control-allow-credentials': 'true',
  'content-security-policy': "default-src * 'unsafe-inline'",
  location: 'https://evil.example/phish',
  refresh: '0; url=https://evil.example/phish',
  link: '<https://evil.example/x.js>; rel=preload; as=script',
  'www-authenticate': 'Basic realm="evil"',
  'clear-site-data': '"*"',
  'content-disposition': 'attachment; filename=evil.html',
  'strict-transport-security': 'max-age=0',
  'x-frame-options': 'ALLOWALL',
  'x-debug-token': fakeToken,
  'server-timing': `token;desc="${fakeToken}"`,
};

function expectOnlyOwnHeaders(response: Response) {
  const names = [...response.headers.keys()];
  expect(names.filter((name) => !allowedHeaders.has(name))).toEqual([]);
  for (const [, value] of response.headers) expect(value).not.toContain(fakeToken);
}

/** A success answer in the spec's shape for any forwarded route, SSE for the stream ones. */
function successOf(upstreamCall: UpstreamCall, headers: Record<string, string> = {}): Response {
  if (upstreamCall.url.pathname.includes('/agent/generate')) {
    const projectId = upstreamCall.url.pathname.split('/').pop() === 'generate' ? 'p-new' : 'p-alice';
    const events = [
      { type: 'project_created', project_id: projectId, app_url: 'https://p.apps.example.test/' },
      { type: 'stream_end', project_id: projectId, app_url: 'https://p.apps.example.test/' },
    ];
    const text = events.map((event) => `retry: 1\nevent: x\ndata: ${JSON.stringify(event)}\n\n`).join('');
    return new Response(text, { status: 200, headers: { 'content-type': 'text/event-stream', ...headers } });
  }
  const spec =
    upstreamCall.method === 'POST' && upstreamCall.url.pathname.endsWith('/connections')
      ? json({ success: true, message: '', data: { id: 1, external_user_id: 'alice' } })
      : specAnswer(upstreamCall);
  return new Response(spec.body, { status: 200, headers: { 'content-type': 'application/json', ...headers } });
}

describe('3xx answers on every forwarded route', () => {
  const redirects: [number, string][] = [
    [301, 'https://evil.example/steal'],
    [302, 'javascript:alert(document.cookie)'],
    [303, `${appOrigin}${basePath}/usage`],
    [307, '//evil.example/steal'],
    [308, '/api/v1/agent/project/p-bob'],
    [304, 'https://evil.example/not-modified'],
  ];
  it.each(forwarded)('$name: never followed nor passed through (502, no Location, one call)', async (route) => {
    for (const [status, location] of redirects) {
      const { proxy, upstream } = setup(() => new Response(null, { status, headers: { location, ...hostileHeaders } }));
      const response = await proxy(requestOf(route));
      expect(response.status, `${status}`).toBe(502);
      expectOnlyOwnHeaders(response);
      expect(await response.text()).not.toMatch(/evil|javascript|p-bob/);
      expect(upstream.calls).toHaveLength(1);
      expect(upstream.calls[0]?.redirect).toBe('error');
    }
  });

  it('a fetch that follows a redirect anyway (response.redirected, another origin): the answer is refused', async () => {
    // An agency's own fetch (a wrapper, a retrying client) may ignore `redirect: 'error'`: the token then went to
    // evil.example and what comes back is evil.example's, not the Agent API's. The proxy can see it and must refuse.
    // Found by this audit: the proxy refused 3xx statuses only, not an answer its fetch had followed a redirect for.
    const followed = (upstreamCall: UpstreamCall) => {
      const answer = successOf(upstreamCall);
      Object.defineProperty(answer, 'redirected', { value: true });
      Object.defineProperty(answer, 'url', { value: 'https://evil.example/api/v1/subscription-plans' });
      return answer;
    };
    const { proxy } = setup(followed);
    const relayed: string[] = [];
    for (const route of forwarded) {
      const response = await proxy(requestOf(route));
      await response.text();
      if (response.status !== 502) relayed.push(`${route.name} ${response.status}`);
    }
    expect(relayed).toEqual([]);
  });
});

describe('upstream headers never reach the browser', () => {
  it.each(forwarded)('$name: a success and a failure carry only the proxy’s own headers', async (route) => {
    const { proxy } = setup((upstreamCall) => successOf(upstreamCall, hostileHeaders));
    const response = await proxy(requestOf(route));
    expect(response.status).toBe(200);
    expectOnlyOwnHeaders(response);
    await response.text();
    const failing = setup(() =>
      json({ status: false, success: false, message: 'Unauthenticated.' }, 401, {
        ...hostileHeaders,
        'retry-after': '5',
      }),
    );
    const failed = await failing.proxy(requestOf(route));
    expect(failed.status).toBe(401);
    expectOnlyOwnHeaders(failed);
  });
});

describe('odd statuses on every forwarded route', () => {
  it.each(forwarded)('$name: 204/205 without a body, 418 and 599 are never a 500 nor a fake success', async (route) => {
    for (const status of [204, 205]) {
      const { proxy } = setup(() => new Response(null, { status, headers: hostileHeaders }));
      const response = await proxy(requestOf(route));
      // An empty success means "it happened" only where the route says so; elsewhere there is nothing to relay.
      expect(response.status, `${status}`).toBe(route.emptySuccess ? 200 : 502);
      expectOnlyOwnHeaders(response);
    }
    for (const status of [418, 599]) {
      const { proxy } = setup(() => json({ success: false, status: false, message: 'Odd.', data: { x: 1 } }, status));
      const response = await proxy(requestOf(route));
      expect([status, 502], `${status}`).toContain(response.status);
      expect(JSON.stringify(await response.json())).not.toContain('"x"');
    }
    // A 2xx that is not 200 with a non-JSON body: not relayed as text.
    const { proxy } = setup(
      () => new Response('<html>ok</html>', { status: 206, headers: { 'content-type': 'text/html' } }),
    );
    const response = await proxy(requestOf(route));
    expect(response.status).toBe(502);
    expect(await response.text()).not.toContain('<html>');
  });
});

describe('mis-framed bodies over a real socket', () => {
  const cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of cleanup.splice(0)) await close();
  });

  /** An upstream that writes raw bytes, framing included, to every connection. */
  async function rawUpstream(write: (socket: Socket) => void) {
    const sockets = new Set<Socket>();
    const server = createNetServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.once('data', () => write(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanup.push(
      () =>
        new Promise((resolve) => {
          for (const socket of sockets) socket.destroy();
          server.close(() => resolve());
        }),
    );
    const logs: ProxyLogEntry[] = [];
    const proxy = createAgentProxy({
      apiBaseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`,
      apiToken: fakeToken,
      basePath,
      authorize: () => ({ externalUserId: 'alice' }),
      rateLimit: false,
      teamAnswersCacheMs: 0,
      heartbeatMs: 0,
      maxUpstreamBodyBytes: 256 * 1024,
      upstreamHeadersTimeoutMs: 1_000,
      onLog: (entry) => logs.push(entry),
    });
    return { proxy, logs, sockets };
  }

  it('a gzip bomb (small compressed, 24 MiB decompressed) on a JSON route: 502 at the size cap', async () => {
    const bomb = gzipSync(Buffer.alloc(24 * 1024 * 1024, 0x20));
    expect(bomb.length).toBeLessThan(64 * 1024);
    const { proxy, logs } = await rawUpstream((socket) => {
      socket.write(
        `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-encoding: gzip\r\ncontent-length: ${bomb.length}\r\n\r\n`,
      );
      socket.end(bomb);
    });
    const response = await proxy(call('GET', '/subscription-plans'));
    expect(response.status).toBe(502);
    expectOnlyOwnHeaders(response);
    expect(logs.some((entry) => /size cap/.test(entry.reason ?? ''))).toBe(true);
  });

  it.each([
    ['a Content-Length shorter than the body', 'content-length: 5\r\n', '{"success":true,"message":"","data":[]}'],
    ['a Content-Length longer than the body, then close', 'content-length: 500\r\n', '{"success":true,"data":[]}'],
    ['a negative Content-Length', 'content-length: -1\r\n', '{"success":true,"message":"","data":[]}'],
    [
      'both Content-Length and chunked',
      'content-length: 3\r\ntransfer-encoding: chunked\r\n',
      '{"success":true,"message":"","data":[]}',
    ],
  ])('%s: a 502, never a 500 nor a relayed fragment', async (_, framing, body) => {
    const { proxy } = await rawUpstream((socket) => {
      socket.end(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n${framing}connection: close\r\n\r\n${body}`);
    });
    const response = await proxy(call('GET', '/subscription-plans'));
    expect(response.status).toBe(502);
    expectOnlyOwnHeaders(response);
  });

  it.each([
    [
      'a 101 Switching Protocols never asked for',
      'HTTP/1.1 101 Switching Protocols\r\nconnection: upgrade\r\nupgrade: evil\r\n\r\n',
    ],
    ['a status line that is not HTTP', 'EVIL/9.9 200 OK\r\ncontent-type: application/json\r\n\r\n{}'],
    [
      'a header line holding a NUL',
      'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nx-a: \u0000\r\ncontent-length: 2\r\n\r\n{}',
    ],
  ])('%s: a 502 or 504, never a 500 and never hanging past the headers deadline', async (_, raw) => {
    const { proxy } = await rawUpstream((socket) => socket.write(raw));
    const response = await proxy(call('GET', '/subscription-plans'));
    expect([502, 504]).toContain(response.status);
    expectOnlyOwnHeaders(response);
  });

  it('a gzip-bombed event stream ends without relaying the bomb, and the proxy lets the upstream go', async () => {
    // One line of 40 MiB without a newline, compressed to a few KiB.
    const bomb = gzipSync(Buffer.concat([Buffer.from('data: "'), Buffer.alloc(40 * 1024 * 1024, 0x61)]));
    const { proxy, sockets } = await rawUpstream((socket) => {
      socket.write(
        'HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncontent-encoding: gzip\r\ntransfer-encoding: chunked\r\n\r\n',
      );
      socket.write(`${bomb.length.toString(16)}\r\n`);
      socket.write(bomb);
      socket.write('\r\n');
      // Never ends: the proxy must stop reading on its own.
    });
    const response = await proxy(call('POST', '/agent/generate', { prompt: 'A bakery site' }));
    expect(response.status).toBe(200);
    expectOnlyOwnHeaders(response);
    const events = await readSse(response);
    expect(events).toEqual([]);
    // The connection that carried the bomb (an idle pooled one may sit beside it) is closed by the proxy.
    const served = [...sockets].filter((socket) => socket.bytesWritten > 0);
    expect(served).toHaveLength(1);
    for (let round = 0; round < 40 && !served.every((socket) => socket.destroyed || socket.readableEnded); round++)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(served.every((socket) => socket.destroyed || socket.readableEnded)).toBe(true);
  });
});

describe('odd JSON in answers', () => {
  it('__proto__ and constructor keys neither grant ownership nor pollute anything', async () => {
    const owner = JSON.parse('{"__proto__": {"external_user_id": "alice"}, "id": 9, "provider": "vercel"}');
    expect(Object.hasOwn(owner, '__proto__')).toBe(true);
    const single = setup(() => new Response(JSON.stringify({ success: true, message: '', data: owner })));
    expect((await single.proxy(call('GET', '/deployments/vercel/connections/alice'))).status).toBe(502);
    const list = setup(
      () =>
        new Response(
          JSON.stringify({ success: true, message: '', data: [owner, { id: 1, external_user_id: 'alice' }] }),
        ),
    );
    const listed = await (await list.proxy(call('GET', '/deployments/vercel/connections'))).json();
    expect(listed.data).toEqual([{ id: 1, external_user_id: 'alice' }]);
    const failing = setup(
      () =>
        new Response(
          '{"success":false,"message":"Invalid.","data":null,"errors":{"__proto__":["polluted"],"constructor":["c"],"prompt":["p"]}}',
          { status: 422 },
        ),
    );
    const failed = await failing.proxy(call('POST', '/deployments/vercel/connections', { token: 'vt' }));
    expect(failed.status).toBe(422);
    const body = await failed.json();
    expect(body.errors.prompt).toEqual(['p']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf({})).toBe(Object.prototype);
  });

  it('numbers past a double, lone surrogates and 1e400 counts give well-formed JSON without them', async () => {
    const raw =
      '{"success":true,"message":"\\ud800 half","data":[{"id":1,"name":"Pro \\udfff","credits":1e400,"sort_order":-1e400,"price":1e400,"features":["a\\ud800"]}]}';
    const { proxy } = setup(() => new Response(raw, { headers: { 'content-type': 'application/json' } }));
    const response = await proxy(call('GET', '/subscription-plans'));
    expect(response.status).toBe(200);
    const text = await response.text();
    // No lone surrogate code unit left in the text (what `isWellFormed` checks, beyond this repo's ES2023 lib).
    expect(text).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
    const [plan] = JSON.parse(text).data;
    expect(plan).not.toHaveProperty('credits');
    expect(plan).not.toHaveProperty('sort_order');
    expect(plan).not.toHaveProperty('price');
  });

  it('a listing keeps only items whose owner is exactly the signed-in user', async () => {
    const spoofs = ['Alice', 'alice ', ' alice', 'alice\u0000', ['alice'], { id: 'alice' }, null, 0, true];
    const items = [
      ...spoofs.map((owner, id) => ({ id, external_user_id: owner })),
      { id: 99, external_user_id: 'alice' },
    ];
    for (const path of ['/deployments/vercel/connections', '/codehost/connections']) {
      for (const data of [items, { items }, { connections: items }]) {
        const { proxy } = setup(() => json({ success: true, message: '', data }));
        const body = await (await proxy(call('GET', path))).json();
        expect(body.data, path).toEqual([{ id: 99, external_user_id: 'alice' }]);
      }
    }
  });
});

describe('addresses in answers and events', () => {
  /** Every address field the browser gets, for one upstream value. */
  async function addressesFor(address: string): Promise<Record<string, unknown>> {
    const answers: Record<string, unknown> = {
      '/agent/project/p-alice': { status: true, project_id: 'p-alice', app_url: address, project_status: 'ready' },
      '/codehost/connect/start': { success: true, message: '', data: { redirect_url: address, state: 's' } },
      '/deployments/vercel/project/p-alice/deploy': {
        success: true,
        message: '',
        data: { deployment_id: 1, url: address },
      },
      '/codehost/project/p-alice/link': { success: true, message: '', data: { repo_url: address } },
      '/codehost/project/p-alice/push': { success: true, message: '', data: { repo_url: address } },
      '/codehost/connections/alice/repositories': {
        success: true,
        message: '',
        data: { items: [{ id: 1, html_url: address }], meta: {} },
      },
    };
    const { proxy } = setup((upstreamCall) => {
      const path = upstreamCall.url.pathname.replace('/api/v1', '');
      if (path === '/agent/generate')
        return new Response(
          `data: ${JSON.stringify({ type: 'project_created', project_id: 'p-new', app_url: address })}\n\n` +
            `data: ${JSON.stringify({ type: 'stream_end', project_id: 'p-new', app_url: address })}\n\n`,
          { headers: { 'content-type': 'text/event-stream' } },
        );
      return json(answers[path] ?? {});
    });
    const got: Record<string, unknown> = {};
    const read = async (method: string, path: string, body?: unknown) => (await proxy(call(method, path, body))).json();
    got.app_url = (await read('GET', '/agent/project/p-alice')).app_url;
    got.redirect_url = (await read('POST', '/codehost/connect/start', { return_url: '/done' })).data.redirect_url;
    got.deploy_url = (await read('POST', '/deployments/vercel/project/p-alice/deploy', {})).data.url;
    got.link_repo_url = (
      await read('POST', '/codehost/project/p-alice/link', { repo_owner: 'a', repo_name: 'b' })
    ).data.repo_url;
    got.push_repo_url = (await read('POST', '/codehost/project/p-alice/push', {})).data.repo_url;
    got.html_url = (await read('GET', '/codehost/connections/alice/repositories')).data.items[0].html_url;
    const events = await readSse(await proxy(call('POST', '/agent/generate', { prompt: 'A bakery site' })));
    got.event_app_url = JSON.parse(events[0]?.data ?? '{}').app_url;
    got.listed_app_url = (await read('GET', '/projects')).projects[0]?.app_url;
    return got;
  }

  it.each([
    'javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    '//evil.example/x',
    'java\nscript:alert(1)',
    'vbscript:x',
  ])('non-http(s) or relative %j reaches the browser in no field', async (address) => {
    const got = await addressesFor(address);
    for (const [field, value] of Object.entries(got)) expect(value, field).toBeNull();
  });

  // Found by this audit: an address that parsed as http(s) only once the URL parser forgave its control characters,
  // whitespace or backslashes reached the browser (and the project list) as sent.
  it.each([
    ' https://ok.example/a',
    'https://ok.example/a\tb',
    'https://ok.exa\nmple/a',
    'https:\\\\ok.example\\a',
    '\u0001https://ok.example/',
  ])(
    'an http(s) address spelled with whitespace, control characters or backslashes %j goes out normalised or not at all',
    async (address) => {
      const got = await addressesFor(address);
      const raw = Object.entries(got).filter(([, value]) => value !== null && value !== new URL(String(value)).href);
      expect(raw.map(([field]) => field)).toEqual([]);
    },
  );

  // Found by this audit: an address with a user name or password was relayed; an iframe refuses such a URL, and a link
  // or redirect reads as the trusted host to the end user (https://app.example.test@evil.example/).
  it.each(['https://app.example.test@evil.example/', 'https://user:pass@evil.example/'])(
    'an address with credentials %j reaches the browser in no field',
    async (address) => {
      const got = await addressesFor(address);
      expect(
        Object.entries(got)
          .filter(([, value]) => value !== null)
          .map(([field]) => field),
      ).toEqual([]);
    },
  );
});

describe('bodies slower than any deadline, on every JSON route', () => {
  it.each(forwarded)('$name: a drip that never ends is a 504, and the upstream body is cancelled', async (route) => {
    const timers = createManualTimers();
    const state = { pulled: false, cancelled: false };
    const drip = () =>
      new Response(
        new ReadableStream<Uint8Array>({
          pull(controller) {
            state.pulled = true;
            if (!state.cancelled) controller.enqueue(new TextEncoder().encode(' '));
            return new Promise(() => undefined);
          },
          cancel() {
            state.cancelled = true;
          },
        }),
        { status: 200, headers: { 'content-type': 'application/json' } },
      );
    const { proxy, logs } = setup(drip, { timers });
    let settled = false;
    const answered = proxy(requestOf(route)).finally(() => (settled = true));
    for (let round = 0; round < 200 && !state.pulled; round++) await new Promise((resolve) => setImmediate(resolve));
    expect(state.pulled).toBe(true);
    for (let round = 0; round < 20 && !settled; round++) {
      timers.fireAll();
      await new Promise((resolve) => setImmediate(resolve));
    }
    const response = await answered;
    expect(response.status).toBe(504);
    expect(state.cancelled).toBe(true);
    expect(logs.some((entry) => entry.reason === 'upstream answer stalled')).toBe(true);
  });
});

describe('the token echoed back', () => {
  it.each(forwarded.filter((route) => !route.stream))(
    '$name: redacted in a success and a failure message',
    async (route) => {
      const echo = `Your token ${fakeToken} is fine`;
      const { proxy, logs } = setup((upstreamCall) => {
        const spec = specAnswer(upstreamCall);
        return spec.json().then((body: Record<string, unknown>) => json({ ...body, message: echo, name: echo }));
      });
      const response = await proxy(requestOf(route));
      expect(await response.text()).not.toContain(fakeToken);
      const failing = setup(() =>
        json({ success: false, status: false, message: echo, errors: { token: [echo] } }, 422),
      );
      const failed = await failing.proxy(requestOf(route));
      expect(await failed.text()).not.toContain(fakeToken);
      expect(JSON.stringify([...logs, ...failing.logs])).not.toContain(fakeToken);
    },
  );
});
