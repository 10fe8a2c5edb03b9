/**
 * The agency proxy: the only place the API token lives. It names the signed-in end user, keeps end users
 * of one agency apart (identity in paths and bodies, project ownership, filtered listings), keeps the
 * team under the upstream rate limit, and relays event streams live.
 */
import {
  agentRoutes,
  agentIdPattern,
  fillPath,
  matchRoute,
  parseAgentEvent,
  parseRetryAfter,
  type AgentPathOverrides,
  type AgentRoute,
  type AgentRouteName,
  type ProxyRouteName,
} from '../core/index.js';
import { createBudgetScope } from './budget-scope.js';
import { recordGeneration } from './generation-recorder.js';
import { createProjectRoutes, matchProxyRoute } from './project-routes.js';
import { noteProjectStatus, waitForStatusClaim } from './status-records.js';
import { ProxyStoreUnavailableError, storeUnavailableMessage } from './proxy-store.js';
import { relayEventStream, type RelayTimers } from './event-stream-relay.js';
import { deferOptionChecks } from './proxy-options.js';
import type { BudgetLimits } from './fair-budget.js';
import { createDrainState } from './drain.js';
import { createMemoryProxyStore, type CachedStatus, type ProxyStore } from './memory-proxy-store.js';
import {
  errorBody,
  errorResponse,
  jsonHeaders,
  ProxyRefusal,
  proxyMessages,
  retryAfterSeconds,
  withRetryAfter,
  type ErrorShape,
} from './proxy-responses.js';
import {
  defaultHeadersTimeoutMs,
  defaultIdleTimeoutMs,
  fetchWithHeadersDeadline,
  withIdleDeadline,
} from './upstream-timeouts.js';
import {
  bindBodyToUser,
  filterOwnListing,
  policyFor,
  readJsonObjectBody,
  returnUrlOriginsFor,
  shapeOfUnknownPath,
  type AgentProxyUser,
} from './route-policy.js';

/** One structured log line. It never holds the token, a request body or a header value. */
export interface ProxyLogEntry {
  level: 'info' | 'warn' | 'error';
  event:
    | 'request'
    | 'ownership_recorded'
    | 'browser_disconnected'
    | 'stream_closed'
    | 'upstream_unreachable'
    | 'upstream_rate_limited'
    | 'budget_widened'
    | 'upstream_timeout'
    | 'internal_error'
    | 'invalid_options';
  method: string;
  route: AgentRouteName | ProxyRouteName | 'unknown';
  status?: number;
  externalUserId?: string;
  projectId?: string;
  durationMs?: number;
  /** Why the proxy refused or failed, in a few words. */
  reason?: string;
  cache?: 'hit' | 'coalesced' | 'miss';
}

/** Options of `createAgentProxy`. */
export interface AgentProxyOptions {
  /** The Agent API base URL, ending in /api/v1 (or the mock's `url`). */
  apiBaseUrl: string;
  /** The team's API token; sent upstream only, never to a browser or a log. */
  apiToken: string;
  /** Where the proxy is mounted in the agency's app, e.g. '/api/agent'; the browser's baseUrl is origin + basePath. */
  basePath?: string;
  /** The signed-in end user of a request (from the agency's session), or null. Read headers or cookies only. */
  authorize(request: Request): AgentProxyUser | null | Promise<AgentProxyUser | null>;
  /** The fetch used to reach the Agent API. */
  fetch?: typeof fetch;
  /** Largest accepted request body in bytes (default 256 KiB); more gets 413. */
  maxBodyBytes?: number;
  /** Where ownership, budget and cache live (default: in memory, one process). */
  store?: ProxyStore;
  /**
   * The team-wide budget of upstream requests (default 10 per 60 s, the upstream's limit); false turns it off.
   * `scope` says which requests count: 'agent' (default; generate, follow-up and status, where DESIGN.md places
   * the upstream limit) or 'all' (every endpoint). An upstream 429 on a family not counted adds that family
   * (logged as `budget_widened`), so an upstream that limits every endpoint never locks the team out.
   */
  rateLimit?: { limit: number; windowMs: number; reserve?: number; scope?: 'agent' | 'all' } | false;
  /** How long a project status answer is reused for every poll of that project (default 2000 ms; 0: only coalesce). */
  statusCacheMs?: number;
  /** Idle time after which a `: ping` comment is sent on a relayed stream (default 15000 ms; 0: never). */
  heartbeatMs?: number;
  /** Cross-site request defence for cookie sessions: POSTs must come from these origins (or same-origin). */
  csrf?: { allowedOrigins: string[] };
  /** Origins a code-host `return_url` may point to (default: the request's own origin, from `Origin` or its URL). */
  returnUrlOrigins?: string[];
  /** Upstream paths that differ from the spec's; the browser keeps using the spec's paths. */
  paths?: AgentPathOverrides;
  /** Longest time a request body may take to arrive (default 10000 ms; 0: none); then 408. */
  requestBodyTimeoutMs?: number;
  /** Longest wait for upstream response headers (default 30000 ms; 0: none); then 504, never a retry. */
  upstreamHeadersTimeoutMs?: number;
  /** Longest time a relayed stream may get no upstream bytes (default 120000 ms; 0: none); then it is closed. */
  upstreamIdleTimeoutMs?: number;
  onLog?(entry: ProxyLogEntry): void;
  now?(): number;
  timers?: RelayTimers;
}

/** A request handler over Web standard Request and Response, with a graceful drain for shutdown. */
export type AgentProxyHandler = ((request: Request) => Promise<Response>) & {
  /** Ends open streams as interrupted and refuses new generations with 503; resolves once the streams have ended. */
  drain(): Promise<void>;
};

/** What an upstream JSON answer becomes for the browser; shared by coalesced status polls. */
interface Relayed {
  status: number;
  body: string;
  retryAfter?: string;
}

type Outcome = { response: Response; reason?: string; cache?: ProxyLogEntry['cache'] };

function normalizeBasePath(basePath: string): string {
  const trimmed = basePath.replace(/\/+$/, '');
  if (trimmed !== '' && !trimmed.startsWith('/')) throw new TypeError(`basePath must start with "/": ${basePath}`);
  return trimmed;
}

function originOf(value: string, what: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError(`${what} is not a URL: ${value}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new TypeError(`${what} must be http or https: ${value}`);
  return url.origin;
}

/** Creates the proxy handler. Mount it for GET and POST under `basePath`. Options are checked at the first request. */
export function createAgentProxy(options: AgentProxyOptions): AgentProxyHandler {
  let started: AgentProxyHandler | undefined;
  let draining: Promise<void> | undefined;
  const handler = deferOptionChecks(options, (checked) => {
    started = startAgentProxy(checked);
    // Asked to drain before the first request: the proxy starts drained.
    if (draining !== undefined) void started.drain();
    return started;
  });
  return Object.assign(handler, {
    drain: () => (draining = started?.drain() ?? Promise.resolve()),
  });
}

function startAgentProxy(options: AgentProxyOptions): AgentProxyHandler {
  const apiOrigin = originOf(options.apiBaseUrl, 'apiBaseUrl');
  const apiBase = new URL(options.apiBaseUrl);
  const apiBasePath = apiBase.pathname.replace(/\/+$/, '');
  const basePath = normalizeBasePath(options.basePath ?? '');
  const token = options.apiToken;
  const store = options.store ?? createMemoryProxyStore();
  const now = options.now ?? Date.now;
  const timers: RelayTimers = options.timers ?? {
    setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
    clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>),
  };
  const maxBodyBytes = options.maxBodyBytes ?? 256 * 1024;
  const statusCacheMs = options.statusCacheMs ?? 2000;
  const heartbeatMs = options.heartbeatMs ?? 15_000;
  const drainState = createDrainState();
  const { scope: budgetScope = 'agent', ...budgetOptions } =
    options.rateLimit === false ? {} : (options.rateLimit ?? {});
  const limits: BudgetLimits | undefined =
    options.rateLimit === false ? undefined : { limit: 10, windowMs: 60_000, ...budgetOptions };
  if (limits !== undefined && (!(limits.limit >= 1) || !(limits.windowMs > 0)))
    throw new TypeError('rateLimit needs limit >= 1 and windowMs > 0.');
  const allowedOrigins = options.csrf
    ? new Set(options.csrf.allowedOrigins.map((origin) => originOf(origin, 'csrf.allowedOrigins')))
    : undefined;
  const returnUrlOrigins = options.returnUrlOrigins
    ? new Set(options.returnUrlOrigins.map((origin) => originOf(origin, 'returnUrlOrigins')))
    : undefined;
  const upstreamRoutes: Record<AgentRouteName, AgentRoute> = { ...agentRoutes };
  for (const [name, path] of Object.entries(options.paths ?? {}) as [AgentRouteName, string | undefined][]) {
    if (path !== undefined) upstreamRoutes[name] = { ...agentRoutes[name], path };
  }
  const inflightStatus = new Map<string, Promise<Relayed>>();
  const projectRoutes = createProjectRoutes({ store, timers, heartbeatMs });
  const countedRoutes = createBudgetScope(budgetScope);

  const redact = (text: string) => text.split(token).join('[redacted]');
  const log = (entry: ProxyLogEntry) => {
    if (!options.onLog) return;
    try {
      options.onLog(entry.reason === undefined ? entry : { ...entry, reason: redact(entry.reason) });
    } catch {
      // A failing logger must not fail the request.
    }
  };

  function upstreamUrl(name: AgentRouteName, params: Record<string, string>, query: URLSearchParams): URL {
    const url = new URL(`${apiBase.origin}${apiBasePath}${fillPath(upstreamRoutes[name].path, params)}`);
    url.search = query.toString();
    // Ids are checked and encoded, so this cannot fail; it stays as the last line of defence.
    if (url.origin !== apiOrigin || !url.pathname.startsWith(`${apiBasePath}/`))
      throw new Error('The upstream URL left the API base.');
    return url;
  }

  async function callUpstream(
    url: URL,
    method: 'GET' | 'POST',
    body: string | undefined,
    stream: boolean,
  ): Promise<Response | undefined> {
    const headers: Record<string, string> = {
      authorization: `Bearer ${token}`,
      accept: stream ? 'text/event-stream' : 'application/json',
    };
    const init: RequestInit = { method, headers, redirect: 'error' };
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      init.body = body;
    }
    const fetched = await fetchWithHeadersDeadline(
      options.fetch ?? globalThis.fetch,
      url,
      init,
      options.upstreamHeadersTimeoutMs ?? defaultHeadersTimeoutMs,
      timers,
    );
    if (fetched.kind === 'timeout')
      throw new ProxyRefusal(504, proxyMessages.upstreamTimeout, 'upstream headers timeout');
    if (fetched.kind === 'unreachable') return undefined;
    const response = fetched.response;
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel().catch(() => undefined);
      return undefined;
    }
    return response;
  }

  async function acquire(userId: string, route: AgentRouteName): Promise<void> {
    if (limits === undefined || !countedRoutes.counts(route)) return;
    const decision = await store.acquireBudget(userId, now(), limits);
    if (!decision.ok) {
      throw new ProxyRefusal(429, proxyMessages.tooManyAttempts, `budget:${decision.reason}`, {
        retryAfterSeconds: retryAfterSeconds(decision.retryAfterMs),
      });
    }
  }

  async function noteUpstreamLimit(response: Response, route: AgentRouteName, method: string): Promise<void> {
    if (response.status !== 429) return;
    const waitMs = parseRetryAfter(response.headers.get('retry-after'), now()) ?? limits?.windowMs ?? 60_000;
    await store.pauseBudget(now() + waitMs);
    log({ level: 'warn', event: 'upstream_rate_limited', method, route, status: 429 });
    if (limits !== undefined && countedRoutes.learn(route))
      log({ level: 'warn', event: 'budget_widened', method, route, reason: 'the upstream limits this family too' });
  }

  /** Reads an upstream JSON answer; a body that is not JSON never reaches the browser as is. */
  async function readJson(response: Response, shape: ErrorShape): Promise<Relayed> {
    const retryAfter = response.headers.get('retry-after') ?? undefined;
    const text = await response.text();
    let json = true;
    try {
      JSON.parse(text);
    } catch {
      json = false;
    }
    if (json)
      return { status: response.status, body: redact(text), ...(retryAfter === undefined ? {} : { retryAfter }) };
    if (response.status === 429)
      return {
        status: 429,
        body: errorBody(shape, proxyMessages.tooManyAttempts),
        ...(retryAfter === undefined ? {} : { retryAfter }),
      };
    return { status: 502, body: errorBody(shape, proxyMessages.upstreamUnexpected) };
  }

  function toResponse(relayed: Relayed): Response {
    return new Response(relayed.body, {
      status: relayed.status,
      headers: withRetryAfter(jsonHeaders(), relayed.retryAfter),
    });
  }

  function checkCsrf(request: Request): void {
    if (allowedOrigins === undefined || request.method.toUpperCase() !== 'POST') return;
    const site = request.headers.get('sec-fetch-site');
    const origin = request.headers.get('origin');
    if (site === 'same-origin') return;
    if (origin !== null && allowedOrigins.has(origin)) return;
    // Every browser that can carry a cross-site cookie sends one of these two headers on a POST.
    if (site === null && origin === null) return;
    throw new ProxyRefusal(403, proxyMessages.crossOrigin, 'csrf');
  }

  async function projectStatus(projectId: string, userId: string, shape: ErrorShape): Promise<Outcome> {
    const cached = statusCacheMs > 0 ? await store.getCachedStatus(projectId, now()) : undefined;
    if (cached !== undefined)
      return {
        response: new Response(cached.body, { status: cached.status, headers: jsonHeaders(cached.contentType) }),
        cache: 'hit',
      };
    let pending = inflightStatus.get(projectId);
    const cache: ProxyLogEntry['cache'] = pending === undefined ? 'miss' : 'coalesced';
    if (pending === undefined) {
      pending = (async (): Promise<Relayed> => {
        const claimed = await waitForStatusClaim(store, projectId, now);
        if (claimed !== true) return claimed;
        try {
          await acquire(userId, 'getProject');
        } catch (thrown) {
          if (!(thrown instanceof ProxyRefusal)) throw thrown;
          return {
            status: thrown.status,
            body: errorBody(shape, thrown.message),
            retryAfter: String(thrown.extra.retryAfterSeconds ?? 1),
          };
        }
        const response = await callUpstream(
          upstreamUrl('getProject', { projectId }, new URLSearchParams()),
          'GET',
          undefined,
          false,
        );
        if (response === undefined) return { status: 502, body: errorBody(shape, proxyMessages.upstreamUnreachable) };
        await noteUpstreamLimit(response, 'getProject', 'GET');
        const relayed = await readJson(response, shape);
        if (relayed.status === 200 && statusCacheMs > 0) {
          const entry: CachedStatus = {
            status: 200,
            body: relayed.body,
            contentType: 'application/json',
            expiresAt: now() + statusCacheMs,
          };
          await store.setCachedStatus(projectId, entry);
          await noteProjectStatus(store, projectId, userId, relayed.body, now());
        }
        return relayed;
      })().finally(() => inflightStatus.delete(projectId));
      inflightStatus.set(projectId, pending);
    }
    return { response: toResponse(await pending), cache };
  }

  async function handle(request: Request, entry: ProxyLogEntry): Promise<Outcome> {
    const url = new URL(request.url);
    const pathname = url.pathname;
    if (basePath !== '' && !pathname.startsWith(`${basePath}/`)) {
      return { response: errorResponse('agent', 404, proxyMessages.notFound), reason: 'outside basePath' };
    }
    const path = pathname.slice(basePath.length);
    const own = matchProxyRoute(request.method, path);
    if (own !== undefined) {
      entry.route = own.name;
      const user = await options.authorize(request);
      if (user === null || typeof user?.externalUserId !== 'string' || user.externalUserId === '')
        return { response: errorResponse('agent', 401, proxyMessages.unauthorized), reason: 'no session' };
      entry.externalUserId = user.externalUserId;
      return { response: await projectRoutes(own, request, user.externalUserId) };
    }
    const match = matchRoute(request.method, path);
    if (match === undefined)
      return { response: errorResponse(shapeOfUnknownPath(path), 404, proxyMessages.notFound), reason: 'no route' };
    entry.route = match.name;
    const policy = policyFor(match.name);
    try {
      checkCsrf(request);
      const user = await options.authorize(request);
      if (
        user === null ||
        typeof user !== 'object' ||
        typeof user.externalUserId !== 'string' ||
        user.externalUserId === ''
      ) {
        throw new ProxyRefusal(401, proxyMessages.unauthorized, 'no session');
      }
      entry.externalUserId = user.externalUserId;
      const { params } = match;
      if (policy.pathUser && params.externalUserId !== user.externalUserId)
        throw new ProxyRefusal(403, proxyMessages.forbidden, 'another externalUserId in path');

      let body: string | undefined;
      if (match.route.method === 'POST') {
        const parsed = await readJsonObjectBody(
          request,
          maxBodyBytes,
          options.requestBodyTimeoutMs ?? 10_000,
          policy.bodyRequired,
        );
        bindBodyToUser(parsed, policy, user, returnUrlOriginsFor(request, returnUrlOrigins));
        body = JSON.stringify(parsed);
      }
      const projectId = params.projectId;
      if (projectId !== undefined) entry.projectId = projectId;
      if (policy.ownedProject) {
        // Someone else's project and no project at all look the same, so existence does not leak.
        if (projectId === undefined || (await store.getProjectOwner(projectId)) !== user.externalUserId) {
          throw new ProxyRefusal(404, proxyMessages.projectNotFound, 'project of another user or unknown');
        }
      }
      if (policy.cachedStatus && projectId !== undefined)
        return await projectStatus(projectId, user.externalUserId, policy.shape);

      const query = new URLSearchParams();
      for (const key of policy.query) {
        const value = url.searchParams.get(key);
        if (value !== null) query.set(key, value);
      }
      if (match.route.stream === true) await store.assertAvailable?.();
      await acquire(user.externalUserId, match.name);
      const stream = match.route.stream === true;
      if (stream && drainState.draining) throw new ProxyRefusal(503, proxyMessages.draining, 'draining');
      const response = await callUpstream(upstreamUrl(match.name, params, query), match.route.method, body, stream);
      if (response === undefined) {
        log({ level: 'error', event: 'upstream_unreachable', method: request.method, route: match.name });
        throw new ProxyRefusal(502, proxyMessages.upstreamUnreachable, 'upstream unreachable');
      }
      await noteUpstreamLimit(response, match.name, request.method);
      const contentType = (response.headers.get('content-type') ?? '').toLowerCase();
      if (stream && response.ok && contentType.startsWith('text/event-stream') && response.body !== null) {
        const recorded = recordGeneration(response.body, {
          store,
          userId: user.externalUserId,
          kind: match.name === 'followUp' ? 'followUp' : 'generate',
          projectId,
          requestBody: body,
          now,
          redact,
          onStoreError: (error) =>
            log({
              level: 'error',
              event: 'internal_error',
              method: 'POST',
              route: match.name,
              reason: `not recorded: ${String(error)}`,
            }),
        });
        return { response: relay(recorded, request, match.name, user.externalUserId, policy.recordsOwner) };
      }
      const relayed = await readJson(response, policy.shape);
      if (policy.filterList && relayed.status >= 200 && relayed.status < 300) {
        const filtered = filterOwnListing(relayed.body, user.externalUserId);
        if (filtered === undefined)
          throw new ProxyRefusal(502, proxyMessages.upstreamUnexpected, 'listing shape unknown');
        return { response: toResponse({ ...relayed, body: filtered }) };
      }
      return { response: toResponse(relayed) };
    } catch (thrown) {
      if (thrown instanceof ProxyStoreUnavailableError)
        return {
          response: errorResponse(policy.shape, 503, storeUnavailableMessage, { retryAfterSeconds: 5 }),
          reason: 'store unavailable',
        };
      if (!(thrown instanceof ProxyRefusal)) throw thrown;
      return {
        response: errorResponse(policy.shape, thrown.status, thrown.message, thrown.extra),
        reason: thrown.reason,
      };
    }
  }

  function relay(
    upstreamBody: ReadableStream<Uint8Array>,
    request: Request,
    route: AgentRouteName,
    userId: string,
    recordsOwner: boolean,
  ): Response {
    let recorded = !recordsOwner;
    let recordedProject: string | undefined;
    const idleLimited = withIdleDeadline(
      upstreamBody,
      options.upstreamIdleTimeoutMs ?? defaultIdleTimeoutMs,
      timers,
      () =>
        log({
          level: 'warn',
          event: 'upstream_timeout',
          method: 'POST',
          route,
          externalUserId: userId,
          reason: 'upstream stream idle',
        }),
    );
    const forgetStream = drainState.track(idleLimited.stop);
    const relayed = relayEventStream(idleLimited.body, {
      heartbeatMs,
      timers,
      signal: request.signal,
      wantsEvents: () => !recorded,
      onBrowserGone: () =>
        log({
          level: 'info',
          event: 'browser_disconnected',
          method: 'POST',
          route,
          externalUserId: userId,
          reason: 'the upstream stream is read on to its end',
        }),
      inspect: async (data) => {
        if (recorded || !data.includes('project_created')) return;
        const parsed = parseAgentEvent(data);
        if (!parsed.ok || parsed.event.type !== 'project_created') return;
        const projectId = parsed.event.project_id;
        if (typeof projectId !== 'string' || !agentIdPattern.test(projectId)) return;
        recorded = true;
        recordedProject = projectId;
        try {
          await store.setProjectOwner(projectId, userId);
          log({ level: 'info', event: 'ownership_recorded', method: 'POST', route, externalUserId: userId, projectId });
        } catch (error) {
          log({
            level: 'error',
            event: 'internal_error',
            method: 'POST',
            route,
            externalUserId: userId,
            projectId,
            reason: `ownership not recorded: ${String(error)}`,
          });
        }
      },
    });
    const started = now();
    void relayed.done.then((outcome) => {
      forgetStream();
      const reasons = [
        outcome.upstreamCompleted ? 'upstream completed' : `upstream failed: ${String(outcome.error)}`,
        ...(outcome.browserDisconnected ? ['browser disconnected'] : []),
        ...(recordsOwner && recordedProject === undefined ? ['no project_created seen'] : []),
      ];
      log({
        level: outcome.upstreamCompleted ? 'info' : 'warn',
        event: 'stream_closed',
        method: 'POST',
        route,
        externalUserId: userId,
        ...(recordedProject === undefined ? {} : { projectId: recordedProject }),
        durationMs: now() - started,
        reason: reasons.join('; '),
      });
    });
    return new Response(relayed.body, {
      status: 200,
      headers: {
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache, no-transform',
        'x-accel-buffering': 'no',
        'x-content-type-options': 'nosniff',
      },
    });
  }

  async function agentProxy(request: Request): Promise<Response> {
    const started = now();
    const entry: ProxyLogEntry = { level: 'info', event: 'request', method: request.method, route: 'unknown' };
    let outcome: Outcome;
    try {
      outcome = await handle(request, entry);
    } catch (error) {
      log({ ...entry, level: 'error', event: 'internal_error', reason: String(error) });
      outcome = {
        response: errorResponse(
          entry.route === 'unknown' || !(entry.route in agentRoutes)
            ? 'agent'
            : policyFor(entry.route as AgentRouteName).shape,
          500,
          proxyMessages.internal,
        ),
        reason: 'internal error',
      };
    }
    const status = outcome.response.status;
    log({
      ...entry,
      level: status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info',
      status,
      durationMs: now() - started,
      ...(outcome.reason === undefined ? {} : { reason: outcome.reason }),
      ...(outcome.cache === undefined ? {} : { cache: outcome.cache }),
    });
    return outcome.response;
  }
  return Object.assign(agentProxy, { drain: () => drainState.drain() });
}
