/** The proxy's state behind a small interface: project ownership, the request budget, the status cache. */
import { decideBudget, type BudgetDecision, type BudgetEntry, type BudgetLimits } from './fair-budget.js';

/** A status response kept for a short while, so many polls cost one upstream request. */
export interface CachedStatus {
  status: number;
  body: string;
  contentType: string;
  expiresAt: number;
}

/**
 * Where the proxy keeps what must outlive one request. In memory by default; with several proxy
 * instances, implement it over a shared store (Redis: a hash for owners, a sorted set per team for
 * the budget log run through the rules of `decideBudget` in one script, keys with a TTL for the cache).
 */
export interface ProxyStore {
  /** The end user who created a project, if the proxy saw it being created. */
  getProjectOwner(projectId: string): Promise<string | undefined>;
  /** Records the creator of a project; the first record wins and is never overwritten. */
  setProjectOwner(projectId: string, externalUserId: string): Promise<void>;
  /** Takes one slot of the team budget for a user, atomically, or says how long to wait. */
  acquireBudget(userId: string, now: number, limits: BudgetLimits): Promise<BudgetDecision>;
  /** Refuses every slot until `until` (after the upstream itself answered 429). */
  pauseBudget(until: number): Promise<void>;
  getCachedStatus(projectId: string, now: number): Promise<CachedStatus | undefined>;
  setCachedStatus(projectId: string, entry: CachedStatus): Promise<void>;
}

/** Options of `createMemoryProxyStore`. */
export interface MemoryProxyStoreOptions {
  /** Owners known beforehand (projects created before the proxy was deployed), by project id. */
  owners?: Record<string, string>;
}

const maxCachedStatuses = 1000;

/** Creates the in-memory store: right for one proxy process; state is lost on restart. */
export function createMemoryProxyStore(options: MemoryProxyStoreOptions = {}): ProxyStore {
  const owners = new Map<string, string>(Object.entries(options.owners ?? {}));
  let log: BudgetEntry[] = [];
  let pausedUntil = 0;
  const cache = new Map<string, CachedStatus>();

  return {
    async getProjectOwner(projectId) {
      return owners.get(projectId);
    },
    async setProjectOwner(projectId, externalUserId) {
      if (!owners.has(projectId)) owners.set(projectId, externalUserId);
    },
    async acquireBudget(userId, now, limits) {
      if (now < pausedUntil) return { ok: false, reason: 'paused', retryAfterMs: pausedUntil - now };
      log = log.filter((entry) => entry.at > now - limits.windowMs);
      const decision = decideBudget(log, userId, now, limits);
      if (decision.ok) log.push({ at: now, userId });
      return decision;
    },
    async pauseBudget(until) {
      pausedUntil = Math.max(pausedUntil, until);
    },
    async getCachedStatus(projectId, now) {
      const entry = cache.get(projectId);
      if (entry === undefined) return undefined;
      if (entry.expiresAt <= now) {
        cache.delete(projectId);
        return undefined;
      }
      return entry;
    },
    async setCachedStatus(projectId, entry) {
      cache.delete(projectId);
      cache.set(projectId, entry);
      // Maps keep insertion order, so the first key is the oldest entry.
      while (cache.size > maxCachedStatuses) {
        const oldest = cache.keys().next().value;
        if (oldest === undefined) break;
        cache.delete(oldest);
      }
    },
  };
}
