/** The in-memory `ProxyStore`: right for one proxy process; its state is lost on restart. */
import type { ConversationTurn, ProjectSummary } from '../core/index.js';
import { createBudgetLedger } from './fair-budget.js';
import {
  maxListedProjects,
  type CachedStatus,
  type GenerationEvents,
  type ProxyStore,
  type RecordedEvent,
} from './proxy-store.js';

export type { CachedStatus, ProxyStore } from './proxy-store.js';

/** Options of `createMemoryProxyStore`. Every structure is bounded; the oldest entries go first. */
export interface MemoryProxyStoreOptions {
  /** Owners known beforehand (projects created before the proxy was deployed), by project id. */
  owners?: Record<string, string>;
  /** Most projects remembered (owners, summaries, conversations; least recently used go first). Default 50,000. */
  maxProjects?: number;
  /** Most projects whose latest generation's events are kept (least recently used go first). Default 1,000. */
  maxEventLogs?: number;
  /**
   * Most of those logs one end user holds (the user's own least recently begun go first), so that one user's builds
   * never push out another user's. Default 20.
   */
  maxEventLogsPerUser?: number;
  /** Most bytes of event data kept in all logs together (least recently used logs go first). Default 256 MiB. */
  maxEventBytes?: number;
  /** Most events kept per generation (the oldest go first). Default 5,000. */
  maxEventsPerGeneration?: number;
  /**
   * Most bytes of event data kept per generation (the oldest go first), counted as string length, which is
   * the byte count of the ASCII JSON the API sends. Default 8 MiB.
   */
  maxEventBytesPerGeneration?: number;
  /** How long a generation's events are kept after its end, in ms. Default 1 hour. */
  eventRetentionMs?: number;
  /** Most turns kept per conversation (the oldest go first). Default 200. */
  maxTurnsPerProject?: number;
  /**
   * Most quota counts kept (one per user and period). Counts of ended periods go first; past this many live ones, the
   * least recently used is forgotten, and that user counts afresh (use the Redis store beyond). Default 200,000.
   */
  maxQuotaCounts?: number;
  now?(): number;
}

/** A Map that forgets its least recently used entries beyond `max`, telling `onForget` of each. */
class BoundedMap<K, V> {
  private readonly map = new Map<K, V>();
  // The most recently used key: using it again moves nothing. A build's events all touch its one log, and each move
  // leaves a deleted entry behind that the Map must compact by copying its table.
  private newest: K | undefined;
  constructor(
    private readonly max: number,
    private readonly onForget?: (key: K, value: V) => void,
  ) {}
  get(key: K): V | undefined {
    const value = this.map.get(key);
    if (value !== undefined && key !== this.newest) {
      this.map.delete(key);
      this.map.set(key, value);
      this.newest = key;
    }
    return value;
  }
  has(key: K): boolean {
    return this.map.has(key);
  }
  set(key: K, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    this.newest = key;
    while (this.map.size > this.max) {
      const oldest = this.map.entries().next();
      if (oldest.done === true) break;
      this.delete(oldest.value[0]);
    }
  }
  get size(): number {
    return this.map.size;
  }
  entries(): IterableIterator<[K, V]> {
    return this.map.entries();
  }
  /** The least recently used key. */
  oldest(): K | undefined {
    return this.map.keys().next().value;
  }
  delete(key: K): void {
    const value = this.map.get(key);
    if (!this.map.delete(key)) return;
    if (key === this.newest) this.newest = undefined;
    this.onForget?.(key, value as V);
  }
}

interface EventLog {
  /** The end user whose generation it is. */
  owner: string;
  generation: number;
  events: RecordedEvent[];
  bytes: number;
  endedAt: number | undefined;
}

interface ProjectRecord {
  owner: string;
  summary: ProjectSummary;
  turns: ConversationTurn[];
  /** Generation number of `turns[0]`: turns beyond the bound are dropped from the front. */
  firstGeneration: number;
}

const maxCachedStatuses = 1000;

/** Creates the in-memory store. */
export function createMemoryProxyStore(options: MemoryProxyStoreOptions = {}): ProxyStore {
  const now = options.now ?? Date.now;
  const maxProjects = options.maxProjects ?? 50_000;
  const maxEvents = options.maxEventsPerGeneration ?? 5_000;
  const maxEventBytes = options.maxEventBytesPerGeneration ?? 8 * 1024 * 1024;
  const retentionMs = options.eventRetentionMs ?? 3_600_000;
  const maxTurns = options.maxTurnsPerProject ?? 200;
  // Project ids per user, oldest first: exactly the ids of `projects`, so bounded with them.
  const byUser = new Map<string, Set<string>>();
  const maxLogsPerUser = options.maxEventLogsPerUser ?? 20;
  const maxAllEventBytes = options.maxEventBytes ?? 256 * 1024 * 1024;
  // The logs' project ids per user, least recently begun first, and the bytes of all logs: both follow `logs`.
  const logsByUser = new Map<string, Set<string>>();
  let allEventBytes = 0;
  const logs = new BoundedMap<string, EventLog>(options.maxEventLogs ?? 1_000, (projectId, log) => {
    allEventBytes -= log.bytes;
    const mine = logsByUser.get(log.owner);
    mine?.delete(projectId);
    if (mine?.size === 0) logsByUser.delete(log.owner);
  });
  const projects = new BoundedMap<string, ProjectRecord>(maxProjects, (projectId, project) => {
    const mine = byUser.get(project.owner);
    mine?.delete(projectId);
    if (mine?.size === 0) byUser.delete(project.owner);
  });
  /** Forgets a project's record and its events (its summary, conversation and log). */
  const forgetRecords = (projectId: string) => {
    projects.delete(projectId);
    logs.delete(projectId);
  };
  // A project whose owner is forgotten is forgotten whole: a user the upstream later gives the same id (a broken or
  // hostile upstream) must find nothing of the first owner's.
  const owners = new BoundedMap<string, string>(maxProjects, forgetRecords);
  for (const [projectId, owner] of Object.entries(options.owners ?? {})) owners.set(projectId, owner);
  const ledger = createBudgetLedger();
  const cache = new BoundedMap<string, CachedStatus>(maxCachedStatuses);
  // A window's key names its period, so an old period's count is never read again: those go first when the map is full.
  const maxQuotaCounts = options.maxQuotaCounts ?? 200_000;
  const quotas = new BoundedMap<string, { used: number; expiresAt: number }>(maxQuotaCounts);
  // No count ends before this: a full map of live counts is not read through again for every new user.
  let noPeriodEndsBefore = 0;
  const dropEndedQuotaPeriods = () => {
    const at = now();
    if (at < noPeriodEndsBefore) return;
    let earliest = Number.POSITIVE_INFINITY;
    for (const [key, count] of quotas.entries()) {
      if (count.expiresAt <= at) quotas.delete(key);
      else earliest = Math.min(earliest, count.expiresAt);
    }
    noPeriodEndsBefore = earliest;
  };
  const quotaKey = (userId: string, window: string) => `${userId}\n${window}`;
  // Followers' wake-ups by project; an entry lives as long as someone follows.
  const watchers = new Map<string, Set<() => void>>();
  const changed = (projectId: string) => {
    for (const onChange of watchers.get(projectId) ?? []) onChange();
  };

  const iso = (at: number) => new Date(at).toISOString();
  const liveLog = (projectId: string) => {
    const log = logs.get(projectId);
    if (log?.endedAt !== undefined && now() - log.endedAt > retentionMs) {
      logs.delete(projectId);
      return undefined;
    }
    return log;
  };
  /** The user's record of a project, made if there is none; another user's record is never the user's. */
  const record = (projectId: string, userId: string, at: number): ProjectRecord => {
    let found = projects.get(projectId);
    if (found !== undefined && found.owner !== userId) {
      forgetRecords(projectId);
      found = undefined;
    }
    if (found === undefined) {
      const summary: ProjectSummary = {
        project_id: projectId,
        name: null,
        app_url: null,
        project_status: null,
        created_at: iso(at),
        updated_at: iso(at),
      };
      found = { owner: userId, summary, turns: [], firstGeneration: 1 };
      projects.set(projectId, found);
      let mine = byUser.get(userId);
      if (mine === undefined) byUser.set(userId, (mine = new Set()));
      mine.add(projectId);
    }
    return found;
  };

  return {
    async getProjectOwner(projectId) {
      return owners.get(projectId);
    },
    async setProjectOwner(projectId, externalUserId) {
      if (!owners.has(projectId)) owners.set(projectId, externalUserId);
    },
    async acquireBudget(userId, at, limits) {
      return ledger.take(userId, at, limits);
    },
    async pauseBudget(until) {
      ledger.pause(until);
    },
    async takeQuota(userId, window, limit, expiresAt) {
      const key = quotaKey(userId, window);
      const count = quotas.get(key);
      const used = count?.used ?? 0;
      if (used >= limit) return { ok: false, used };
      if (count !== undefined) count.used = used + 1;
      else {
        if (quotas.size >= maxQuotaCounts) dropEndedQuotaPeriods();
        quotas.set(key, { used: 1, expiresAt });
        noPeriodEndsBefore = Math.min(noPeriodEndsBefore, expiresAt);
      }
      return { ok: true, used: used + 1 };
    },
    async returnQuota(userId, window) {
      const count = quotas.get(quotaKey(userId, window));
      if (count !== undefined && count.used > 0) count.used--;
    },
    async readQuota(userId, window) {
      return quotas.get(quotaKey(userId, window))?.used ?? 0;
    },
    async getCachedStatus(projectId, at) {
      const entry = cache.get(projectId);
      if (entry === undefined) return undefined;
      if (entry.expiresAt <= at) {
        cache.delete(projectId);
        return undefined;
      }
      return entry;
    },
    async setCachedStatus(projectId, entry) {
      cache.set(projectId, entry);
    },
    async beginGeneration(projectId, userId, turn) {
      const project = record(projectId, userId, Date.parse(turn.at));
      project.turns.push(turn);
      if (project.turns.length > maxTurns) {
        project.turns.shift();
        project.firstGeneration++;
      }
      const generation = project.firstGeneration + project.turns.length - 1;
      // The project's earlier log goes first (its bytes and its place in its owner's logs with it).
      logs.delete(projectId);
      // Then the user's own least recently begun logs, so that the new one pushes out no other user's.
      for (const oldest of logsByUser.get(userId) ?? []) {
        if ((logsByUser.get(userId)?.size ?? 0) < maxLogsPerUser) break;
        logs.delete(oldest);
      }
      logs.set(projectId, { owner: userId, generation, events: [], bytes: 0, endedAt: undefined });
      const mine = logsByUser.get(userId) ?? new Set<string>();
      logsByUser.set(userId, mine.add(projectId));
      changed(projectId);
      return generation;
    },
    async appendEvent(projectId, generation, event) {
      const log = logs.get(projectId);
      if (log === undefined || log.generation !== generation) return;
      log.events.push(event);
      log.bytes += event.data.length;
      allEventBytes += event.data.length;
      while (log.events.length > maxEvents || (log.bytes > maxEventBytes && log.events.length > 1)) {
        const dropped = log.events.shift()?.data.length ?? 0;
        log.bytes -= dropped;
        allEventBytes -= dropped;
      }
      // Past the bytes of all logs, other logs go, least recently used first (this one is the most recent).
      while (allEventBytes > maxAllEventBytes) {
        const oldest = logs.oldest();
        if (oldest === undefined || oldest === projectId) break;
        logs.delete(oldest);
      }
      changed(projectId);
    },
    async endGeneration(projectId, generation, outcome) {
      const log = logs.get(projectId);
      if (log !== undefined && log.generation === generation) {
        log.endedAt = now();
        changed(projectId);
      }
      const project = projects.get(projectId);
      const turn = project?.turns[generation - (project?.firstGeneration ?? 1)];
      if (turn !== undefined) turn.outcome = outcome;
    },
    async watchEvents(projectId, onChange) {
      let mine = watchers.get(projectId);
      if (mine === undefined) watchers.set(projectId, (mine = new Set()));
      const listener = () => onChange();
      mine.add(listener);
      return () => {
        mine.delete(listener);
        if (mine.size === 0 && watchers.get(projectId) === mine) watchers.delete(projectId);
      };
    },
    async readEvents(projectId, after, maxBytes): Promise<GenerationEvents | undefined> {
      const log = liveLog(projectId);
      if (log === undefined) return undefined;
      // Ids are consecutive, so the first wanted event's index follows from the first kept id.
      const from = Math.max(0, after - (log.events[0]?.id ?? 1) + 1);
      let to = log.events.length;
      if (maxBytes !== undefined) {
        // A page: the events that fit in `maxBytes`, and at least one.
        let bytes = 0;
        for (to = from; to < log.events.length; to++) {
          bytes += log.events[to]?.data.length ?? 0;
          if (bytes > maxBytes && to > from) break;
        }
      }
      return { generation: log.generation, events: log.events.slice(from, to), ended: log.endedAt !== undefined };
    },
    async noteProject(projectId, userId, patch, at) {
      const project = record(projectId, userId, at);
      Object.assign(project.summary, patch, { updated_at: iso(at) });
    },
    async listProjects(userId) {
      // Ids are kept oldest first; reversed, a stable sort keeps same-millisecond projects newest first.
      return [...(byUser.get(userId) ?? [])]
        .slice(-maxListedProjects)
        .reverse()
        .map((projectId) => projects.get(projectId))
        .filter((project): project is ProjectRecord => project?.owner === userId)
        .map((project) => ({ ...project.summary }))
        .sort((a, b) => b.created_at.localeCompare(a.created_at));
    },
    async getConversation(projectId) {
      return (projects.get(projectId)?.turns ?? []).map((turn) => ({ ...turn }));
    },
  };
}
