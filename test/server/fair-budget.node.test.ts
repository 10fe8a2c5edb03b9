import { describe, expect, it } from 'vitest';
import { createBudgetLedger, type BudgetDecision, type BudgetLimits } from 'agent-embed/server';

const limits: BudgetLimits = { limit: 10, windowMs: 60_000 };

/**
 * Users who always want one more request, on a simulated clock: each asks again at once when served and
 * when told (the whole seconds of `Retry-After`) when refused. Returns the times each user was served.
 */
function simulate(joins: Record<string, number>, untilMs: number, budget = limits): Record<string, number[]> {
  const ledger = createBudgetLedger();
  const served: Record<string, number[]> = {};
  const asks = Object.entries(joins).map(([user, at], seq) => ({ user, at, seq }));
  let seq = asks.length;
  for (const user of Object.keys(joins)) served[user] = [];
  for (;;) {
    asks.sort((a, b) => a.at - b.at || a.seq - b.seq);
    const ask = asks.shift();
    if (ask === undefined || ask.at >= untilMs) break;
    const decision = ledger.take(ask.user, ask.at, budget);
    if (decision.ok) served[ask.user]?.push(ask.at);
    const next = decision.ok ? ask.at : ask.at + Math.ceil(decision.retryAfterMs / 1000) * 1000;
    asks.push({ user: ask.user, at: next, seq: seq++ });
  }
  return served;
}

/** Most requests in any window ending at a served time. */
function busiestWindow(times: number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  return Math.max(...sorted.map((at) => sorted.filter((other) => other > at - windowMs && other <= at).length));
}

const longestGap = (times: number[]) => Math.max(...times.slice(1).map((at, index) => at - (times[index] as number)));

describe('createBudgetLedger', () => {
  it('sends a burst, then spreads the rest of the window', () => {
    const ledger = createBudgetLedger();
    const decisions: BudgetDecision[] = Array.from({ length: 4 }, () => ledger.take('alice', 0, limits));
    expect(decisions.slice(0, 3)).toEqual([{ ok: true }, { ok: true }, { ok: true }]);
    // A burst of a quarter of the limit (3), then 3 per 18 s.
    expect(decisions[3]).toEqual({ ok: false, reason: 'team', retryAfterMs: 18_000 });
    expect(ledger.take('alice', 18_000, limits)).toEqual({ ok: true });
    expect(createBudgetLedger().take('alice', 0, { ...limits, burst: 10 })).toEqual({ ok: true });
  });

  it('lets one user alone use the whole window, and never more than the limit in any window', () => {
    const windows = 10;
    const served = simulate({ alice: 0 }, windows * limits.windowMs).alice ?? [];
    // Each request counts for its window and 1% more, so at most one request of the ten windows is lost.
    expect(served.length).toBeGreaterThanOrEqual(windows * limits.limit - 1);
    expect(busiestWindow(served, limits.windowMs)).toBe(limits.limit);
    expect(longestGap(served)).toBeLessThanOrEqual(18_000);
  });

  it('counts a request for its window and 1% more, so late arrivals upstream cannot exceed the limit', () => {
    const ledger = createBudgetLedger();
    const wide = { ...limits, burst: 10 };
    for (let index = 0; index < 10; index++) expect(ledger.take('alice', 0, wide).ok).toBe(true);
    expect(ledger.take('alice', 60_000, wide)).toEqual({ ok: false, reason: 'team', retryAfterMs: 600 });
    expect(ledger.take('alice', 60_600, wide)).toEqual({ ok: true });
  });

  it('gives the next room to a waiting user before a user served more recently', () => {
    const ledger = createBudgetLedger();
    const small = { limit: 2, windowMs: 60_000, burst: 2 };
    expect(ledger.take('alice', 0, small).ok).toBe(true);
    expect(ledger.take('alice', 30_000, small).ok).toBe(true);
    expect(ledger.take('bob', 31_000, small)).toEqual({ ok: false, reason: 'team', retryAfterMs: 29_600 });
    // One room frees at 60.6 s; alice asks first, but bob waits for it and was served less recently.
    expect(ledger.take('alice', 60_600, small)).toMatchObject({ ok: false, reason: 'fair_share' });
    expect(ledger.take('bob', 61_000, small)).toEqual({ ok: true });
    expect(ledger.take('alice', 61_000, small)).toMatchObject({ ok: false, reason: 'team' });
  });

  it('holds room only for users still waiting: one who does not come back loses it', () => {
    const ledger = createBudgetLedger();
    const one = { limit: 1, windowMs: 60_000 };
    expect(ledger.take('alice', 0, one).ok).toBe(true);
    // bob is told 60 s and counts as waiting until then and a grace of windowMs / limit (60 s).
    expect(ledger.take('bob', 1_000, one)).toMatchObject({ ok: false, reason: 'team', retryAfterMs: 59_600 });
    expect(ledger.take('alice', 120_999, one)).toMatchObject({ ok: false, reason: 'fair_share' });
    expect(ledger.take('alice', 121_000, one)).toEqual({ ok: true });
  });

  it('shares the window between users who keep asking, each spread over it, and wastes none', () => {
    const windows = 10;
    const served = simulate({ alice: 0, bob: 0, carol: 0 }, windows * limits.windowMs);
    const counts = Object.values(served).map((times) => times.length);
    expect(counts.reduce((sum, count) => sum + count, 0)).toBeGreaterThanOrEqual(windows * limits.limit - 1);
    expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
    expect(busiestWindow(Object.values(served).flat(), limits.windowMs)).toBe(limits.limit);
    // Turns instead of one burst per window: nobody waits even half a window between two requests.
    for (const times of Object.values(served)) expect(longestGap(times)).toBeLessThan(limits.windowMs / 2);
  });

  it('serves a user who joins a busy team within a spread interval, not a window', () => {
    const served = simulate({ alice: 0, bob: 30_500 }, 120_000);
    const first = served.bob?.[0] ?? Infinity;
    expect(first - 30_500).toBeLessThanOrEqual(18_000);
    expect(busiestWindow(Object.values(served).flat(), limits.windowMs)).toBeLessThanOrEqual(limits.limit);
  });

  it('never counts more than the limit in any window, whatever the mix of users', () => {
    const ledger = createBudgetLedger();
    const taken: number[] = [];
    for (let at = 0; at < 300_000; at += 37) {
      const user = `user-${(at * 7919) % 13}`;
      if (ledger.take(user, at, limits).ok) taken.push(at);
    }
    expect(busiestWindow(taken, limits.windowMs)).toBeLessThanOrEqual(limits.limit);
    expect(taken.length).toBeGreaterThanOrEqual(4 * limits.limit);
    expect(ledger.size()).toBeLessThanOrEqual(13);
  });

  it('refuses everything while paused', () => {
    const ledger = createBudgetLedger();
    ledger.pause(5_000);
    expect(ledger.take('alice', 1_000, limits)).toEqual({ ok: false, reason: 'paused', retryAfterMs: 4_000 });
    expect(ledger.take('alice', 5_000, limits)).toEqual({ ok: true });
  });
});
