/**
 * The agency proxy: the only place the API token lives. It names the signed-in end user, keeps end users
 * of one agency apart (identity in paths and bodies, project ownership, filtered listings), keeps the
 * team under the upstream rate limit, and relays event streams live.
 */
import { agentRoutes, type AgentRouteName } from '../core/index.js';
import { createBudgetScope } from './budget-scope.js';
import { createTeamAnswers, defaultTeamAnswersCacheMs } from './team-answers.js';
import { createProjectRoutes } from './project-routes.js';
import { routeOf } from './proxy-router.js';
import { createStatusRoute } from './status-route.js';
import { createRelayingProjects } from './relaying-projects.js';
import { ProxyStoreUnavailableError, storeUnavailableMessage } from './proxy-store.js';
import { deferOptionChecks } from './proxy-options.js';
import { createDrainState, createUserSlots, tooManyRequestsInFlight } from './drain.js';
import { resolveProxySettings } from './proxy-settings.js';
import { relayGenerationStream } from './generation-relay.js';
import { createRedactor } from './redact.js';
import { createProxyLog } from './proxy-log.js';
import { parseUpstreamEvents } from './upstream-events.js';
import { relayedEvent } from './event-shapes.js';
import { buildAnswer, cappedRetryAfterMs, type AnswerContext } from './upstream-answers.js';
import { returnUrlLoopbackOnly, returnUrlUnconfigured } from './return-url.js';
import { createQuotas, quotaExceededResponse, type Usage } from './quota.js';
import type { AgentProxyHandler, AgentProxyOptions, ProxyLogEntry } from './proxy-types.js';
import { errorResponse, ProxyRefusal, proxyMessages, retryAfterSeconds, relayedResponse } from './proxy-responses.js';
import { defaultHeadersTimeoutMs } from './upstream-timeouts.js';
import { createUpstreamCaller, isUpstreamTimeout } from './upstream-call.js';
import {
  allowedQuery,
  buildUpstreamBody,
  checkCsrf,
  policyFor,
  readJsonObjectBody,
  shapeOfUnknownPath,
  type AgentProxyUser,
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
    usage: async (user: string | AgentProxyUser): Promise<Usage> => {
      // Answering needs the checked options: the first request builds the proxy, so usage() can too.
      if (started === undefined) await handler(new Request('http://usage.invalid/__usage'));
      if (started === undefined) throw new TypeError('The proxy options are not usable (see onLog).');
      return started.usage(user);
    },
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
    budgetScope,
    limits,
    allowedOrigins,
    returnUrlPolicy,
    installOrigins,
    upstreamRoutes,
    maxJsonDepth,
    upstreamBody,
    maxRetryAfterMs,
    maxStreamsPerUser,
    maxRequestsPerUser,
    relaying,
  } = resolveProxySettings(options);
  const token = options.apiToken;
  const upstream = createUpstreamCaller({
    apiOrigin,
    apiBase,
    apiBasePath,
    routes: upstreamRoutes,
    token,
    fetch: options.fetch ?? globalThis.fetch,
    headersTimeoutMs: options.upstreamHeadersTimeoutMs ?? defaultHeadersTimeoutMs,
    timers,
  });
  const drainState = createDrainState(maxStreamsPerUser);
  const requestSlots = createUserSlots(maxRequestsPerUser, tooManyRequestsInFlight);
  const countedRoutes = createBudgetScope(budgetScope);
  const teamAnswers = createTeamAnswers(options.teamAnswersCacheMs ?? defaultTeamAnswersCacheMs, now);

  const redact = createRedactor(token);
  const { log, warnOnce } = createProxyLog(options.onLog, redact.json);
  const quotas = createQuotas(options.quota, store, now, log);
  const relayingProjects = createRelayingProjects({
    store,
    timers,
    onLeaseError: (error, projectId, route) =>
      log({
        level: 'error',
        event: 'internal_error',
        method: route === 'getProject' ? 'GET' : 'POST',
        route,
        projectId,
        reason: `relay lease not kept: ${String(error)}`,
      }),
  });
  const relayContext = {
    store,
    timers,
    ...relaying,
    log,
    now,
    drainState,
    relayingProjects,
    onGeneration: options.onGeneration,
  };
  const projectRoutes = createProjectRoutes({
    store,
    timers,
    now,
    ...relaying,
    log,
    drainState,
    usage: quotas.usage,
    isRelayed: relayingProjects.isRelayed,
  });
  const answerContext = (userId: string, projectId?: string): AnswerContext => ({
    userId,
    projectId,
    clean: redact.text,
    installOrigins,
    body: upstreamBody,
    maxDepth: maxJsonDepth,
    maxRetryAfterMs,
    now,
  });

  const projectStatus = createStatusRoute({
    store,
    now,
    statusCacheMs,
    upstream,
    relayingProjects,
    log,
    answerContext,
    acquire,
    noteUpstreamLimit,
  });

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
    // Capped before anything is stored: one upstream answer must not pause the team for years.
    const waitMs =
      cappedRetryAfterMs(response.headers.get('retry-after'), now(), maxRetryAfterMs) ??
      Math.min(limits?.windowMs ?? 60_000, maxRetryAfterMs);
    await store.pauseBudget(now() + waitMs);
    log({ level: 'warn', event: 'upstream_rate_limited', method, route, status: 429 });
    if (limits !== undefined && countedRoutes.learn(route))
      log({ level: 'warn', event: 'budget_widened', method, route, reason: 'the upstream limits this family too' });
  }

  async function handle(request: Request, entry: ProxyLogEntry): Promise<Outcome> {
    const receivedAt = now();
    const url = new URL(request.url);
    const pathname = url.pathname;
    if (basePath !== '' && !pathname.startsWith(`${basePath}/`)) {
      return { response: errorResponse('agent', 404, proxyMessages.notFound), reason: 'outside basePath' };
    }
    const path = pathname.slice(basePath.length);
    const routed = routeOf(request.method, path);
    if (routed === undefined)
      return { response: errorResponse(shapeOfUnknownPath(path), 404, proxyMessages.notFound), reason: 'no route' };
    entry.route = routed.match.name;
    if (routed.own) {
      const user = await options.authorize(request);
      if (user === null || typeof user?.externalUserId !== 'string' || user.externalUserId === '')
        return { response: errorResponse('agent', 401, proxyMessages.unauthorized), reason: 'no session' };
      entry.externalUserId = user.externalUserId;
      return { response: await projectRoutes(routed.match, request, user) };
    }
    const { match } = routed;
    const policy = policyFor(match.name);
    // The user's slot among their requests in flight: given back once the answer is built (a stream's once it relays).
    let leave: (() => void) | undefined;
    try {
      checkCsrf(request, allowedOrigins);
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
      leave = requestSlots.take(user.externalUserId);
      const { params } = match;
      if (policy.pathUser && params.externalUserId !== user.externalUserId)
        throw new ProxyRefusal(403, proxyMessages.forbidden, 'another externalUserId in path');

      let body: string | undefined;
      if (match.route.method === 'POST') {
        const parsed = await readJsonObjectBody(
          request,
          { maxBodyBytes, bodyTimeoutMs: options.requestBodyTimeoutMs ?? 10_000, maxDepth: maxJsonDepth, timers },
          policy.bodyRequired,
        );
        if (policy.returnUrl && returnUrlPolicy.kind === 'loopback')
          warnOnce('return-url', { ...entry, level: 'warn', event: 'config_warning', reason: returnUrlLoopbackOnly });
        body = buildUpstreamBody(parsed, policy, user, returnUrlPolicy, (field) =>
          warnOnce(`identity:${match.name}:${field}`, {
            level: 'warn',
            event: 'identity_dropped',
            method: request.method,
            route: match.name,
            reason: `${field} sent by the browser was dropped: identity comes from authorize()`,
          }),
        );
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
        return await projectStatus(projectId, user.externalUserId, policy);

      const query = allowedQuery(policy, url);
      if (teamAnswers.covers(match.name)) {
        const { answer, cache } = await teamAnswers.get(match.name, async () => {
          await acquire(user.externalUserId, match.name);
          const response = await upstream.call(upstream.url(match.name, params, query), 'GET', undefined, false);
          if (response === undefined) unreachable(request.method, match.name);
          await noteUpstreamLimit(response, match.name, request.method);
          // A team-wide answer names no user: what is built for one is what every user gets.
          const built = await buildAnswer(response, policy, answerContext(user.externalUserId));
          if (built.reason !== undefined)
            log({ level: 'warn', event: 'upstream_refused', method: 'GET', route: match.name, reason: built.reason });
          return built;
        });
        return { response: relayedResponse(answer), cache };
      }
      const stream = match.route.stream === true;
      if (stream) await store.assertAvailable?.();
      if (stream && drainState.draining) throw new ProxyRefusal(503, proxyMessages.draining, 'draining');
      // One of the user's open streams, reserved before the quota, the budget and the upstream; given back if none starts.
      const release = stream ? drainState.reserve(user.externalUserId) : undefined;
      let handedOver = false;
      let projectHold: (() => Promise<void> | undefined) | undefined;
      try {
        // Counted before the team's budget and the upstream, so an end user over the quota spends neither and
        // concurrent requests never pass the limit; given back whenever the upstream surely did not start it.
        const quota = stream ? await quotas.take(user) : { ok: true as const, ticket: undefined };
        if (!quota.ok) return { response: quotaExceededResponse(quota.usage, now()), reason: 'quota exceeded' };
        const giveBackAndThrow = async (thrown: unknown): Promise<never> => {
          if (!isUpstreamTimeout(thrown)) await quota.ticket?.giveBack();
          throw thrown;
        };
        await acquire(user.externalUserId, match.name).catch(giveBackAndThrow);
        // A follow-up's project is held as building from the moment the upstream hears of it, not from its answer:
        // meanwhile the upstream may already say `generating` while the record's latest build is the one before, and
        // the events route must not replay that build as this change (nor the status route end it).
        projectHold =
          match.name === 'followUp' && projectId !== undefined
            ? relayingProjects.hold(projectId, 'followUp')
            : undefined;
        const response = await upstream
          .call(upstream.url(match.name, params, query), match.route.method, body, stream)
          .catch(giveBackAndThrow);
        const accepted =
          response !== undefined &&
          response.ok &&
          response.body !== null &&
          (response.headers.get('content-type') ?? '').toLowerCase().startsWith('text/event-stream');
        if (!accepted) await quota.ticket?.giveBack();
        if (response === undefined) unreachable(request.method, match.name);
        await noteUpstreamLimit(response, match.name, request.method);
        if (stream && accepted && response.body !== null) {
          handedOver = true;
          const events = parseUpstreamEvents(response.body, (data) => relayedEvent(data, redact.text));
          return {
            response: relayGenerationStream(
              events,
              request,
              match.name,
              user.externalUserId,
              policy.recordsOwner,
              { projectId, requestBody: body, receivedAt, projectHold, quotaTicket: quota.ticket },
              { ...relayContext, onClosed: release },
            ),
          };
        }
        const { relayed, reason } = await buildAnswer(
          response,
          policy,
          answerContext(user.externalUserId, policy.ownedProject ? projectId : undefined),
        );
        if (reason !== undefined)
          log({ level: 'warn', event: 'upstream_refused', method: request.method, route: match.name, reason });
        return { response: relayedResponse(relayed), ...(reason === undefined ? {} : { reason }) };
      } finally {
        if (!handedOver) {
          release?.();
          void projectHold?.();
        }
      }
    } catch (thrown) {
      if (thrown instanceof ProxyStoreUnavailableError)
        return {
          response: errorResponse(policy.shape, 503, storeUnavailableMessage, { retryAfterSeconds: 5 }),
          reason: 'store unavailable',
        };
      if (!(thrown instanceof ProxyRefusal)) throw thrown;
      if (thrown.hint !== undefined)
        warnOnce(thrown.hint, { ...entry, level: 'warn', event: 'config_warning', reason: thrown.hint });
      if (thrown.reason === 'appUrl not configured')
        log({
          level: 'error',
          event: 'config_warning',
          method: request.method,
          route: match.name,
          reason: returnUrlUnconfigured,
        });
      return {
        response: errorResponse(policy.shape, thrown.status, thrown.message, thrown.extra),
        reason: thrown.reason,
      };
    } finally {
      leave?.();
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
  return Object.assign(agentProxy, {
    drain: () => drainState.drain(),
    usage: (user: string | AgentProxyUser) => quotas.usage(typeof user === 'string' ? { externalUserId: user } : user),
  });
}
