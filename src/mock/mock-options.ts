/** The options of the mock Agent API, the handle it returns, and its settings resolved from the options. */
import { defaultStreamSlicing, parseHttpUrl, type StreamSlicing } from '../core/index.js';
import type { MockAdmin } from './mock-admin.js';
import type { MockSettings } from './mock-context.js';
import { systemTimers, type MockSpeed, type MockTimers } from './mock-generation.js';
import type { MockScenario } from './mock-script.js';
import { randomHex } from './mock-state.js';

/** Options of `createMockAgentApi`. */
export interface MockAgentApiOptions {
  /** 'realistic' (default): a few seconds per generation; 'instant': no delays. */
  speed?: MockSpeed;
  /** The clock for token expiry, rate limits and timestamps (default `Date.now`). */
  now?: () => number;
  /** The timers generations wait with (default the platform's). */
  timers?: MockTimers;
  /** Credits of the default team (default 200). */
  credits?: number;
  /**
   * The default team's token (default: a new random one). A page that runs the mock in a worker picks it, to revoke or
   * expire it through the admin: the admin's JSON never shows a token.
   */
  token?: string;
  /**
   * Requests per token in a rolling window (default 10 per 60,000 ms) over every endpoint, as DESIGN.md decides from
   * the spec's Limits table (`scope: 'agent'` counts only the agent endpoints); false disables it.
   */
  rateLimit?: { limit: number; windowMs: number; scope?: 'agent' | 'all' } | false;
  /** The API base URL, ending in /api/v1 (default 'http://mock.agent-embed.test/api/v1'). */
  baseUrl?: string;
  /** Where app pages are served (default: the origin of `baseUrl`). */
  appBaseUrl?: string;
  /** Idle time before a `: ping` heartbeat while a stream waits (default 1,000 ms). */
  heartbeatMs?: number;
  /** The generation script and repository seeding. */
  scenario?: MockScenario;
  /**
   * How an 'instant' generation shares the thread: by default, in a page's main thread it hands its events over
   * in slices of a few milliseconds with the thread handed back between them, elsewhere all at once; null: all at once.
   */
  slicing?: StreamSlicing | null;
}

/** A running mock Agent API. */
export interface MockAgentApi {
  /** Answers one request; never throws. */
  fetch(request: Request): Promise<Response>;
  /** A valid token of the default team: credits, no expiry. Stays valid across `admin.reset()`. */
  readonly token: string;
  /** The API base URL, ending in /api/v1. */
  readonly baseUrl: string;
  /** Where app pages are served. */
  readonly appBaseUrl: string;
  /** Programmatic control (also served under /__mock/admin). */
  readonly admin: MockAdmin;
  /** Stops running generations and their timers. */
  dispose(): void;
}

/** The default API base URL: a reserved test domain, reachable only through `fetch` of this handler. */
export const defaultMockBaseUrl = 'http://mock.agent-embed.test/api/v1';

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

/** The default token: the one given, checked, or a new random one. */
function tokenOf(given: string | undefined): string {
  if (given === undefined) return `mock_dev_${randomHex(20)}`;
  if (!/^[\x21-\x7e]{8,}$/.test(given))
    throw new TypeError('token must be at least 8 printable ASCII characters, with no space.');
  return given;
}

/** The mock's settings from its options: defaults filled in, URLs checked. */
export function resolveSettings(options: MockAgentApiOptions): MockSettings {
  const baseUrl = trimSlash(options.baseUrl ?? defaultMockBaseUrl);
  const base = parseHttpUrl(baseUrl);
  if (base === undefined) throw new TypeError(`baseUrl must be an http(s) URL: ${baseUrl}`);
  const appBaseUrl = trimSlash(options.appBaseUrl ?? base.origin);
  const appBase = parseHttpUrl(appBaseUrl);
  if (appBase === undefined) throw new TypeError(`appBaseUrl must be an http(s) URL: ${appBaseUrl}`);
  const rateLimit = options.rateLimit ?? { limit: 10, windowMs: 60_000 };
  return {
    speed: options.speed ?? 'realistic',
    token: tokenOf(options.token),
    heartbeatMs: Math.max(1, options.heartbeatMs ?? 1000),
    scenario: options.scenario ?? {},
    timers: options.timers ?? systemTimers,
    slicing: options.slicing === undefined ? defaultStreamSlicing() : (options.slicing ?? undefined),
    rateLimit:
      rateLimit === false
        ? false
        : { limit: rateLimit.limit, windowMs: rateLimit.windowMs, scope: rateLimit.scope ?? 'all' },
    baseUrl,
    appBaseUrl,
    origin: base.origin,
    apiBasePath: trimSlash(base.pathname),
    appBasePath: trimSlash(appBase.pathname),
  };
}

/** How many requests the mock's request log keeps (for `admin.requests`). */
export const requestLogLimit = 10_000;
