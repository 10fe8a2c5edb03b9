/**
 * The team-wide request budget, shared fairly between end users. The memory store runs `createBudgetLedger`;
 * the Redis store runs the same rules in one Lua script (redis-budget-script.ts), so N instances together
 * stay within the upstream limit.
 *
 * Rules, over a rolling window of `windowMs`:
 * 1. The team never sends more than `limit` upstream requests (the upstream's own limit).
 * 2. A user who already holds slots may not take the last `reserve` slots: they are kept for users who
 *    hold none, so one busy user never shuts newcomers out for a whole window.
 * 3. While several users are active (asked in the window, served or not), nobody holds more than
 *    `floor(limit / active)` slots (at least one), so a refused user gets the next slots that free.
 * A refusal says when the slot that blocks it leaves the window. Every decision is O(1) amortised: the
 * log is a queue pruned from its front, with a queue of times per user and the askers in ask order.
 */

/** One upstream request counted against the budget. */
export interface BudgetEntry {
  at: number;
  userId: string;
}

/** The limits of the budget. */
export interface BudgetLimits {
  /** Upstream requests per window for the whole team. */
  limit: number;
  windowMs: number;
  /** Slots kept for users who hold none (default: one fifth of the limit, at least 1 when limit > 1). */
  reserve?: number;
}

/** Whether a request may go upstream now, and if not, for how long to wait. */
export type BudgetDecision =
  { ok: true } | { ok: false; retryAfterMs: number; reason: 'team' | 'fair_share' | 'paused' };

/** The reserve used when none is given. */
export function defaultReserve(limit: number): number {
  return limit > 1 ? Math.max(1, Math.floor(limit / 5)) : 0;
}

/** The reserve in effect: never the whole limit. */
export function effectiveReserve(limits: BudgetLimits): number {
  return Math.min(limits.reserve ?? defaultReserve(limits.limit), Math.max(0, limits.limit - 1));
}

/** A queue of times with O(1) push, pop-front and index from the front. */
class TimeQueue {
  private items: number[] = [];
  private head = 0;
  get length(): number {
    return this.items.length - this.head;
  }
  at(index: number): number {
    return this.items[this.head + index] as number;
  }
  push(value: number): void {
    this.items.push(value);
  }
  shift(): void {
    this.head++;
    // Compacts once the dead front outweighs the live part, so memory stays proportional to the window.
    if (this.head > 32 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
  }
}

/** The budget's state for one team: the window's entries and its askers. */
export interface BudgetLedger {
  /** Decides for one request at `now` and, when allowed, counts it. */
  take(userId: string, now: number, limits: BudgetLimits): BudgetDecision;
  /** Refuses every slot until `until`. */
  pause(until: number): void;
  /** Users with slots or asks in the window (for bounds and tests). */
  size(): number;
}

/** Creates an empty ledger; its memory is bounded by the window's requests and askers. */
export function createBudgetLedger(): BudgetLedger {
  const team = new TimeQueue();
  const teamUsers: string[] = [];
  let teamHead = 0;
  const perUser = new Map<string, TimeQueue>();
  const askedAt = new Map<string, number>();
  let pausedUntil = 0;
  let last = 0;

  const prune = (since: number) => {
    while (team.length > 0 && team.at(0) <= since) {
      team.shift();
      const userId = teamUsers[teamHead] as string;
      teamHead++;
      const mine = perUser.get(userId);
      mine?.shift();
      if (mine !== undefined && mine.length === 0) perUser.delete(userId);
    }
    if (teamHead > 32 && teamHead * 2 > teamUsers.length) {
      teamUsers.splice(0, teamHead);
      teamHead = 0;
    }
    // Maps iterate in insertion order and an ask re-inserts its user, so the oldest asks come first.
    for (const [userId, at] of askedAt) {
      if (at > since) break;
      askedAt.delete(userId);
    }
  };

  return {
    take(userId, now, limits) {
      // Entries stay in time order even if the clock steps back.
      const at = Math.max(now, last);
      last = at;
      if (at < pausedUntil) return { ok: false, reason: 'paused', retryAfterMs: pausedUntil - at };
      const since = at - limits.windowMs;
      prune(since);
      askedAt.delete(userId);
      askedAt.set(userId, at);
      const wait = (time: number) => Math.max(1, time + limits.windowMs - at);
      const live = team.length;
      const mine = perUser.get(userId)?.length ?? 0;
      const reserve = effectiveReserve(limits);
      if (live >= limits.limit) return { ok: false, reason: 'team', retryAfterMs: wait(team.at(live - limits.limit)) };
      if (mine > 0 && live >= limits.limit - reserve) {
        return { ok: false, reason: 'team', retryAfterMs: wait(team.at(live - limits.limit + reserve)) };
      }
      if (askedAt.size > 1) {
        const share = Math.max(1, Math.floor(limits.limit / askedAt.size));
        const times = perUser.get(userId);
        if (times !== undefined && mine >= share) {
          return { ok: false, reason: 'fair_share', retryAfterMs: wait(times.at(mine - share)) };
        }
      }
      team.push(at);
      teamUsers.push(userId);
      let times = perUser.get(userId);
      if (times === undefined) perUser.set(userId, (times = new TimeQueue()));
      times.push(at);
      return { ok: true };
    },
    pause(until) {
      pausedUntil = Math.max(pausedUntil, until);
    },
    size() {
      return new Set([...perUser.keys(), ...askedAt.keys()]).size;
    },
  };
}

/**
 * Decides whether `userId` may send one more upstream request at `now`, given a log of counted requests
 * (the log's users count as the window's askers). A pure view of the ledger's rules, for tests and tools.
 */
export function decideBudget(
  log: readonly BudgetEntry[],
  userId: string,
  now: number,
  limits: BudgetLimits,
): BudgetDecision {
  const ledger = createBudgetLedger();
  const unlimited = { ...limits, limit: Number.MAX_SAFE_INTEGER, reserve: 0 };
  for (const entry of [...log].sort((a, b) => a.at - b.at)) ledger.take(entry.userId, entry.at, unlimited);
  return ledger.take(userId, now, limits);
}
