/**
 * The status route (`GET /agent/project/{id}`): one upstream request in flight per project, its answer cached for
 * `statusCacheMs` (shared by instances through the store) and noted in the project's summary. What goes out is the
 * upstream's answer as the proxy gives it while a build is relayed (`RelayingProjects.answer`); the cache keeps the
 * upstream's own.
 */
import type { AgentRouteName } from '../core/index.js';
import {
  errorBody,
  jsonHeaders,
  ProxyRefusal,
  proxyMessages,
  relayedResponse,
  type RelayedJson,
} from './proxy-responses.js';
import { maxCachedStatusChars, type ProxyStore } from './proxy-store.js';
import type { ProxyLogEntry } from './proxy-types.js';
import type { RelayingProjects } from './relaying-projects.js';
import type { RoutePolicy } from './route-policy.js';
import { noteProjectStatus, waitForStatusClaim } from './status-records.js';
import { buildAnswer, type AnswerContext } from './upstream-answers.js';
import type { createUpstreamCaller } from './upstream-call.js';

/** What the status route needs of the proxy around it. */
export interface StatusRouteContext {
  store: ProxyStore;
  now(): number;
  statusCacheMs: number;
  upstream: ReturnType<typeof createUpstreamCaller>;
  relayingProjects: RelayingProjects;
  /** Takes the team's budget for a request to the upstream; throws a `ProxyRefusal` when there is none. */
  acquire(userId: string, route: AgentRouteName): Promise<void>;
  /** Pauses the budget after an upstream 429. */
  noteUpstreamLimit(response: Response, route: AgentRouteName, method: string): Promise<void>;
  answerContext(userId: string, projectId: string): AnswerContext;
  log(entry: ProxyLogEntry): void;
}

/** The browser's status answer, and how the cache served it (for the log). */
export interface StatusOutcome {
  response: Response;
  cache: ProxyLogEntry['cache'];
}

/** Creates the status route's handler, for a project the user owns. */
export function createStatusRoute(context: StatusRouteContext) {
  const { store, now, statusCacheMs, upstream, relayingProjects, log } = context;
  const inflightStatus = new Map<string, Promise<RelayedJson>>();

  return async function projectStatus(projectId: string, userId: string, policy: RoutePolicy): Promise<StatusOutcome> {
    const { shape } = policy;
    const cached = statusCacheMs > 0 ? await store.getCachedStatus(projectId, now()) : undefined;
    if (cached !== undefined) {
      const { status, body } = await relayingProjects.answer(projectId, { status: cached.status, body: cached.body });
      return { response: new Response(body, { status, headers: jsonHeaders(cached.contentType) }), cache: 'hit' };
    }
    let pending = inflightStatus.get(projectId);
    const cache: ProxyLogEntry['cache'] = pending === undefined ? 'miss' : 'coalesced';
    if (pending === undefined) {
      pending = (async (): Promise<RelayedJson> => {
        // Without a cache there is nothing to wait for: a claim would only hold other instances' polls back.
        const claimed = statusCacheMs > 0 ? await waitForStatusClaim(store, projectId, now) : true;
        if (claimed !== true) return claimed;
        try {
          await context.acquire(userId, 'getProject');
        } catch (thrown) {
          if (!(thrown instanceof ProxyRefusal)) throw thrown;
          return {
            status: thrown.status,
            body: errorBody(shape, thrown.message),
            retryAfter: String(thrown.extra.retryAfterSeconds ?? 1),
          };
        }
        const response = await upstream.call(
          upstream.url('getProject', { projectId }, new URLSearchParams()),
          'GET',
          undefined,
          false,
        );
        if (response === undefined) return { status: 502, body: errorBody(shape, proxyMessages.upstreamUnreachable) };
        await context.noteUpstreamLimit(response, 'getProject', 'GET');
        const { relayed, succeeded, reason } = await buildAnswer(
          response,
          policy,
          context.answerContext(userId, projectId),
        );
        if (reason !== undefined)
          log({ level: 'warn', event: 'upstream_refused', method: 'GET', route: 'getProject', projectId, reason });
        // Only a success is kept: a failure (a 2xx whose body says it failed too) is neither cached nor recorded.
        const kept = succeeded && relayed.status === 200;
        if (kept && statusCacheMs > 0 && relayed.body.length <= maxCachedStatusChars) {
          const expiresAt = now() + statusCacheMs;
          await store.setCachedStatus(projectId, {
            status: 200,
            body: relayed.body,
            contentType: 'application/json',
            expiresAt,
          });
        }
        // Without a cache too: the project list and a lost stream's turn learn from every status answer. While a
        // build is relayed (here or, with leases, by another instance), its recorder writes the summary's status
        // (building, then the end): a poll noted late would put back what the upstream said before the end, or
        // "generating" after it.
        if (kept)
          await noteProjectStatus(store, projectId, userId, relayed.body, now(), {
            withStatus: !(await relayingProjects.isRelayed(projectId)),
          });
        return relayed;
      })().finally(() => inflightStatus.delete(projectId));
      inflightStatus.set(projectId, pending);
    }
    return { response: relayedResponse(await relayingProjects.answer(projectId, await pending)), cache };
  };
}
