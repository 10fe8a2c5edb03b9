/**
 * The team-wide request budget, shared fairly between end users. The memory store runs `createBudgetLedger`;
 * the Redis store runs the same rules in one Lua script (redis-scripts.ts), so N instances together stay
 * within the upstream limit.
 *
 * Rules:
 * 1. The team never sends more than `limit` requests per rolling window (the upstream's own limit). Each
 *    request is held for `windowMs` plus 1% (at most 1 s), so a request that reached the upstream late
 *    cannot make it count one too many.
 * 2. Spread: at most `burst` requests per `windowMs * burst / limit`, so the window is never spent in one
 *    burst and slots keep freeing while the team is busy; a lone user still uses the whole window.
 * 3. Waiting users come first: a refused user is waiting until a little after the time it was told to come
 *    back. A request is served only if there is room for it after every waiting user served less recently
 *    than its user (never served first). Room is held for waiting users only, so nothing is kept idle when
 *    nobody waits, and users who keep asking take turns.
 * A refusal says when its room should be there.
 */

/** The limits of the budget. */
export interface BudgetLimits {
  /** Upstream requests per window for the whole team. */
  limit: number;
  windowMs: number;
  /** Most requests sent together (default: a quarter of the limit, rounded up); the rest are spread. */
  burst?: number;
  /**
   * Longest pause honoured from now, whatever was stored (a pause written before a cap existed, or by
   * another instance with a looser one is clamped when read). Default: no clamp.
   */
  maxPauseMs?: number;
}

/** Whether a request may go upstream now, and if not, for how long to wait. */
export type BudgetDecision =
  { ok: true } | { ok: false; retryAfterMs: number; reason: 'team' | 'fair_share' | 'paused' };

/** The budget's limits as both stores apply them. */
export interface BudgetShape {
  limit: number;
  /** How long one request counts: the window and a small margin. */
  holdMs: number;
  burst: number;
  spreadMs: number;
  /** How long after the time it was told a refused user still counts as waiting. */
  graceMs: number;
}

/** The limits in effect, defaults filled in. */
export function budgetShape(limits: BudgetLimits): BudgetShape {
  const burst = Math.min(limits.limit, Math.max(1, Math.floor(limits.burst ?? Math.ceil(limits.limit / 4))));
  return {
    limit: limits.limit,
    holdMs: limits.windowMs + Math.min(1000, Math.ceil(limits.windowMs / 100)),
    burst,
    spreadMs: Math.ceil((limits.windowMs * burst) / limits.limit),
    graceMs: Math.max(1000, Math.ceil(limits.windowMs / limits.limit)),
  };
}

/** When a refused user is told to come back, in ms from now: what the browser reads from `Retry-After`. */
export function toldWaitMs(waitMs: number): number {
  return Math.max(1, Math.ceil(waitMs / 1000)) * 1000;
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

/** The budget's state for one team: the window's requests, who was served when, who is waiting. */
export interface BudgetLedger {
  /** Decides for one request at `now` and, when allowed, counts it. */
  take(userId: string, now: number, limits: BudgetLimits): BudgetDecision;
  /** Refuses every slot until `until`. */
  pause(until: number): void;
  /** Users served in the window or waiting (for bounds and tests). */
  size(): number;
}

/**
 * Creates an empty ledger; its memory is bounded by the window's requests and users. A decision is O(1)
 * amortised plus one pass over the users waiting at that moment.
 */
export function createBudgetLedger(): BudgetLedger {
  const log = new TimeQueue();
  // Insertion order is serving order (a serve re-inserts), so the least recently served come first.
  const lastServed = new Map<string, number>();
  const waiting = new Map<string, { served: number; until: number }>();
  let pausedUntil = 0;
  let last = 0;

  return {
    take(userId, now, limits) {
      const shape = budgetShape(limits);
      // Entries stay in time order even if the clock steps back.
      const at = Math.max(now, last);
      last = at;
      const paused = Math.min(pausedUntil, at + (limits.maxPauseMs ?? Infinity));
      if (at < paused) return { ok: false, reason: 'paused', retryAfterMs: paused - at };
      while (log.length > 0 && log.at(0) <= at - shape.holdMs) log.shift();
      // Who was served when is remembered for two windows: long enough to order the users waiting now.
      for (const [user, served] of lastServed) {
        if (served > at - 2 * shape.holdMs) break;
        lastServed.delete(user);
      }
      const mine = lastServed.get(userId) ?? -Infinity;
      let ahead = 0;
      for (const [user, entry] of waiting) {
        if (entry.until <= at) waiting.delete(user);
        else if (user !== userId && entry.served < mine) ahead++;
      }
      const roomAt = (need: number) => {
        const within = (cap: number, span: number) => {
          const index = log.length - cap + need - 1;
          if (index < 0) return at;
          // More users ahead than the cap: they fill it first, so not before a span from the newest request.
          if (index >= log.length) return Math.max(at, log.length > 0 ? log.at(log.length - 1) : at) + span;
          return log.at(index) + span;
        };
        return Math.max(within(shape.limit, shape.holdMs), within(shape.burst, shape.spreadMs));
      };
      const free = roomAt(ahead + 1);
      if (free <= at) {
        log.push(at);
        lastServed.delete(userId);
        lastServed.set(userId, at);
        waiting.delete(userId);
        return { ok: true };
      }
      const retryAfterMs = free - at;
      waiting.set(userId, { served: mine, until: at + toldWaitMs(retryAfterMs) + shape.graceMs });
      return { ok: false, reason: ahead > 0 && roomAt(1) <= at ? 'fair_share' : 'team', retryAfterMs };
    },
    pause(until) {
      pausedUntil = Math.max(pausedUntil, until);
    },
    size() {
      return new Set([...lastServed.keys(), ...waiting.keys()]).size;
    },
  };
}
