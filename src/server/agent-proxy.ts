/**
 * The agency proxy: the only place the API token lives. It names the signed-in end user, keeps end users
 * of one agency apart (identity in paths and bodies, project ownership, filtered listings), keeps the
 * team under the upstream rate limit, and relays event streams live.
 */
import { agentRoutes, fillPath, matchRoute, parseRetryAfter, type AgentRouteName } from '../core/index.js';
import { createBudgetScope } from './budget-scope.js';
import { createTeamAnswers, defaultTeamAnswersCacheMs } from './team-answers.js';
import { createProjectRoutes, matchProxyRoute } from './project-routes.js';
import { noteProjectStatus, waitForStatusClaim } from './status-records.js';
import { ProxyStoreUnavailableError, storeUnavailableMessage } from './proxy-store.js';
import { deferOptionChecks } from './proxy-options.js';
import { createDrainState } from './drain.js';
import { resolveProxySettings } from './proxy-settings.js';
import { relayGenerationStream } from './generation-relay.js';
import { createRedactor } from './redact.js';
import { frameEventStream } from './sse-frames.js';
import type { AgentProxyHandler, AgentProxyOptions, ProxyLogEntry } from './proxy-types.js';
import type { CachedStatus } from './memory-proxy-store.js';
import {
  errorBody,
  errorResponse,
  jsonHeaders,
  ProxyRefusal,
  proxyMessages,
  retryAfterSeconds,
  relayedResponse,
  type RelayedJson,
  type ErrorShape,
} from './proxy-responses.js';
import { defaultHeadersTimeoutMs, defaultIdleTimeoutMs, fetchWithHeadersDeadline } from './upstream-timeouts.js';
import {
  bindBodyToUser,
  filterOwnListing,
  policyFor,
  readJsonObjectBody,
  returnUrlOriginsFor,
  shapeOfUnknownPath,
} from './route-policy.js';

export type { AgentProxyHandler, AgentProxyOptions, ProxyLogEntry } from './proxy-types.js';

type Outcome = { response: Response; reason?: string; cache?: ProxyLogEntry['cache'] };

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
  const {
    apiOrigin,
    apiBase,
    apiBasePath,
    basePath,
    store,
    now,
    timers,
    maxBodyBytes,
    statusCacheMs,
    heartbeatMs,
    budgetScope,
    limits,
    allowedOrigins,
    returnUrlOrigins,
    upstreamRoutes,
  } = resolveProxySettings(options);
  const token = options.apiToken;
  const drainState = createDrainState();
  const inflightStatus = new Map<string, Promise<RelayedJson>>();
  const projectRoutes = createProjectRoutes({ store, timers, heartbeatMs });
  const countedRoutes = createBudgetScope(budgetScope);
  const teamAnswers = createTeamAnswers(options.teamAnswersCacheMs ?? defaultTeamAnswersCacheMs, now);

  const redact = createRedactor(token);
  const log = (entry: ProxyLogEntry) => {
    if (!options.onLog) return;
    try {
      options.onLog(entry.reason === undefined ? entry : { ...entry, reason: redact.text(entry.reason) });
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

  function unreachable(method: string, route: AgentRouteName): never {
    log({ level: 'error', event: 'upstream_unreachable', method, route });
    throw new ProxyRefusal(502, proxyMessages.upstreamUnreachable, 'upstream unreachable');
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
  async function readJson(response: Response, shape: ErrorShape): Promise<RelayedJson> {
    const retryAfter = response.headers.get('retry-after') ?? undefined;
    const text = await response.text();
    let json = true;
    try {
      JSON.parse(text);
    } catch {
      json = false;
    }
    if (json)
      return { status: response.status, body: redact.json(text), ...(retryAfter === undefined ? {} : { retryAfter }) };
    if (response.status === 429)
      return {
        status: 429,
        body: errorBody(shape, proxyMessages.tooManyAttempts),
        ...(retryAfter === undefined ? {} : { retryAfter }),
      };
    return { status: 502, body: errorBody(shape, proxyMessages.upstreamUnexpected) };
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
      pending = (async (): Promise<RelayedJson> => {
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
    return { response: relayedResponse(await pending), cache };
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
      if (teamAnswers.covers(match.name)) {
        const { answer, cache } = await teamAnswers.get(match.name, async () => {
          await acquire(user.externalUserId, match.name);
          const response = await callUpstream(upstreamUrl(match.name, params, query), 'GET', undefined, false);
          if (response === undefined) unreachable(request.method, match.name);
          await noteUpstreamLimit(response, match.name, request.method);
          return readJson(response, policy.shape);
        });
        return { response: relayedResponse(answer), cache };
      }
      if (match.route.stream === true) await store.assertAvailable?.();
      await acquire(user.externalUserId, match.name);
      const stream = match.route.stream === true;
      if (stream && drainState.draining) throw new ProxyRefusal(503, proxyMessages.draining, 'draining');
      const response = await callUpstream(upstreamUrl(match.name, params, query), match.route.method, body, stream);
      if (response === undefined) unreachable(request.method, match.name);
      await noteUpstreamLimit(response, match.name, request.method);
      const contentType = (response.headers.get('content-type') ?? '').toLowerCase();
      if (stream && response.ok && contentType.startsWith('text/event-stream') && response.body !== null) {
        const events = frameEventStream(response.body, redact.json);
        return {
          response: relayGenerationStream(
            events,
            request,
            match.name,
            user.externalUserId,
            policy.recordsOwner,
            { projectId, requestBody: body },
            {
              store,
              timers,
              heartbeatMs,
              upstreamIdleTimeoutMs: options.upstreamIdleTimeoutMs ?? defaultIdleTimeoutMs,
              log,
              now,
              drainState,
            },
          ),
        };
      }
      const relayed = await readJson(response, policy.shape);
      if (policy.filterList && relayed.status >= 200 && relayed.status < 300) {
        const filtered = filterOwnListing(relayed.body, user.externalUserId);
        if (filtered === undefined)
          throw new ProxyRefusal(502, proxyMessages.upstreamUnexpected, 'listing shape unknown');
        return { response: relayedResponse({ ...relayed, body: filtered }) };
      }
      return { response: relayedResponse(relayed) };
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
