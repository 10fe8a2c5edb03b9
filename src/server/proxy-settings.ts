/** The proxy's options resolved once, at its first request: defaults filled in, origins and limits checked. */
import {
  agentRoutes,
  defaultStreamSlicing,
  parseHttpUrl,
  type AgentRoute,
  type AgentRouteName,
} from '../core/index.js';
import type { RelayTimers } from './event-stream-relay.js';
import type { BudgetLimits } from './fair-budget.js';
import { createMemoryProxyStore } from './memory-proxy-store.js';
import type { AgentProxyOptions } from './proxy-types.js';
import {
  defaultMaxJsonDepth,
  defaultMaxUpstreamBodyBytes,
  defaultUpstreamBodyIdleMs,
  defaultUpstreamBodyTotalMs,
} from './bounded-json.js';
import { defaultMaxRequestsPerUser, defaultMaxStreamsPerUser } from './drain.js';
import { defaultMaxBufferedBytes, defaultSlowReaderMs } from './event-stream-relay.js';
import { returnUrlPolicyOf } from './return-url.js';
import { defaultMaxRetryAfterMs } from './upstream-answers.js';
import { defaultIdleTimeoutMs, defaultStreamTimeoutMs } from './upstream-timeouts.js';

/** Whether the proxy runs in production, as the platform says (`NODE_ENV`). */
function inProduction(): boolean {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  return env?.NODE_ENV === 'production';
}

function normalizeBasePath(basePath: string): string {
  const trimmed = basePath.replace(/\/+$/, '');
  if (trimmed !== '' && !trimmed.startsWith('/')) throw new TypeError(`basePath must start with "/": ${basePath}`);
  return trimmed;
}

/** The URL of an option, checked by core's one http(s) check; a TypeError naming the option otherwise. */
function httpUrlOf(value: string, what: string): URL {
  const url = parseHttpUrl(value);
  if (url === undefined) throw new TypeError(`${what} must be an http or https URL: ${value}`);
  return url;
}

/** The settings of a proxy; throws a TypeError naming the option that is not usable. */
export function resolveProxySettings(options: AgentProxyOptions) {
  const apiBase = httpUrlOf(options.apiBaseUrl, 'apiBaseUrl');
  const apiOrigin = apiBase.origin;
  const apiBasePath = apiBase.pathname.replace(/\/+$/, '');
  const basePath = normalizeBasePath(options.basePath ?? '');
  const store = options.store ?? createMemoryProxyStore();
  const now = options.now ?? Date.now;
  const timers: RelayTimers = options.timers ?? {
    setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
    clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>),
  };
  const maxBodyBytes = options.maxBodyBytes ?? 256 * 1024;
  const statusCacheMs = options.statusCacheMs ?? 2000;
  const heartbeatMs = options.heartbeatMs ?? 15_000;
  const { scope: budgetScope = 'all', ...budgetOptions } = options.rateLimit === false ? {} : (options.rateLimit ?? {});
  const limits: BudgetLimits | undefined =
    options.rateLimit === false
      ? undefined
      : {
          limit: 10,
          windowMs: 60_000,
          ...budgetOptions,
          maxPauseMs: options.maxRetryAfterMs ?? defaultMaxRetryAfterMs,
        };
  if (limits !== undefined && (!(limits.limit >= 1) || !(limits.windowMs > 0)))
    throw new TypeError('rateLimit needs limit >= 1 and windowMs > 0.');
  const maxStreamsPerUser = options.maxStreamsPerUser ?? defaultMaxStreamsPerUser;
  if (!Number.isInteger(maxStreamsPerUser) || maxStreamsPerUser < 0)
    throw new TypeError(`maxStreamsPerUser must be a whole number, 0 or more: ${maxStreamsPerUser}`);
  const maxRequestsPerUser = options.maxRequestsPerUser ?? defaultMaxRequestsPerUser;
  if (!Number.isInteger(maxRequestsPerUser) || maxRequestsPerUser < 0)
    throw new TypeError(`maxRequestsPerUser must be a whole number, 0 or more: ${maxRequestsPerUser}`);
  const allowedOrigins = options.csrf
    ? new Set(options.csrf.allowedOrigins.map((origin) => httpUrlOf(origin, 'csrf.allowedOrigins').origin))
    : undefined;
  const returnUrlPolicy = returnUrlPolicyOf(
    [
      ...(options.appUrl === undefined ? [] : [httpUrlOf(options.appUrl, 'appUrl')]),
      ...(options.returnUrlOrigins ?? []).map((origin) => httpUrlOf(origin, 'returnUrlOrigins')),
    ],
    inProduction(),
  );
  const installOrigins = new Set(
    (options.codehostInstallOrigins ?? ['https://github.com', apiOrigin]).map(
      (origin) => httpUrlOf(origin, 'codehostInstallOrigins').origin,
    ),
  );
  const upstreamRoutes: Record<AgentRouteName, AgentRoute> = { ...agentRoutes };
  for (const [name, path] of Object.entries(options.paths ?? {}) as [AgentRouteName, string | undefined][]) {
    if (path !== undefined) upstreamRoutes[name] = { ...agentRoutes[name], path };
  }
  return {
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
    maxJsonDepth: options.maxJsonDepth ?? defaultMaxJsonDepth,
    upstreamBody: {
      maxBytes: options.maxUpstreamBodyBytes ?? defaultMaxUpstreamBodyBytes,
      idleMs: options.upstreamBodyIdleMs ?? defaultUpstreamBodyIdleMs,
      totalMs: options.upstreamBodyTimeoutMs ?? defaultUpstreamBodyTotalMs,
      timers,
    },
    maxRetryAfterMs: options.maxRetryAfterMs ?? defaultMaxRetryAfterMs,
    maxStreamsPerUser,
    maxRequestsPerUser,
    /** How event streams go to a browser: the generate relay's and the events route's followers alike. */
    relaying: {
      heartbeatMs,
      maxBufferedBytes: options.maxBufferedBytes ?? defaultMaxBufferedBytes,
      slowReaderMs: options.slowReaderMs ?? defaultSlowReaderMs,
      slicing: options.slicing === undefined ? defaultStreamSlicing() : (options.slicing ?? undefined),
      deadlines: {
        idleMs: options.upstreamIdleTimeoutMs ?? defaultIdleTimeoutMs,
        totalMs: options.upstreamStreamTimeoutMs ?? defaultStreamTimeoutMs,
      },
    },
  };
}
