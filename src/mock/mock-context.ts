/** What every handler of the mock shares: the state, the clock, the options and the caller. */
import type { StreamSlicing } from '../core/index.js';
import type { FaultQueue } from './mock-fault.js';
import type { MockSpeed, MockTimers } from './mock-generation.js';
import type { MockScenario } from './mock-script.js';
import type { MockState, MockTeam, MockToken } from './mock-state.js';

/** The options of the mock once defaults are applied. */
export interface MockSettings {
  speed: MockSpeed;
  /** The default team's token. */
  token: string;
  heartbeatMs: number;
  scenario: MockScenario;
  timers: MockTimers;
  /** How a generation shares the thread (a page's main thread); undefined: it never pauses. */
  slicing: StreamSlicing | undefined;
  rateLimit: { limit: number; windowMs: number; scope: 'agent' | 'all' } | false;
  /** The API base URL, ending in /api/v1. */
  baseUrl: string;
  /** Where app pages are served; app_url is `<appBaseUrl>/apps/<projectId>/`. */
  appBaseUrl: string;
  /** The parts of those URLs the mock routes by: `baseUrl`'s origin and path, `appBaseUrl`'s path (no trailing slash). */
  origin: string;
  apiBasePath: string;
  appBasePath: string;
}

/** Shared by every handler. */
export interface MockContext {
  readonly state: MockState;
  readonly settings: MockSettings;
  readonly faults: FaultQueue;
  now(): number;
  /** Aborted on reset and dispose, stopping running generations. */
  readonly lifetime: AbortSignal;
}

/** The authenticated caller of an API request. */
export interface MockCaller {
  team: MockTeam;
  token: MockToken;
}

/** The origin the mock's own pages (install page, callback) live on. */
export function mockOrigin(settings: MockSettings): string {
  return settings.origin;
}
