/**
 * The team-wide request budget, shared fairly between end users. A pure decision over a log of recent
 * upstream requests, so the memory store and a Redis store (in a Lua script) can run the same rules.
 *
 * Rules, over a rolling window of `windowMs`:
 * 1. The team never sends more than `limit` upstream requests (the upstream's own limit).
 * 2. A user who already holds slots may not take the last `reserve` slots: they are kept for a user
 *    who holds none, so one busy user never shuts a newcomer out for a whole window.
 * 3. While several users are active in the window, nobody holds more than `floor(limit / active)`
 *    slots (at least one), where `active` counts the users in the window plus the one asking.
 * A refusal says when the slot that blocks it leaves the window.
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
  /** Slots kept for users who hold none (default: one tenth of the limit, at least 1 when limit > 1). */
  reserve?: number;
}

/** Whether a request may go upstream now, and if not, for how long to wait. */
export type BudgetDecision =
  { ok: true } | { ok: false; retryAfterMs: number; reason: 'team' | 'fair_share' | 'paused' };

/** The reserve used when none is given. */
export function defaultReserve(limit: number): number {
  return limit > 1 ? Math.max(1, Math.floor(limit / 10)) : 0;
}

/** Decides whether `userId` may send one more upstream request at `now`; `log` holds the window's entries. */
export function decideBudget(
  log: readonly BudgetEntry[],
  userId: string,
  now: number,
  limits: BudgetLimits,
): BudgetDecision {
  const since = now - limits.windowMs;
  const live = log.filter((entry) => entry.at > since);
  const mine = live.filter((entry) => entry.userId === userId);
  const users = new Set(live.map((entry) => entry.userId));
  users.add(userId);
  const reserve = Math.min(limits.reserve ?? defaultReserve(limits.limit), Math.max(0, limits.limit - 1));
  const expiry = (entries: readonly BudgetEntry[], keep: number) => {
    // The wait until only `keep` of these entries are left in the window.
    const sorted = entries.map((entry) => entry.at).sort((a, b) => a - b);
    const blocking = sorted[Math.max(0, sorted.length - keep - 1)] ?? now;
    return Math.max(1, blocking + limits.windowMs - now);
  };
  if (live.length >= limits.limit) return { ok: false, reason: 'team', retryAfterMs: expiry(live, limits.limit - 1) };
  if (mine.length > 0 && live.length >= limits.limit - reserve) {
    return { ok: false, reason: 'team', retryAfterMs: expiry(live, limits.limit - reserve - 1) };
  }
  if (users.size > 1) {
    const share = Math.max(1, Math.floor(limits.limit / users.size));
    if (mine.length >= share) return { ok: false, reason: 'fair_share', retryAfterMs: expiry(mine, share - 1) };
  }
  return { ok: true };
}
