import { describe, expect, it } from 'vitest';
import { createBudgetLedger, decideBudget, defaultReserve, type BudgetEntry } from 'agent-embed/server';

const limits = { limit: 10, windowMs: 60_000 };
const entries = (userId: string, count: number, at = 0): BudgetEntry[] =>
  Array.from({ length: count }, (_, index) => ({ userId, at: at + index }));

describe('decideBudget', () => {
  it('lets a lone user use the budget but the reserve', () => {
    expect(defaultReserve(10)).toBe(2);
    expect(decideBudget(entries('alice', 7), 'alice', 100, limits)).toEqual({ ok: true });
    expect(decideBudget(entries('alice', 8), 'alice', 100, limits)).toMatchObject({ ok: false, reason: 'team' });
    expect(decideBudget(entries('alice', 8), 'bob', 100, limits)).toEqual({ ok: true });
  });

  it('never exceeds the team limit, and says when the oldest slot frees', () => {
    const log = [...entries('alice', 9), { userId: 'bob', at: 50 }];
    expect(decideBudget(log, 'carol', 100, limits)).toEqual({ ok: false, reason: 'team', retryAfterMs: 60_000 - 100 });
  });

  it('caps each user at floor(limit / active users) while several are active', () => {
    const log = [...entries('alice', 3), ...entries('bob', 1, 10)];
    // alice, bob and carol are active: a share of 3 each.
    expect(decideBudget(log, 'carol', 100, limits)).toEqual({ ok: true });
    expect(decideBudget(log, 'bob', 100, limits)).toEqual({ ok: true });
    expect(decideBudget(log, 'alice', 100, limits)).toEqual({ ok: true });
    const withCarol = [...log, { userId: 'carol', at: 20 }];
    expect(decideBudget(withCarol, 'alice', 100, limits)).toEqual({
      ok: false,
      reason: 'fair_share',
      retryAfterMs: 60_000 - 100,
    });
    expect(decideBudget(withCarol, 'bob', 100, limits)).toEqual({ ok: true });
  });

  it('forgets entries that left the window', () => {
    expect(decideBudget(entries('alice', 10), 'alice', 60_010, limits)).toEqual({ ok: true });
  });

  it('gives every user at least one slot however many are active', () => {
    const small = { limit: 4, windowMs: 60_000, reserve: 0 };
    const log = Array.from({ length: 3 }, (_, index) => ({ userId: `user-${index}`, at: index }));
    expect(decideBudget(log, 'newcomer', 10, small)).toEqual({ ok: true });
    expect(decideBudget(log, 'user-0', 10, small)).toMatchObject({ ok: false, reason: 'fair_share' });
  });
});

describe('createBudgetLedger', () => {
  it('serves each of three users who keep asking at least once in every window', () => {
    const ledger = createBudgetLedger();
    const windowMs = 60_000;
    const served: Record<string, number[]> = { alice: [], bob: [], carol: [] };
    // alice asks ten times a second, bob and carol once a second, for five windows.
    for (let at = 0; at < 5 * windowMs; at += 100) {
      const askers = at % 1000 === 0 ? ['alice', 'bob', 'carol'] : ['alice'];
      for (const user of askers) if (ledger.take(user, at, { limit: 10, windowMs }).ok) served[user]?.push(at);
    }
    for (const times of Object.values(served)) {
      const gaps = times.slice(1).map((at, index) => at - (times[index] as number));
      expect(times[0]).toBeLessThan(windowMs);
      expect(Math.max(...gaps)).toBeLessThan(windowMs);
    }
    // Nobody holds most of the budget while the others wait: over the run, shares stay within one window's worth.
    const counts = Object.values(served).map((times) => times.length);
    expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(10);
  });

  it('never counts more than the limit in any window, whatever the mix of users', () => {
    const ledger = createBudgetLedger();
    const taken: number[] = [];
    for (let at = 0; at < 300_000; at += 37) {
      const user = `user-${(at * 7919) % 13}`;
      if (ledger.take(user, at, { limit: 10, windowMs: 60_000 }).ok) taken.push(at);
    }
    for (const [index, at] of taken.entries()) {
      expect(taken.filter((other) => other > at - 60_000 && other <= at).length).toBeLessThanOrEqual(10);
      if (index > 200) break;
    }
    expect(ledger.size()).toBeLessThanOrEqual(13);
  });
});
