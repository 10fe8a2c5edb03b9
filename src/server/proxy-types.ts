/** The proxy's public types: its options, its log entries and the handler it returns. */
import type { AgentPathOverrides, AgentRouteName, ProxyRouteName, StreamSlicing } from '../core/index.js';
import type { RelayTimers } from './event-stream-relay.js';
import type { ProxyStore } from './proxy-store.js';
import type { GenerationRecord } from './generation-records.js';
import type { QuotaOption, Usage } from './quota.js';
import type { AgentProxyUser } from './route-policy.js';

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
    | 'upstream_refused'
    | 'slow_reader'
    | 'identity_dropped'
    | 'config_warning'
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
   * `burst`: most requests sent together, the rest spread over the window (default a quarter of `limit`).
   * `scope` says which requests count: 'all' (default; every endpoint, as the spec's Limits table says) or
   * 'agent' (generate, follow-up and status). An upstream 429 on a family not counted adds that family (logged
   * as `budget_widened`), so an upstream that limits more than the scope never locks the team out.
   */
  rateLimit?: { limit: number; windowMs: number; burst?: number; scope?: 'agent' | 'all' } | false;
  /** How long a project status answer is reused for every poll of that project (default 2000 ms; 0: only coalesce). */
  statusCacheMs?: number;
  /** How long an answer that is the same for every end user (subscription plans) is reused (default 60000 ms; 0: never). */
  teamAnswersCacheMs?: number;
  /**
   * The heartbeat's period on a relayed stream: a `: ping` comment ends each period in which no event went out, so
   * it follows one to two periods of quiet (default 15000 ms; 0: never).
   */
  heartbeatMs?: number;
  /** Cross-site request defence for cookie sessions: POSTs must come from these origins (or same-origin). */
  csrf?: { allowedOrigins: string[] };
  /**
   * The agency app's URL: where end users return after the code-host install. The browser sends a path
   * (joined to it) or an absolute URL on this origin or one of `returnUrlOrigins`. Without either, loopback
   * origins only outside production, and the connect route refused in production (`NODE_ENV=production`).
   */
  appUrl?: string;
  /** More origins a code-host `return_url` may point to; the first is the base of paths when `appUrl` is unset. */
  returnUrlOrigins?: string[];
  /**
   * The origins the code-host install flow may send the end user to (the start answer's `redirect_url`, which carries
   * the flow's one-time `state`): default `https://github.com` and the Agent API's own origin. An answer naming any
   * other origin, or plain http where https is configured, is a 502, never a redirect.
   */
  codehostInstallOrigins?: string[];
  /** Deepest JSON nesting accepted from the browser (400) and from the upstream (502); default 64. */
  maxJsonDepth?: number;
  /** Largest upstream JSON answer in bytes (default 5 MiB), read as a stream and stopped there: 502. */
  maxUpstreamBodyBytes?: number;
  /** Longest pause within an upstream JSON answer (default 10000 ms; 0: none): 504. */
  upstreamBodyIdleMs?: number;
  /** Longest time to read a whole upstream JSON answer after its headers (default 30000 ms; 0: none): 504. */
  upstreamBodyTimeoutMs?: number;
  /** Longest pause taken from an upstream `Retry-After`, before anything is stored (default 120000 ms). */
  maxRetryAfterMs?: number;
  /** Most bytes of events queued for one slow browser before the relay waits for it (default 1 MiB). */
  maxBufferedBytes?: number;
  /** How long the relay waits for a slow browser to make room, then closes for it to resume (default 10000 ms). */
  slowReaderMs?: number;
  /**
   * Most event streams one end user may hold open on this proxy at once: generate and follow-up streams and the
   * events route's followers (default 8; 0: no bound). One more is refused with 429 before anything is spent.
   */
  maxStreamsPerUser?: number;
  /**
   * Most requests to the Agent API one end user may have in flight on this proxy at once, each holding its body and
   * its answer (default 32; 0: no bound). One more is refused with 429 (`Retry-After: 1`) before its body is read.
   * A stream counts here until it starts relaying, then under `maxStreamsPerUser`.
   */
  maxRequestsPerUser?: number;
  /**
   * How relayed streams share the thread the proxy runs on: by default, in a page's main thread (the in-browser
   * mock) the relay hands it back every few milliseconds, elsewhere never; null: never. Inject a clock and yield to test.
   */
  slicing?: StreamSlicing | null;
  /** Upstream paths that differ from the spec's; the browser keeps using the spec's paths. */
  paths?: AgentPathOverrides;
  /** Longest time a request body may take to arrive (default 10000 ms; 0: none); then 408. */
  requestBodyTimeoutMs?: number;
  /** Longest wait for upstream response headers (default 30000 ms; 0: none); then 504, never a retry. */
  upstreamHeadersTimeoutMs?: number;
  /**
   * The stall limit: longest time a relayed stream may get no upstream event (default 120000 ms; 0: none).
   * Keep-alive comments do not count, so a build that only pings ends; the browser then resumes or polls.
   */
  upstreamIdleTimeoutMs?: number;
  /**
   * Longest time a relayed generate or follow-up stream may run in all (default 3600000 ms, an hour; 0: none):
   * an upstream sending an event now and then, forever, would otherwise hold the stream and its records. The
   * stream then closes as the stall limit closes it, and the browser resumes or polls.
   */
  upstreamStreamTimeoutMs?: number;
  /**
   * Per-end-user quota of generations (generate and follow-up): `{ generations: 20, per: 'day' }` (`day`,
   * `week`, `month` in UTC, or seconds), or a function of the signed-in user giving one or `undefined` (no
   * limit). A generation counts once the upstream accepts it; over the limit the proxy answers 429
   * `{ code: 'quota_exceeded', used, limit, resets_at, period }` before anything goes upstream.
   */
  quota?: QuotaOption;
  /**
   * Called once per ended generation (generate or follow-up) with the end user, project, kind, mode, outcome
   * (`completed`, `failed`, `credits_exhausted`, `interrupted`), files created, time to the first event and
   * duration: for the agency's analytics and billing. Never the token or the prompt. Errors it throws are logged.
   */
  onGeneration?(record: GenerationRecord): void;
  onLog?(entry: ProxyLogEntry): void;
  now?(): number;
  timers?: RelayTimers;
}

/** A request handler over Web standard Request and Response, with a graceful drain for shutdown. */
export type AgentProxyHandler = ((request: Request) => Promise<Response>) & {
  /** Ends open streams as interrupted and refuses new generations with 503; resolves once the streams have ended. */
  drain(): Promise<void>;
  /** An end user's quota usage in the current period (for agency dashboards and support). */
  usage(user: string | AgentProxyUser): Promise<Usage>;
};
