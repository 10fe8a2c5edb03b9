/** Test doubles for the proxy's unit tests: a scripted upstream fetch, a controllable SSE body, manual timers. */
import {
  createAgentProxy,
  createMemoryProxyStore,
  type AgentProxyOptions,
  type AgentProxyUser,
  type ProxyLogEntry,
  type RelayTimers,
} from 'agent-embed/server';

export const upstreamBase = 'https://agent.example.test/api/v1';
export const fakeToken = `test-token-${Math.random().toString(36).slice(2)}`;

/** One request the upstream received. */
export interface UpstreamCall {
  url: URL;
  method: string;
  headers: Headers;
  body: string | undefined;
  redirect: RequestRedirect | undefined;
}

/** A fetch whose answers a test scripts, with a log of what it received. */
export function createScriptedUpstream(answer: (call: UpstreamCall) => Response | Promise<Response>) {
  const calls: UpstreamCall[] = [];
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const call: UpstreamCall = {
      url: new URL(String(input)),
      method: init?.method ?? 'GET',
      headers: new Headers(init?.headers),
      body: typeof init?.body === 'string' ? init.body : undefined,
      redirect: init?.redirect,
    };
    calls.push(call);
    return answer(call);
  }) as typeof globalThis.fetch;
  return { fetch, calls };
}

/** A JSON response. */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}

/** An event stream whose events are `events`, each as one `data:` line of JSON. */
export function sse(...events: unknown[]): Response {
  return new Response(events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join(''), {
    headers: { 'content-type': 'text/event-stream' },
  });
}

/** An SSE body the test writes to chunk by chunk; `state.cancelled` tells whether the proxy gave up reading. */
export function createScriptedStream() {
  const encoder = new TextEncoder();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const state = { cancelled: false };
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return {
    stream,
    state,
    // Upstream framing headers that must not reach the browser.
    response: () =>
      new Response(stream, {
        status: 200,
        headers: {
          'content-type': 'text/event-stream',
          'content-encoding': 'identity',
          'x-upstream-secret': 'internal',
        },
      }),
    write(text: string | Uint8Array) {
      controller.enqueue(typeof text === 'string' ? encoder.encode(text) : text);
    },
    event(data: unknown) {
      this.write(`data: ${JSON.stringify(data)}\n\n`);
    },
    close() {
      controller.close();
    },
    fail(error: Error) {
      controller.error(error);
    },
    /** Whether the proxy has read everything written so far (an error would discard what it has not). */
    drained() {
      return (controller.desiredSize ?? 0) >= 1;
    },
  };
}

/** Timers that fire only when the test says so. */
export function createManualTimers(): RelayTimers & { pending(): number; fireAll(): void } {
  let next = 1;
  const callbacks = new Map<number, () => void>();
  return {
    setTimeout(callback, _ms) {
      const id = next++;
      callbacks.set(id, callback);
      return id;
    },
    clearTimeout(handle) {
      callbacks.delete(handle as number);
    },
    pending: () => callbacks.size,
    fireAll() {
      const due = [...callbacks.values()];
      callbacks.clear();
      for (const callback of due) callback();
    },
  };
}

/** Reads a body stream chunk by chunk as text. */
export function createBodyReader(body: ReadableStream<Uint8Array> | null) {
  if (body === null) throw new Error('No body.');
  const reader = body.getReader();
  const decoder = new TextDecoder();
  return {
    async next(): Promise<string | undefined> {
      const { done, value } = await reader.read();
      return done ? undefined : decoder.decode(value, { stream: true });
    },
    async rest(): Promise<string> {
      let text = '';
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return text;
        text += decoder.decode(value, { stream: true });
      }
    },
    cancel: () => reader.cancel(),
  };
}

/** The data of each event of an SSE text, with its id. */
export function eventsOf(text: string) {
  return text
    .split('\n\n')
    .filter((block) => block.includes('data: '))
    .map((block) => ({
      id: /^id: (\d+)$/m.exec(block)?.[1],
      data: block
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice(6))
        .join('\n'),
    }));
}

/** A success answer in the spec's shape for any non-stream route the proxy forwards (for tests about something else). */
export function specAnswer(call: UpstreamCall): Response {
  const path = call.url.pathname;
  const user = /\/connections\/([^/]+)/.exec(path)?.[1] ?? 'alice';
  const envelope = (data: unknown) => json({ success: true, message: 'ok', data, errors: null });
  if (path.includes('/agent/project/'))
    return json({
      status: true,
      project_id: path.split('/').pop(),
      app_url: 'https://app.example.test/',
      project_status: 'ready',
      name: 'App',
    });
  if (path.endsWith('/repositories')) return envelope({ items: [], meta: { total_count: 0, page: 1, per_page: 30 } });
  if (path.endsWith('/connections') || path.endsWith('/subscription-plans')) return envelope([]);
  if (path.includes('/connections/')) return envelope({ id: 1, external_user_id: user });
  return envelope({});
}

/**
 * `specAnswer`, plus a finished build for generate and follow-up (the path's project, or `p-new`), alice's new
 * deployment connection, and a start answer for the code-host connect route: every route answers, for tests about
 * what the proxy sends.
 */
export function everyRouteAnswer(call: UpstreamCall): Response {
  const path = call.url.pathname;
  if (path.includes('/agent/generate')) {
    const id = /\/agent\/generate\/([^/]+)/.exec(path)?.[1] ?? 'p-new';
    return sse(
      { type: 'project_created', project_id: id, app_url: 'https://built.example/' },
      { type: 'stream_end', project_id: id, app_url: 'https://built.example/' },
    );
  }
  if (call.method === 'POST' && path.endsWith('/connections'))
    return json({ success: true, message: 'ok', data: { id: 1, external_user_id: 'alice' }, errors: null });
  if (path.endsWith('/connect/start'))
    return json({
      success: true,
      message: 'ok',
      data: { redirect_url: 'https://github.com/apps/x/installations/new', state: 's' },
      errors: null,
    });
  return specAnswer(call);
}

/**
 * A proxy in front of a scripted upstream, its log captured: the team token, the scripted fetch, no budget and
 * a fresh memory store unless `options` say otherwise.
 */
export function createScriptedProxy(
  answer: (call: UpstreamCall) => Response | Promise<Response>,
  options: Partial<AgentProxyOptions> & Pick<AgentProxyOptions, 'authorize'>,
) {
  const upstream = createScriptedUpstream(answer);
  const logs: ProxyLogEntry[] = [];
  const store = options.store ?? createMemoryProxyStore();
  const proxy = createAgentProxy({
    apiBaseUrl: upstreamBase,
    apiToken: fakeToken,
    fetch: upstream.fetch,
    rateLimit: false,
    onLog: (entry) => logs.push(entry),
    ...options,
    store,
  });
  return { proxy, upstream, logs, store };
}

/** The app's origin and the proxy's base path the streaming tests use. */
export const appOrigin = 'https://app.example.test';
export const proxyBasePath = '/api/agent';

/**
 * A proxy for one signed-in user (alice) whose every upstream answer is one scripted stream the test writes: manual
 * timers, no heartbeat, a fresh memory store unless `options` say otherwise.
 */
export function createStreamingProxy(options: Partial<AgentProxyOptions> = {}) {
  const stream = createScriptedStream();
  const proxied = createScriptedProxy(() => stream.response(), {
    basePath: proxyBasePath,
    authorize: () => ({ externalUserId: 'alice' }),
    appUrl: appOrigin,
    timers: createManualTimers(),
    heartbeatMs: 0,
    ...options,
  });
  return { ...proxied, stream };
}

/** Alice and Bob, two end users of one agency, told apart by the request's `x-user` header (alice without one). */
export const twoUsers: Record<string, AgentProxyUser> = {
  alice: { externalUserId: 'alice', name: 'Alice', email: 'alice@example.test' },
  bob: { externalUserId: 'bob', name: 'Bob', email: 'bob@example.test' },
};
export const authorizeTwoUsers = (request: Request) => twoUsers[request.headers.get('x-user') ?? 'alice'] ?? null;

/**
 * A proxy for alice and bob in front of a scripted upstream, each owning a project (`p-alice`, `p-bob`, or `owners`):
 * no status cache and no heartbeat unless `options` say otherwise.
 */
export function createTwoUserProxy(
  answer: (call: UpstreamCall) => Response | Promise<Response>,
  options: Partial<AgentProxyOptions> = {},
  owners: Record<string, string> = { 'p-alice': 'alice', 'p-bob': 'bob' },
) {
  return createScriptedProxy(answer, {
    basePath: proxyBasePath,
    authorize: authorizeTwoUsers,
    store: createMemoryProxyStore({ owners }),
    appUrl: appOrigin,
    statusCacheMs: 0,
    heartbeatMs: 0,
    ...options,
  });
}

/** A JSON request of `user`'s browser (alice by default) to the proxy's `path`. */
export const browserRequest = (
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
  user = 'alice',
): Request =>
  new Request(`${appOrigin}${proxyBasePath}${path}`, {
    method,
    headers: { 'content-type': 'application/json', 'x-user': user, ...headers },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
