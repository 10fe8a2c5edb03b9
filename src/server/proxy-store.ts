/** The contract of the proxy's state: what must outlive one request and, with several instances, be shared. */
import type { ConversationTurn, ConversationTurnOutcome, ProjectSummary } from '../core/index.js';
import type { BudgetDecision, BudgetLimits } from './fair-budget.js';

/** A status response kept for a short while, so many polls cost one upstream request. */
export interface CachedStatus {
  status: number;
  body: string;
  contentType: string;
  expiresAt: number;
}

/** One relayed event of a generation, with its SSE id (consecutive within a generation, growing across them). */
export interface RecordedEvent {
  id: number;
  data: string;
}

/** The recorded events of a project's latest generation after some id. */
export interface GenerationEvents {
  /** Which generation of the project (1 for the first prompt, then one more per follow-up). */
  generation: number;
  events: RecordedEvent[];
  /** The generation's stream has ended (terminal event, or the upstream stream closed). */
  ended: boolean;
}

/** What the proxy learned about a project from a status answer or an event. */
export type ProjectPatch = Partial<Pick<ProjectSummary, 'name' | 'app_url' | 'project_status'>>;

/**
 * A summary patch within what a summary keeps: a name over 200 characters is cut, an address over 2,048 or a status
 * over 64 dropped (a cut one would be wrong). An upstream answer may be 5 MiB and an event 16 MiB; the memory store
 * keeps 50,000 summaries.
 */
export function boundedProjectPatch(patch: ProjectPatch): ProjectPatch {
  const { name, app_url, project_status } = patch;
  const cut = (value: string | null, limit: number) =>
    value === null || value.length <= limit ? value : `${value.slice(0, limit)}…`;
  const within = (value: string | null, limit: number) => (value === null || value.length <= limit ? value : null);
  return {
    ...(name === undefined ? {} : { name: cut(name, 200) }),
    ...(app_url === undefined ? {} : { app_url: within(app_url, 2_048) }),
    ...(project_status === undefined ? {} : { project_status: within(project_status, 64) }),
  };
}

/**
 * The longest status answer a store caches (a real one is about 200 characters): the memory store keeps 1,000, and
 * an upstream answer may be 5 MiB. A longer one is relayed, not cached.
 */
export const maxCachedStatusChars = 16 * 1024;

/** What an end user's generate gets while the store is unreachable (503). */
export const storeUnavailableMessage = 'The service is temporarily unavailable. Please try again in a moment.';

/** The store refused because its backend (Redis) is unreachable; the proxy answers 503 and fails closed. */
export class ProxyStoreUnavailableError extends Error {
  constructor(cause?: unknown) {
    super('The proxy store is unavailable.', { cause });
    this.name = 'ProxyStoreUnavailableError';
  }
}

/**
 * Where the proxy keeps what must outlive one request: in memory by default (`createMemoryProxyStore`),
 * in Redis for several instances or restarts (`createRedisProxyStore`). Both run the same budget rules.
 */
/** Most projects `listProjects` gives (the newest), whatever the store. */
export const maxListedProjects = 200;

export interface ProxyStore {
  /** The end user who created a project, if the proxy saw it being created. */
  getProjectOwner(projectId: string): Promise<string | undefined>;
  /** Records the creator of a project; the first record wins and is never overwritten. */
  setProjectOwner(projectId: string, externalUserId: string): Promise<void>;
  /** Takes one slot of the team budget for a user, atomically, or says how long to wait. */
  acquireBudget(userId: string, now: number, limits: BudgetLimits): Promise<BudgetDecision>;
  /** Refuses every slot until `until` (after the upstream itself answered 429). */
  pauseBudget(until: number): Promise<void>;
  /** A fresh cached status answer of a project, if any. */
  getCachedStatus(projectId: string, now: number): Promise<CachedStatus | undefined>;
  /** Keeps a status answer until its `expiresAt`. */
  setCachedStatus(projectId: string, entry: CachedStatus): Promise<void>;
  /**
   * Claims the refresh of a project's status for `ttlMs` across instances; false when another instance
   * holds it (the caller then waits for the cache briefly). Optional: a store without it always refreshes.
   */
  claimStatusRefresh?(projectId: string, ttlMs: number): Promise<boolean>;
  /**
   * Marks the project as relayed by `holder` (one relay of one instance) for `ttlMs` from now, on the store's own
   * clock; the relay renews it while its upstream stream is open, so every instance's status route knows the build is
   * still going. Optional, with `releaseRelay` and `isRelayed`: without them only the relaying instance knows.
   */
  holdRelay?(projectId: string, holder: string, ttlMs: number): Promise<void>;
  /** Gives a relay's lease back (its upstream stream is over). */
  releaseRelay?(projectId: string, holder: string): Promise<void>;
  /** Whether any relay's lease of the project is unexpired. */
  isRelayed?(projectId: string): Promise<boolean>;
  /** Throws `ProxyStoreUnavailableError` when the store cannot serve now (checked before any generate POST). */
  assertAvailable?(): Promise<void>;
  /** Starts a new generation of an end user's project with the prompt that caused it; returns its number. */
  beginGeneration(projectId: string, userId: string, turn: ConversationTurn): Promise<number>;
  /** Records one relayed event of a generation. */
  appendEvent(projectId: string, generation: number, event: RecordedEvent): Promise<void>;
  /**
   * Records several relayed events of a generation, in order, in one write (optional: without it each is appended
   * in turn). A burst's events are recorded in batches: one store call for all that waited for the previous one.
   */
  appendEvents?(projectId: string, generation: number, events: readonly RecordedEvent[]): Promise<void>;
  /** Marks a generation ended with its outcome; its events are kept for the retention time from now. */
  endGeneration(projectId: string, generation: number, outcome: ConversationTurnOutcome): Promise<void>;
  /**
   * Calls `onChange` whenever something is recorded for the project (a generation begins, an event, the end),
   * by any instance; resolves once listening, to the function that stops it, or to undefined when the store
   * cannot (followers then poll). Optional.
   */
  watchEvents?(projectId: string, onChange: () => void): Promise<(() => void) | undefined>;
  /**
   * The latest generation's events after `after`, or undefined when nothing is recorded. A store may answer in
   * pages (a follower reads on after the last event it got); with `maxBytes`, a page holds at most that much event
   * data (counted as the log's bytes are), and always at least one event, so a follower holds no more than its
   * browser has room for.
   */
  readEvents(projectId: string, after: number, maxBytes?: number): Promise<GenerationEvents | undefined>;
  /** Creates or updates an end user's project summary. */
  noteProject(projectId: string, userId: string, patch: ProjectPatch, at: number): Promise<void>;
  /** The end user's projects, newest first: the newest `maxListedProjects`. */
  listProjects(userId: string): Promise<ProjectSummary[]>;
  /** The turns of a project's conversation, oldest first. */
  getConversation(projectId: string): Promise<ConversationTurn[]>;
  /**
   * Counts one generation of a user in a quota window (`window` names it, `expiresAt` ends it) if fewer
   * than `limit` are counted, atomically across instances; says whether it counted and the count after.
   * Optional: a store without the three quota methods cannot serve the `quota` option.
   */
  takeQuota?(userId: string, window: string, limit: number, expiresAt: number): Promise<{ ok: boolean; used: number }>;
  /** Gives one generation back (the upstream refused it before it started). */
  returnQuota?(userId: string, window: string): Promise<void>;
  /** How many generations of a user are counted in a window. */
  readQuota?(userId: string, window: string): Promise<number>;
}
